// Order creation for the four top-up kinds: validate, then insert once (idempotently).
import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import { games, type OrderKind, orderProducts, orders, steamSettings } from '../../db/schema'
import { refuse, refuseField } from '../../lib/domain-error'
import { unitPrice } from '../catalogue/queries'
import { tentativeListing } from '../delivery/listing'
import { serverCode, verifyPlayerForOrder } from '../player-check'
import { applyAccountPromo } from '../promo/orders'
import type { OrderRow } from './access'
import { findReplay, isUniqueViolation, requestHash } from './idempotency'
import { newOrderTotals, type OrderTotals, type PricedLine, recalculateOrder } from './pricing'
import {
  parseSteamAmount,
  parseSurplus,
  required,
  resolveBuyer,
  resolveLines,
  resolveSupplyServer,
} from './validate'

/** A validated order, ready to insert. */
export interface PreparedOrder {
  kind: OrderKind
  gameId: number
  userId: number | null
  email: string
  lines: Array<Omit<PricedLine, 'id'>>
  /** SteamOrder: the amount and the commission in force (basis points). */
  steam?: { amount: number; commissionBp: number }
  fields: Partial<typeof orders.$inferInsert>
  /** Fields decided inside the insert's transaction (a Standoff order's listing price). */
  claim?: (tx: Tx) => Promise<Partial<typeof orders.$inferInsert>>
}

const linesIn = (items: ReadonlyArray<{ product_id: number; quantity: number }>) =>
  items.map((l) => ({ productId: l.product_id, quantity: l.quantity }))

const priced = (lines: Awaited<ReturnType<typeof resolveLines>>['lines']) =>
  lines.map(({ product: p, quantity }) => ({
    productId: p.id,
    quantity,
    unitPrice: unitPrice(p),
    product: { kind: p.kind, title: p.title, picture: p.picture, amountUc: p.amountUc, gold: p.gold },
  }))

// The creation bodies as the route parsed them (their wire schemas: api/src/routes/schemas/orders.ts).
interface CreateLineInput {
  quantity: number
  product_id: number
}
interface BuyerInput {
  email?: string | null
  personal_data_consent?: boolean
}
export interface PubgCreateInput extends BuyerInput {
  products: CreateLineInput[]
}
export interface StandoffCreateInput extends PubgCreateInput {
  game_account_id?: string | null
  surplus?: string | number | null
}
export interface SteamCreateInput extends BuyerInput {
  amount: string | number
  steam_account_id?: string | null
  game?: number | null
}
export interface SupplyCreateInput extends PubgCreateInput {
  supply_channel_user_id?: string | null
  supply_channel_server?: number | null
  supply_channel_server_custom_id?: string | null
}

export async function preparePubg(
  db: Db,
  body: PubgCreateInput,
  userId: number | null,
): Promise<PreparedOrder> {
  const { game, lines } = await resolveLines(db, linesIn(body.products), 'PUBGGame')
  const buyer = await resolveBuyer(db, game, userId, body.email)
  return { kind: 'PUBGOrder', gameId: game.id, ...buyer, lines: priced(lines), fields: {} }
}

export async function prepareStandoff(
  deps: ApiDeps,
  body: StandoffCreateInput,
  userId: number | null,
): Promise<PreparedOrder> {
  const { db } = deps
  const { game, lines } = await resolveLines(db, linesIn(body.products), 'StandoffGame')
  const buyer = await resolveBuyer(db, game, userId, body.email)
  const gameAccountId = required(body.game_account_id, 'game_account_id', 'game_account_id_required')
  const surplus = parseSurplus(body.surplus)
  const playerNickname = await verifyPlayerForOrder(
    deps,
    game,
    { userId: gameAccountId, server: null },
    'game_account_id',
  )
  return {
    kind: 'StandoffOrder',
    gameId: game.id,
    ...buyer,
    lines: priced(lines),
    fields: { gameAccountId, playerNickname },
    // the buyer's surplus, asked for; its listing price is claimed when a payment starts (issue 42:
    // unpaid orders no longer hold a pack's 24 prices), keeping this surplus when that price is free
    claim: (tx) => tentativeListing(tx, surplus),
  }
}

/**
 * The Steam game of an order: the `game` given, which must be an active Steam game, or else the
 * shop's default Steam game, the first active one as the catalogue lists it (the spec's client
 * sends no `game`, so it stays optional however many Steam games are on sale).
 */
export async function steamGame(db: Db, gameId: number | null | undefined) {
  const active = and(eq(games.kind, 'Steam'), eq(games.isActive, true))
  if (gameId !== null && gameId !== undefined) {
    const [g] = await db
      .select()
      .from(games)
      .where(and(active, eq(games.id, gameId)))
    if (!g) throw refuseField('game', 'order_game_unavailable')
    return g
  }
  const [first] = await db
    .select()
    .from(games)
    .where(active)
    .orderBy(asc(games.sortOrder), asc(games.id))
    .limit(1)
  if (!first) throw refuse('steam_unavailable')
  return first
}

export async function steamBounds(db: Db | Tx) {
  const [s] = await db.select().from(steamSettings).orderBy(asc(steamSettings.id)).limit(1)
  if (!s) throw refuse('steam_unavailable')
  return s
}

