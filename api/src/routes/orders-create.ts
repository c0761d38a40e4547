import { createRoute } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { z } from '@hono/zod-openapi'
import type { ApiApp, AppEnv } from '../context'
import { clientAddressOf, clientNetworkOf } from '../lib/client-address'
import { errorResponses, jsonContent } from '../lib/schemas'
import { recordConsent } from '../services/consent/record'
import { buyerEmail } from '../services/orders/access'
import { guardBuyerStart } from '../services/risk/gate'
import {
  createOrder,
  type PreparedOrder,
  preparePubg,
  prepareStandoff,
  prepareSteam,
  prepareSupply,
} from '../services/orders/create'
import { idempotencyKey } from '../services/orders/idempotency'
import {
  IdempotencyHeaders,
  OrderCreatedSchema,
  PubgCreateBody,
  StandoffCreateBody,
  StandoffOrderCreatedSchema,
  SteamCreateBody,
  SteamOrderCreatedSchema,
  SupplyCreateBody,
} from './schemas/orders'
import { createdResult, standoffCreatedResult, steamCreatedResult } from '../services/orders/serialize'
import { actorOf } from '../lib/actor'

const RULES = `Lines with quantity 0 are dropped and an order needs at least one line; every product
must be active, of one active game of this kind, with its quantity within min_quantity..max_quantity.
Totals come from current prices (discount_price when set). The email is required for guests (signed-in
users default to their account email); a game with is_auth_required answers guests 403. Send an
\`Idempotency-Key\` header to make retries safe: the same key and body return the same order (200),
the same key with another body is a 409.`

const created = <T extends Parameters<typeof jsonContent>[0]>(schema: T) => ({
  201: jsonContent(schema, 'Order created'),
  200: jsonContent(schema, 'The order made earlier with the same Idempotency-Key and body'),
  // 403 buyer_blocked (block lists), 429 rate_limited with Retry-After (velocity limits, issue 34)
  // a guest may create an order: 401 only for a stale token (listed by lib/openapi-conventions.ts)
  ...errorResponses(400, 403, 409, 429),
})

const pubgRoute = createRoute({
  method: 'post',
  path: '/api/orders/pubg/',
  tags: ['orders'],
  summary: 'Create a PUBG voucher order',
  description: RULES,
  request: {
    headers: IdempotencyHeaders,
    body: { content: { 'application/json': { schema: PubgCreateBody } }, required: true },
  },
  responses: created(OrderCreatedSchema),
})

const standoffRoute = createRoute({
  method: 'post',
  path: '/api/orders/standoff/',
  tags: ['orders'],
  summary: 'Create a Standoff 2 gold order',
  description: `${RULES}\n\ngame_account_id is required; surplus is 0.00–0.23 in steps of 0.01 (default 0; stored
only while the Standoff settings enable it). Upload the avatar next with POST /api/orders/standoff/avatar/{id}/.
The listing price (listing_price) is claimed when a payment starts, not here: the surplus asked for is kept
when its price is free, else a free one is chosen; the payment start answers 409 when all 24 are held.`,
  request: {
    headers: IdempotencyHeaders,
    body: { content: { 'application/json': { schema: StandoffCreateBody } }, required: true },
  },
  responses: created(StandoffOrderCreatedSchema),
})

const steamRoute = createRoute({
  method: 'post',
  path: '/api/orders/steam/',
  tags: ['orders'],
  summary: 'Create a Steam wallet top-up order',
  description: `The amount (roubles, at most 2 decimals) must lie within min_amount..max_amount of
GET /api/orders/steam/settings/; total = amount + commission (commission percent of that call, rounded
to the kopeck). steam_account_id is required. The Steam game is the \`game\` id when given (it must be an
active Steam game); without it the shop's default Steam game is used (the first active one in catalogue
order), so the spec's body {amount, steam_account_id, email} always works. Email and Idempotency-Key rules as for the other kinds.`,
  request: {
    headers: IdempotencyHeaders,
    body: { content: { 'application/json': { schema: SteamCreateBody } }, required: true },
  },
  responses: created(SteamOrderCreatedSchema),
})

