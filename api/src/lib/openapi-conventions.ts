// What other client generators expect of the contract, applied to the built document in one place:
// a stable operationId for every operation (from its method and path, so it changes only when the
// path does), every tag defined with a description, and the bearer scheme declared and applied to
// the operations that need a signed-in user.

const TAG_DESCRIPTIONS: Record<string, string> = {
  admin: 'Back-office: orders, catalogue, stock, payments and staff (staff roles only).',
  auth: 'Accounts: sign-in, tokens, email confirmation, passwords, profile.',
  catalogue: 'Games, products and their prices.',
  content: 'Articles, FAQ and contacts.',
  gifts: 'Gift cards and their codes.',
  orders: 'Orders of every kind: create, update, status, history.',
  payments: 'Countries, payment methods and starting a payment.',
  'payments-callbacks': 'Payment providers’ server-to-server notifications.',
  'payments-sandbox': 'The demo payment provider (never active in production).',
  promo: 'Promo codes.',
  social: 'Sign-in through social networks.',
  system: 'Health and this document.',
}

type Operation = {
  operationId?: string
  tags?: string[]
  security?: Record<string, string[]>[]
  responses?: Record<string, unknown>
}
type Doc = {
  paths?: Record<string, Record<string, Operation>>
  tags?: { name: string; description: string }[]
  components?: Record<string, Record<string, unknown>>
  servers?: { url: string; description?: string }[]
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options'])
const word = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** `post /api/orders/{id}/pay/` → `postOrdersByIdPay`: camelCase of the method and the path. */
export function operationIdFor(method: string, path: string): string {
  const parts = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((seg) => {
      const param = /^\{(.+)\}$/.exec(seg)
      const words = (param ? param[1]! : seg).split(/[^A-Za-z0-9]+/).filter(Boolean)
      return (param ? 'By' : '') + words.map(word).join('')
    })
  return method + parts.join('')
}

/** Adds the conventions to a built OpenAPI document (mutates and returns it). */
export function withConventions<T>(doc: T): T {
  const d = doc as Doc
  const seen = new Set<string>()
  const used = new Set<string>()
  for (const [path, ops] of Object.entries(d.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (!METHODS.has(method)) continue
      op.operationId ??= operationIdFor(method, path)
      if (seen.has(op.operationId)) throw new Error(`duplicate operationId ${op.operationId}`)
      seen.add(op.operationId)
      for (const t of op.tags ?? []) used.add(t)
      // a signed-in user or staff member: the operation answers 401 without a valid token
      // otherwise public: an empty list says so (a token, when sent, still identifies the buyer)
      op.security ??= op.responses?.['401'] || op.tags?.includes('admin') ? [{ bearer: [] }] : []
    }
  }
  d.tags = [...used].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }))
  d.servers ??= [{ url: '/', description: 'This shop (the API is served under /api/ on its origin)' }]
  d.components ??= {}
  d.components.securitySchemes = {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'The access token from sign-in (`Authorization: Bearer …`).',
    },
  }
  return doc
}
