// Every operation of openapi/schema.json, fuzzed from its own schema (tests/helpers/openapi-arbitrary):
// as a guest, a buyer and the owner, with valid and wrong-typed path params, query params, headers
// and JSON bodies. Each answer must be below 500, declared by the operation for that status, and
// (when JSON) valid against the declared response schema (tests/helpers/contract.ts). Issue 44 added
// the request's side: a request the contract allows must not be refused by the server's validation,
// one it does not allow must not be accepted, and the declared security must hold (a guest refused
// where a token is required, let through where it is optional). Multipart uploads get hand-made bad
// inputs instead (random multipart bodies would say nothing more than "not an image").
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import {
  countries,
  games,
  gifts,
  paymentMethods,
  payments,
  products,
  riskSettings,
  standoffSettings,
  supplyServers,
} from '#api/db/schema'
import {
  type GeneratedRequest,
  listOperations,
  type OpenApiDocument,
  type Operation,
  requestArbitrary,
} from '#tests/helpers/openapi-arbitrary'
import {
  contractDoc,
  type Answer,
  operationOf,
  requestProblems,
  responseProblem,
} from '#tests/helpers/contract'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { grantRole } from '#api/services/admin/roles'
import { makeGame, makeProduct, makeUser } from './orders-fixtures'
import { createPubgOrder, hex, makePubgStock, makeSandboxMethod, pay } from './payments-fixtures'

/** Fixed so that CI is repeatable; set FUZZ_SEED to explore other inputs. */
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122)

const doc = contractDoc as OpenApiDocument
const operations = listOperations(doc)
/** 14 per identity, three identities: about as many requests as the two identities of 20 before. */
const RUNS_PER_IDENTITY = Number(process.env.FUZZ_RUNS ?? 14)

let api: TestApi
/** Real ids from the seeded database and orders made for the run, by parameter/property name. */
let basePools: Record<string, unknown[]>
const guestOrders: string[] = []
/** The back-office is fuzzed as its owner, on rows of its own so that the storefront's stay usable. */
let ownerToken: string
const adminRows = { gameId: 0, productId: 0, orderId: '' }

type OrderKind = 'pubg' | 'standoff' | 'steam' | 'supply_channel' | 'rokky'
const GAME_KIND: Record<Exclude<OrderKind, 'rokky'>, string> = {
  pubg: 'PUBGGame',
  standoff: 'StandoffGame',
  steam: 'Steam',
  supply_channel: 'SupplyGame',
}
/** Per order kind: values that make a request of that kind go deep (products of one game, …). */
const kindPools = {} as Record<OrderKind, Record<string, unknown[]>>
/** A creation body per kind that the API accepts, to make orders of every kind for the run. */
const createBodies = {} as Record<OrderKind, Record<string, unknown>>

