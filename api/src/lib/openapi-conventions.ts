// What other client generators expect of the contract, applied to the built document in one place:
// a stable operationId for every operation (from its method and path, so it changes only when the
// path does), every tag defined with a description, and the bearer scheme declared and applied as
// the server applies it (issue 44): required where the operation answers 401 without a token,
// optional (`[{}, {bearer: []}]`) where a guest may call, none on the token endpoints. What every
// operation of the API may answer whatever its route says is added here too: 401 to a token that is
// not valid (lib/auth.ts), 413 to a body over its limit (app.ts), 503 while the database is away
// (lib/errors.ts), and UUIDs carry zod's own pattern.
import { z } from '@hono/zod-openapi'
import { takesNoBearer } from './auth'
import { isCatalogueRead } from './catalogue-reads'
import { OPTIONAL_BEARER, UUID_PATTERN } from './schemas'

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
  requestBody?: unknown
  parameters?: unknown[]
  responses?: Record<string, unknown>
}

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }
const STALE_TOKEN = {
  description:
    'The bearer token sent is not valid (expired, or its sign-in ended): refresh it and retry, or call without one',
  content: errorContent,
}
const UNSUPPORTED = {
  description:
    'The body is not in a format this operation reads (send JSON with `Content-Type: application/json`)',
  content: errorContent,
}
const TOO_LARGE = { description: 'The request body is over its size limit', content: errorContent }
const INVALID = {
  description:
    'A parameter or the body does not match this contract (`code` validation_error, `fields` by name)',
  content: errorContent,
}
const WITH_BODY = new Set(['post', 'put', 'patch'])
// what the back-office guard (routes/admin/guard.ts) answers for every admin operation
const STAFF_ONLY = {
  description:
    'The signed-in account has no staff role for this operation (`admin_forbidden`), or its email is not confirmed yet',
  content: errorContent,
}
const NOT_STAFF = {
  description: 'No such address for a guest or a shopper: the back-office does not reveal itself',
  content: errorContent,
}
const STAFF_WRITES_LIMITED = {
  description: 'Too many back-office changes by this staff member in a short time (`Retry-After`)',
  content: errorContent,
}

// what lib/errors.ts answers, on any operation, when the database is away (restart, failover,
// overload: db/faults.ts): every operation reads it, if only to check a bearer token (lib/auth.ts)
const DATABASE_DOWN = {
  description:
    'The database is unavailable for a moment (restart, failover, overload; `code` database_unavailable): retry after `Retry-After` seconds',
  headers: {
    'Retry-After': {
      description: 'Seconds to wait before trying again',
      schema: { type: 'string', pattern: '^\\d+$' },
      required: true,
    },
  },
  content: errorContent,
}

// what the catalogue reads answer to an If-None-Match that still holds (app.ts)
const NOT_MODIFIED = {
  description: 'Not modified: the `If-None-Match` ETag is still the answer’s (no body)',
  headers: { ETag: { description: 'The answer’s tag', schema: { type: 'string' } } },
}

type Link = { operationId: string; parameters?: Record<string, string>; description: string }
const ORDER_NEXT: Record<string, Link> = {
  pay: {
    operationId: 'postPaymentsByName',
    description: 'Start paying for the order: send its `id` as `order_id` to a payment method by name',
  },
  status: {
    operationId: 'getOrdersStatusById',
    parameters: { id: '$response.body#/id' },
    description: 'Follow the order’s status while it is paid and delivered',
  },
  order: {
    operationId: 'getOrdersById',
    parameters: { id: '$response.body#/id' },
    description: 'The whole order',
  },
}
/**
 * OpenAPI links (issue 44, finding 8): a stateful client or test follows the purchase flow (order →
 * payment → status → order) and sign-in → profile without knowing it by heart.
 */