const supplyRoute = createRoute({
  method: 'post',
  path: '/api/orders/supply_channel/',
  tags: ['orders'],
  summary: 'Create a supply-channel (MooGold) top-up order',
  description: `${RULES}\n\nsupply_channel_user_id is required. When the game has is_server_needed:
with is_server_enum, supply_channel_server must be the id of one of its servers; otherwise
supply_channel_server_custom_id is required. Games that need no server ignore both.`,
  request: {
    headers: IdempotencyHeaders,
    body: { content: { 'application/json': { schema: SupplyCreateBody } }, required: true },
  },
  responses: created(OrderCreatedSchema),
})

type OrderBody = { email?: string | null; personal_data_consent?: boolean }
type RequestDeps = ReturnType<typeof requestDeps>

/**
 * The four order kinds in one table: the idempotency kind, whether preparing asks a supplier (the
 * player check), and how the order is prepared. Every kind then runs the same steps.
 */
const KINDS = {
  pubg: {
    asksSupplier: false,
    prepare: (d: RequestDeps, b: z.infer<typeof PubgCreateBody>, u: number | null) => preparePubg(d.db, b, u),
  },
  standoff: { asksSupplier: true, prepare: prepareStandoff },
  steam: { asksSupplier: true, prepare: prepareSteam },
  supply_channel: { asksSupplier: true, prepare: prepareSupply },
} satisfies Record<
  string,
  {
    asksSupplier: boolean
    prepare: (d: RequestDeps, b: never, u: number | null) => Promise<PreparedOrder>
  }
>

/** The deps with the caller's address: order creation's player look-ups count against its limit. */
const requestDeps = (c: Context<AppEnv>) => ({ ...c.var.deps, clientAddress: clientNetworkOf(c) })

/**
 * One order of `kind`: block lists and velocity limits (issue 34) before anything is prepared,
 * the idempotent creation with the buyer's consent (or its absence) in the order's transaction; a
 * replay records nothing new.
 */
async function createOfKind<K extends keyof typeof KINDS>(
  c: Context<AppEnv>,
  kind: K,
  body: Parameters<(typeof KINDS)[K]['prepare']>[1] & OrderBody,
) {
  const { db } = c.var.deps
  const userId = c.var.userId
  await guardBuyerStart(c.var.deps, actorOf(c), 'order', await buyerEmail(db, body.email, userId))
  const { asksSupplier, prepare } = KINDS[kind]
  const r = await createOrder(
    db,
    { key: idempotencyKey(c.req.header('idempotency-key')), kind, body, userId, asksSupplier },
    () =>
      (prepare as (d: RequestDeps, b: typeof body, u: number | null) => Promise<PreparedOrder>)(
        requestDeps(c),
        body,
        userId,
      ),
    // the consent (or its absence) is saved with the order, never apart from it
    (tx, order) =>
      recordConsent(tx, {
        context: 'order',
        given: body.personal_data_consent === true,
        email: order.email,
        userId: order.userId,
        orderId: order.id,
        ip: clientAddressOf(c),
        userAgent: c.req.header('user-agent') ?? null,
      }),
  )
  return { r, status: r.replay ? (200 as const) : (201 as const) }
}

export function registerOrderCreation(app: ApiApp) {
  app.openapi(pubgRoute, async (c) => {
    const { r, status } = await createOfKind(c, 'pubg', c.req.valid('json'))
    return c.json(createdResult(r.order, r.totals), status)
  })
  app.openapi(standoffRoute, async (c) => {
    const { r, status } = await createOfKind(c, 'standoff', c.req.valid('json'))
    return c.json(standoffCreatedResult(r.order, r.totals), status)
  })
  app.openapi(steamRoute, async (c) => {
    const { r, status } = await createOfKind(c, 'steam', c.req.valid('json'))
    return c.json(steamCreatedResult(r.order, r.totals), status)
  })
  app.openapi(supplyRoute, async (c) => {
    const { r, status } = await createOfKind(c, 'supply_channel', c.req.valid('json'))
    return c.json(createdResult(r.order, r.totals), status)
  })
}