beforeAll(async () => {
  api = await createTestApi({
    contract: false,
    // Fuzzed sign-ins should reach the limit now and then: it is declared (429) and must hold.
    env: { SIGNIN_LIMIT_PER_ACCOUNT: '5', SIGNIN_LIMIT_PER_ADDRESS: '50' },
  })
  // every run makes Standoff orders of one pack; with the surplus on, open orders of one listing
  // price have 24 surpluses (issue 31, tested in delivery-desk.test.ts), which the fuzz would use up
  await api.db.update(standoffSettings).set({ isSurplusEnabled: false })
  const { product } = await makePubgStock(api, { codes: 200, maxQuantity: 5 })
  const { method } = await makeSandboxMethod(api, 'redirect')
  for (let i = 0; i < 3; i++) guestOrders.push(await createPubgOrder(api, product.id))
  await pay(api, method.name, guestOrders[0]!)
  const ids = async <T extends { id: unknown }>(rows: Promise<T[]>) => (await rows).map((r) => r.id)
  basePools = {
    game_pk: await ids(api.db.select({ id: games.id }).from(games)),
    game_id: await ids(api.db.select({ id: games.id }).from(games)),
    product_id: await ids(api.db.select({ id: products.id }).from(products)),
    gift: await ids(api.db.select({ id: gifts.id }).from(gifts)),
    country_id: await ids(api.db.select({ id: countries.id }).from(countries)),
    payment_id: await ids(api.db.select({ id: payments.id }).from(payments)),
    name: (await api.db.select({ name: paymentMethods.name }).from(paymentMethods)).map((m) => m.name),
    slug: ['privacy-policy', 'user-agreement', 'TextBlock', 'contacts'],
    code: ['WELCOME10', 'GIFT15', 'NOPE'],
    currency: ['RUB', 'USD', 'KZT'],
    email: ['buyer@example.com', 'Другой@example.com', 'x@y.ru'],
    quantity: [1, 2],
    amount: ['500.00', '150.50', 700],
    surplus: ['0.05', '0.23'],
    steam_account_id: ['gaben'],
    game_account_id: ['51234567'],
    supply_channel_user_id: ['88990011'],
    moogold_user_id: ['88990011'],
    // player check: the demo's sandbox test player and another well-formed id
    user_id: ['100000001', '88990011'],
  }
  // one active game of each kind from the demo catalogue, with its products and servers
  const games_ = await api.db.select().from(games).where(eq(games.isActive, true))
  for (const [kind, gameKind] of Object.entries(GAME_KIND) as Array<[Exclude<OrderKind, 'rokky'>, string]>) {
    const candidates = games_.filter((g) => g.kind === gameKind && !g.isAuthRequired)
    let chosen: { game: (typeof games_)[number]; lines: Array<{ id: number }> } | null = null
    for (const game of candidates) {
      const lines = await api.db
        .select({ id: products.id })
        .from(products)
        .where(and(eq(products.gameId, game.id), eq(products.isActive, true)))
      if (lines.length > 0 || kind === 'steam') {
        chosen = { game, lines }
        break
      }
    }
    if (!chosen) throw new Error(`the demo catalogue has no usable ${gameKind}`)
    const servers = await ids(
      api.db
        .select({ id: supplyServers.id })
        .from(supplyServers)
        .where(eq(supplyServers.gameId, chosen.game.id)),
    )
    const productIds = chosen.lines.map((l) => l.id)
    kindPools[kind] = {
      product_id: productIds,
      game: [chosen.game.id],
      supply_channel_server: servers,
      moogold_server: servers,
    }
    const line = [{ product_id: productIds[0], quantity: 1 }]
    createBodies[kind] = {
      pubg: { products: line },
      standoff: { products: line, game_account_id: '51234567' },
      steam: { amount: '500.00', steam_account_id: 'gaben', game: chosen.game.id },
      supply_channel: {
        products: line,
        supply_channel_user_id: '88990011',
        ...(servers[0] ? { supply_channel_server: servers[0], supply_channel_server_custom_id: '2041' } : {}),
      },
    }[kind]
  }
  kindPools.rokky = {}
  createBodies.rokky = { gift: basePools.gift![0] }

  const owner = await makeUser(api)
  await grantRole(api.db, owner.email, 'owner', 'fuzz')
  ownerToken = owner.token
  adminRows.gameId = (await makeGame(api, 'PUBGGame')).id
  adminRows.productId = (
    await makeProduct(api, adminRows.gameId, 'PUBGProduct', { price: 9900, amountUc: 60 })
  ).id
  const made = await api.call<{ id: string }>('POST', '/api/orders/pubg/', {
    body: { products: [{ quantity: 1, product_id: adminRows.productId }], email: 'admin-fuzz@example.com' },
  })
  adminRows.orderId = made.body.id
})
// The walk may save random «Антифрод» limits (PUT /api/admin/antifraud/, issue 34) as low as one order:
// back to the test defaults after each test, so the next one's own orders are not refused
afterEach(async () => {
  await api?.db.delete(riskSettings)
})
afterAll(() => api?.close())

async function freshOwner(): Promise<string> {
  const owner = await makeUser(api)
  await grantRole(api.db, owner.email, 'owner', 'fuzz')
  return owner.token
}