export async function prepareSteam(
  deps: ApiDeps,
  body: SteamCreateInput,
  userId: number | null,
): Promise<PreparedOrder> {
  const { db } = deps
  const game = await steamGame(db, body.game)
  const bounds = await steamBounds(db)
  const amount = parseSteamAmount(body.amount, bounds)
  const buyer = await resolveBuyer(db, game, userId, body.email)
  const steamAccountId = required(body.steam_account_id, 'steam_account_id', 'steam_account_required')
  const playerNickname = await verifyPlayerForOrder(
    deps,
    game,
    { userId: steamAccountId, server: null },
    'steam_account_id',
  )
  return {
    kind: 'SteamOrder',
    gameId: game.id,
    ...buyer,
    lines: [],
    steam: { amount, commissionBp: bounds.commission },
    fields: { steamAmount: amount, steamAccountId, playerNickname },
  }
}

export async function prepareSupply(
  deps: ApiDeps,
  body: SupplyCreateInput,
  userId: number | null,
): Promise<PreparedOrder> {
  const { db } = deps
  const { game, lines } = await resolveLines(db, linesIn(body.products), 'SupplyGame')
  const buyer = await resolveBuyer(db, game, userId, body.email)
  const moogoldUserId = required(
    body.supply_channel_user_id,
    'supply_channel_user_id',
    'supply_user_id_required',
  )
  const server = await resolveSupplyServer(
    db,
    game,
    body.supply_channel_server,
    body.supply_channel_server_custom_id,
    {
      server: 'supply_channel_server',
      custom: 'supply_channel_server_custom_id',
    },
  )
  const playerNickname = await verifyPlayerForOrder(
    deps,
    game,
    { userId: moogoldUserId, server: await serverCode(deps, server) },
    'supply_channel_user_id',
  )
  return {
    kind: 'MooGoldOrder',
    gameId: game.id,
    ...buyer,
    lines: priced(lines),
    fields: {
      moogoldUserId,
      moogoldServer: server.server,
      moogoldServerCustomId: server.customId,
      playerNickname,
    },
  }
}

export interface CreatedOrder {
  order: OrderRow
  totals: OrderTotals
  /** True when an earlier request with the same Idempotency-Key made this order. */
  replay: boolean
}

/**
 * Creates an order from `prepare()`'s result. With an idempotency key the same request again
 * returns the order it made, a different request with that key is a 409, and two racing
 * requests with one key make one order. The unique index on the key decides: a new order is not
 * looked up first (one read less per order); a repeat is found when its insert is refused, or when
 * its checks now fail (the product sold out since), before that refusal is answered. Orders whose
 * checks ask a supplier (`asksSupplier`) are the exception: looked up first.
 */
export async function createOrder(
  db: Db,
  idem: {
    key?: string
    kind: string
    body: unknown
    userId: number | null
    /**
     * `prepare()` asks a supplier (the player check): a repeat is looked up before it, so a retry
     * neither waits for that supplier again nor depends on its answer.
     */
    asksSupplier?: boolean
  },
  prepare: () => Promise<PreparedOrder>,
  /** Written in the order's own transaction (the buyer's consent): both are saved, or neither. */
  alongside?: (tx: Tx, order: OrderRow) => Promise<void>,
): Promise<CreatedOrder> {
  const hash = idem.key ? requestHash(idem.kind, idem.body, idem.userId) : null
  const replayOf = async (): Promise<CreatedOrder | null> => {
    if (!idem.key || !hash) return null
    const order = await findReplay(db, idem.key, hash)
    return order ? { order, totals: await recalculateOrder(db, order.id), replay: true } : null
  }
  if (idem.asksSupplier) {
    const earlier = await replayOf()
    if (earlier) return earlier
  }
  let p: PreparedOrder
  try {
    p = await prepare()
  } catch (err) {
    const earlier = await replayOf()
    if (earlier) return earlier
    throw err
  }
  const id = randomUUID()
  const lines: PricedLine[] = p.lines.map((l) => ({ id: 0, ...l }))
  // a guest has no promo code and no balance: the prices just read are the totals
  const guest =
    p.userId === null ? newOrderTotals({ orderId: id, kind: p.kind, lines, steam: p.steam ?? null }) : null
  try {
    return await db.transaction(async (tx) => {
      const [order] = await tx
        .insert(orders)
        .values({
          ...p.fields,
          ...(p.claim ? await p.claim(tx) : {}),
          id,
          kind: p.kind,
          gameId: p.gameId,
          userId: p.userId,
          email: p.email,
          total: guest?.total ?? 0,
          totalToPay: guest?.totalToPay ?? 0,
          idempotencyKey: idem.key ?? null,
          requestHash: hash,
        })
        .returning()
      if (lines.length > 0) {
        const stored = await tx
          .insert(orderProducts)
          .values(
            lines.map((l) => ({
              orderId: id,
              productId: l.productId,
              quantity: l.quantity,
              price: l.unitPrice,
            })),
          )
          .returning({ id: orderProducts.id, productId: orderProducts.productId })
        const idOf = new Map(stored.map((r) => [r.productId, r.id]))
        for (const l of lines) l.id = idOf.get(l.productId)!
      }
      if (alongside) await alongside(tx, order!)
      if (guest) return { order: order!, totals: guest, replay: false }
      // the account's active promo code applies to a new order of its game from the start
      await applyAccountPromo(tx, id)
      const totals = await recalculateOrder(tx, id, { ownsRow: true })
      return {
        order: { ...order!, total: totals.total, totalToPay: totals.totalToPay },
        totals,
        replay: false,
      }
    })
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    const winner = await replayOf()
    if (winner) return winner
    throw err
  }
}