const LINKS: Record<string, Record<string, Record<string, Link>>> = {
  ...Object.fromEntries(
    [
      'postOrdersPubg',
      'postOrdersStandoff',
      'postOrdersSteam',
      'postOrdersSupplyChannel',
      'postOrdersRokky',
    ].map((id) => [id, { '201': ORDER_NEXT, '200': ORDER_NEXT }]),
  ),
  postPaymentsByName: {
    '200': {
      paymentData: {
        operationId: 'getOrdersPaymentDataById',
        parameters: { id: '$request.body#/order_id' },
        description: 'The payment’s data as the pay page shows it',
      },
      status: {
        operationId: 'getOrdersStatusById',
        parameters: { id: '$request.body#/order_id' },
        description: 'Follow the order’s status until the payment settles',
      },
    },
  },
  getOrdersStatusById: {
    '200': {
      order: {
        operationId: 'getOrdersById',
        parameters: { id: '$response.body#/id' },
        description: 'The whole order',
      },
    },
  },
  postAuthJwtCreate: {
    '200': {
      profile: {
        operationId: 'getAuthProfile',
        description: 'The signed-in profile: send `access` as the bearer token',
      },
    },
  },
}

function addLinks(ops: Map<string, Operation>): void {
  for (const [source, byStatus] of Object.entries(LINKS)) {
    const op = ops.get(source)
    if (!op) continue // an operation of another build (a role without it): nothing to link
    for (const [status, links] of Object.entries(byStatus)) {
      const response = op.responses?.[status] as { links?: Record<string, Link> } | undefined
      if (!response) continue
      for (const link of Object.values(links))
        if (!ops.has(link.operationId)) throw new Error(`link to unknown operation ${link.operationId}`)
      response.links = { ...links }
    }
  }
}

/** zod's own checks of formats, which `format` alone states more loosely than the server applies. */
const FORMAT_PATTERNS: Record<string, string> = { uuid: UUID_PATTERN.source, email: z.regexes.email.source }

/** Every `format: uuid` or `format: email` string gets the pattern the server checks. */
function patternFormats(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) patternFormats(item)
    return
  }
  if (!node || typeof node !== 'object') return
  const o = node as Record<string, unknown>
  const pattern = typeof o.format === 'string' ? FORMAT_PATTERNS[o.format] : undefined
  if (pattern && o.type === 'string' && o.pattern === undefined) o.pattern = pattern
  for (const v of Object.values(o)) patternFormats(v)
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
      op.responses ??= {}
      const responses = op.responses
      if (takesNoBearer(method, path)) {
        // the token endpoints and provider notifications read no bearer token at all
        op.security ??= []
      } else {
        // a signed-in user or staff member: the route lists 401 for a call without a token;
        // otherwise a guest may call (a token, when sent, identifies the buyer)
        op.security ??=
          responses['401'] || op.tags?.includes('admin') ? [{ bearer: [] }] : [...OPTIONAL_BEARER]
        responses['401'] ??= STALE_TOKEN
      }
      if (op.tags?.includes('admin')) {
        responses['403'] ??= STAFF_ONLY
        responses['404'] ??= NOT_STAFF
        if (method !== 'get') responses['429'] ??= STAFF_WRITES_LIMITED
      }
      // the API's body limit (app.ts) answers any request that carries a body
      if (op.requestBody || WITH_BODY.has(method)) responses['413'] ??= TOO_LARGE
      // the JSON body reader (lib/errors.ts) refuses another content type
      if (op.requestBody) responses['415'] ??= UNSUPPORTED
      // the validation hook (lib/validation.ts) answers any operation that reads parameters or a body
      if (op.requestBody || op.parameters?.length) responses['400'] ??= INVALID
      if (method === 'get' && isCatalogueRead(path)) responses['304'] ??= NOT_MODIFIED
      // an operation with its own 503 (health: the same, said in its own shape) keeps it
      responses['503'] ??= DATABASE_DOWN
    }
  }
  const byId = new Map<string, Operation>()
  for (const ops of Object.values(d.paths ?? {}))
    for (const [method, op] of Object.entries(ops))
      if (METHODS.has(method) && op.operationId) byId.set(op.operationId, op)
  addLinks(byId)
  patternFormats(d.paths)
  patternFormats(d.components?.schemas)
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