const kindOf = (op: Operation): OrderKind =>
  (/^\/api\/orders\/(pubg|standoff|steam|supply_channel|rokky)\//.exec(op.path)?.[1] as OrderKind) ?? 'pubg'

/** An order of `kind` (as the user, or as a guest); null when the API refuses (then the run says so). */
async function makeOrder(kind: OrderKind, token?: string): Promise<string | null> {
  const body = { ...createBodies[kind], ...(token ? {} : { email: 'guest@example.com' }) }
  const r = await api.call<{ id: string }>('POST', `/api/orders/${kind}/`, { body, token })
  return r.status === 201 ? r.body.id : null
}

/**
 * Pools for one operation: a path `id` is a game, product, gift or order depending on the path;
 * inside bodies, product ids and friends come from the one game of the operation's kind.
 */
function poolsFor(op: Operation, ownOrders: string[]): Record<string, unknown[]> {
  if (isAdmin(op)) {
    const pathId = op.path.startsWith('/api/admin/orders/')
      ? [adminRows.orderId]
      : op.path.startsWith('/api/admin/games/')
        ? [adminRows.gameId]
        : [adminRows.productId]
    return { ...basePools, 'path.id': pathId, kind: ['products'], code_id: [1, 2] }
  }
  const allOrders = [...ownOrders, ...guestOrders]
  const id = op.path.startsWith('/api/games/')
    ? basePools.game_id!
    : op.path.startsWith('/api/products/')
      ? basePools.product_id!
      : op.path.startsWith('/api/gifts/')
        ? basePools.gift!
        : allOrders
  const kind = kindPools[kindOf(op)] ?? {}
  return {
    ...basePools,
    ...kind,
    // an order line's `id` (updates) is a product id; the path's {id} is the order
    id: kind.product_id ?? basePools.product_id!,
    'path.id': id,
    order_id: allOrders,
    history_order_id: allOrders,
  }
}

async function send(req: GeneratedRequest, token: string | null, form = false): Promise<Answer> {
  const headers: Record<string, string> = { ...req.headers, 'x-shop-client-ip': `10.9.${hex(1)}.1` }
  if (token) headers.authorization = `Bearer ${token}`
  let body: string | undefined
  if (req.body !== undefined) {
    if (form && req.body && typeof req.body === 'object') {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(
        Object.entries(req.body as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      ).toString()
    } else {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(req.body)
    }
  }
  const res = await api.app.request(req.url, { method: req.method, headers, body, redirect: 'manual' })
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() }
}

/** The contract check of one answer; returns a description of what is wrong, or null. */
function contractProblem(op: Operation, answer: Answer): string | null {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`
  return responseProblem(op, answer)
}

type Identity = 'guest' | 'buyer' | 'owner'
/** Optional-auth operations that refuse a guest for some inputs, and why. */
const GUEST_REFUSED_BY_INPUT: Record<string, string> = {
  'GET /api/auth/social/{provider}/url/': 'mode=bind binds to the signed-in account',
}
const security = (op: Operation) =>
  (doc.paths[op.path]![op.method.toLowerCase()] as { security?: Array<Record<string, unknown>> }).security ??
  []
/** required: only with a token; optional: `[{}, {bearer: []}]`; none: the token endpoints. */
const authOf = (op: Operation) => {
  const s = security(op)
  return s.length === 0 ? 'none' : s.some((r) => Object.keys(r).length === 0) ? 'optional' : 'required'
}

/**
 * The request's side of the contract: what the server's validation did with a request the contract
 * allows or refuses, and whether the declared security held for a guest. A description, or null.
 */
function requestSideProblem(
  op: Operation,
  req: GeneratedRequest,
  who: Identity,
  answer: Answer,
): string | null {
  const url = new URL(req.url, 'http://x')
  const hit = operationOf(req.method, url.pathname)
  if (hit?.op.name !== op.name) return null // a junk path value that is another address
  const sent = {
    method: req.method,
    url: req.url,
    headers: { ...req.headers, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
  }
  // the callbacks' url-encoded forms are not modelled by the contract (no request body): their
  // path and query parameters are checked all the same
  const problems = requestProblems(op, hit.params, sent)
  const refusedByValidation = answer.status === 400 && answer.text.includes('"code":"validation_error"')
  if (problems.length === 0 && refusedByValidation)
    return `valid request refused: ${answer.text.slice(0, 200)}`
  if (problems.length > 0 && answer.status < 300)
    return `invalid request accepted with ${answer.status}: ${problems.join('; ').slice(0, 300)}`
  if (who === 'guest') {
    const auth = authOf(op)
    if (auth === 'required' && answer.status < 300)
      return `a guest got ${answer.status} from an operation declared as requiring a token`
    // a guest is refused only where the input asks for an account (the social URL's mode=bind);
    // sign-in's wrong password is its own 401
    const signInAsked = answer.text.includes('"code":"not_authenticated"')
    if (auth !== 'required' && signInAsked && !(op.name in GUEST_REFUSED_BY_INPUT))
      return `a guest got 401 from an operation a guest may call: ${answer.text.slice(0, 200)}`
  }
  return null
}

const isAdmin = (op: Operation) => op.path.startsWith('/api/admin/')

/** Answers per operation: a generator that only ever produced refusals would test little. */
const tallies = new Map<string, { success: number; refused: number }>()

const multipart = operations.filter((op) => op.body && !/json/.test(op.body.mediaType))
const fuzzable = operations.filter((op) => !multipart.includes(op))
/** Provider callbacks and the sandbox checkout take url-encoded forms the contract does not model. */
const takesForm = (op: Operation) => op.method === 'POST' && !op.body && op.path.startsWith('/api/payments/')

describe('every operation of the contract, fuzzed from its schema', () => {
  it('covers every operation in openapi/schema.json', () => {
    expect(operations.length).toBeGreaterThan(60)
    expect(fuzzable.length + multipart.length).toBe(operations.length)
  })

  it.each(fuzzable.map((op) => [op.name, op] as const))(
    '%s: no 5xx, only declared statuses, bodies match the schema',
    async (_name, op) => {
      const user = await makeUser(api)
      const kind = kindOf(op)
      const made = [await makeOrder(kind, user.token), await makeOrder(kind)]
      expect(made, `orders of kind ${kind} for the run`).not.toContain(null)
      const pools = poolsFor(op, made as string[])
      const problems: string[] = []
      // every operation as a guest, a buyer and the owner (the back-office: unknown to the first two)
      const identities: Array<[Identity, string | null]> = [
        ['guest', null],
        ['buyer', user.token],
        // a storefront call may end its caller's account (profile delete): an owner of its own
        ['owner', isAdmin(op) ? ownerToken : await freshOwner()],
      ]
      for (const [who, token] of identities) {
        const arb = requestArbitrary(doc, op, { pools })
        const formBodies = fc.option(
          fc.dictionary(
            fc.constantFrom('order_id', 'amount', 'token', 'SIGN', 'ORDER_ID', 'SUM', 'x'),
            fc.string(),
          ),
          { nil: undefined },
        )
        await fc.assert(
          fc.asyncProperty(arb, formBodies, async (req, form) => {
            const request = takesForm(op) ? { ...req, body: form } : req
            const answer = await send(request, token, takesForm(op))
            const tally = tallies.get(op.name) ?? { success: 0, refused: 0 }
            if (answer.status < 400) tally.success++
            else tally.refused++
            tallies.set(op.name, tally)
            const problem = contractProblem(op, answer) ?? requestSideProblem(op, req, who, answer)
            if (problem) problems.push(`${who} ${request.method} ${request.url} → ${problem}`)
          }),
          // every case runs and every problem is listed below (no shrinking: the list is the report)
          { numRuns: RUNS_PER_IDENTITY, seed: FUZZ_SEED },
        )
      }
      expect(problems).toEqual([])
    },
  )
})

it('the generated requests got past validation: most operations answered a success at least once', () => {
  const reached = [...tallies.values()].filter((t) => t.success > 0).length
  const requests = [...tallies.values()].reduce((n, t) => n + t.success + t.refused, 0)
  console.log(
    `fuzz: ${requests} requests over ${tallies.size} operations, ${reached} reached a success answer`,
  )
  expect(tallies.size).toBe(fuzzable.length)
  const never = [...tallies].filter(([, t]) => t.success === 0).map(([name]) => name)
  // The back-office's desk actions (an order awaiting a person), a receipt's resend (a refused
  // receipt) and YooKassa's notification (its addresses only) need state the generator cannot make,
  // so their share of never-reached operations grew with issues 31-33: 0.65 became 0.6, and with
  // the setup, antifraud and review operations of issues 32, 34 and 37 (they need rows the walk
  // cannot make: a held order, a country of its own) 0.6 became 0.55.
  expect(reached / tallies.size, `never a success:\n${never.join('\n')}`).toBeGreaterThan(0.55)
})

describe('multipart uploads, with hand-made bad inputs', () => {
  it('lists exactly the avatar, profile and back-office logo uploads as multipart', () => {
    expect(multipart.map((op) => op.name).sort()).toEqual([
      'POST /api/admin/games/{id}/logo/',
      'POST /api/admin/gifts/{id}/logo/',
      'POST /api/admin/payments/methods/{id}/icon/',
      'POST /api/admin/shop/logo/',
      'POST /api/auth/profile/',
      'POST /api/orders/standoff/avatar/{id}/',
    ])
  })

  const bad = (): Array<[string, () => BodyInit, Record<string, string>]> => {
    const textAsPng = () => {
      const f = new FormData()
      f.set('game_avatar', new Blob(['just text'], { type: 'image/png' }), 'a.png')
      f.set('avatar_img', new Blob(['just text'], { type: 'image/png' }), 'a.png')
      f.set('logo', new Blob(['just text'], { type: 'image/png' }), 'a.png')
      f.set('icon', new Blob(['just text'], { type: 'image/png' }), 'a.png')
      return f
    }
    const empty = () => new FormData()
    const wrongField = () => {
      const f = new FormData()
      f.set('nickname', 'x'.repeat(500))
      f.set('other', new Blob([new Uint8Array(10)]), '../../etc/passwd.png')
      return f
    }
    return [
      ['a text file named .png', textAsPng, {}],
      ['an empty form', empty, {}],
      ['unknown fields and a traversal filename', wrongField, {}],
      [
        'JSON sent to a multipart operation',
        () => '{"game_avatar": 1}',
        { 'content-type': 'application/json' },
      ],
      [
        'a broken multipart body',
        () => '--x\r\nnonsense',
        { 'content-type': 'multipart/form-data; boundary=x' },
      ],
    ]
  }

  it.each(multipart.map((op) => [op.name, op] as const))('%s: 4xx as declared', async (_name, op) => {
    const user = await makeUser(api)
    const { product } = await makePubgStock(api, { codes: 5, maxQuantity: 5 })
    const own = await createPubgOrder(api, product.id, { token: user.token })
    const problems: string[] = []
    // the back-office logos: refused to a shopper as an unknown address, checked for the owner
    const tokens = isAdmin(op) ? [user.token, ownerToken] : [null, user.token]
    const ids = isAdmin(op)
      ? [String(op.path.includes('/gifts/') ? basePools.gift![0] : adminRows.gameId), '999999', 'x']
      : [own, guestOrders[1]!, 'not-a-uuid']
    for (const token of tokens) {
      for (const id of ids) {
        for (const [label, body, headers] of bad()) {
          const url = op.path.replace('{id}', id)
          const res = await api.app.request(url, {
            method: op.method,
            body: body(),
            headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
          })
          const answer = {
            status: res.status,
            contentType: res.headers.get('content-type') ?? '',
            text: await res.text(),
          }
          const problem = contractProblem(op, answer)
          const who = token === ownerToken ? 'owner' : token ? 'user' : 'guest'
          if (problem) problems.push(`${who} ${label} ${url} → ${problem}`)
          // an empty profile form is a no-op update; files that are not images never pass
          else if (answer.status < 400 && label !== 'an empty form')
            problems.push(`${label} ${url} accepted with ${answer.status}`)
        }
      }
    }
    expect(problems).toEqual([])
  })
})
