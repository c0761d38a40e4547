// Changes to an unpaid order: its lines (or Steam amount) and its delivery details.
import { eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Tx } from '../../db/client'
import { type GameKind, games, type OrderKind, orderProducts, orders } from '../../db/schema'
import { fieldError } from '../../lib/errors'
import { refuse, refuseField } from '../../lib/domain-error'
import type { Actor } from '../actor'
import { unitPrice } from '../catalogue/queries'
import { loadOrderForCaller, type OrderRow } from './access'
import { steamBounds } from './create'
import { type OrderTotals, recalculateOrder } from './pricing'
import { UNPAID_STATUSES } from './state-machine'
import { parseEmail, parseSteamAmount, resolveLines, resolveSupplyServer } from './validate'

/** URL segment of §7 → the order kind it addresses. */
export const ORDER_KIND_BY_SEGMENT = {
  pubg: 'PUBGOrder',
  standoff: 'StandoffOrder',
  steam: 'SteamOrder',
  supply_channel: 'MooGoldOrder',
} as const satisfies Record<string, OrderKind>
export type OrderSegment = keyof typeof ORDER_KIND_BY_SEGMENT

const GAME_KIND_OF: Partial<Record<OrderKind, GameKind>> = {
  PUBGOrder: 'PUBGGame',
  StandoffOrder: 'StandoffGame',
  MooGoldOrder: 'SupplyGame',
}

/**
 * Loads and locks the caller's order for a change: it must be of `kind` (400 otherwise) and still
 * unpaid (409 otherwise). Runs `change` and the recalculation in one transaction.
 */
export async function changeOrder(
  deps: ApiDeps,
  actor: Actor,
  id: string,
  kind: OrderKind,
  change: (tx: Tx, order: OrderRow) => Promise<void>,
): Promise<{ order: OrderRow; totals: OrderTotals }> {
  return deps.db.transaction(async (tx) => {
    const before = await loadOrderForCaller(tx, actor, id, { lock: true })
    if (before.kind !== kind) throw refuse('order_wrong_kind')
    if (!UNPAID_STATUSES.includes(before.status)) throw refuse('order_not_editable')
    await change(tx, before)
    const totals = await recalculateOrder(tx, before.id)
    const [order] = await tx.select().from(orders).where(eq(orders.id, before.id))
    return { order: order!, totals }
  })
}

/** Replaces the lines of an unpaid order with the rules of creation (products of its game). */
export function replaceLines(
  deps: ApiDeps,
  actor: Actor,
  id: string,
  segment: Exclude<OrderSegment, 'steam'>,
  requested: ReadonlyArray<{ id: number; quantity: number }>,
) {
  const kind = ORDER_KIND_BY_SEGMENT[segment]
  return changeOrder(deps, actor, id, kind, async (tx, order) => {
    const { lines } = await resolveLines(
      tx,
      requested.map((l) => ({ productId: l.id, quantity: l.quantity })),
      GAME_KIND_OF[kind]!,
      order.gameId ?? undefined,
      order.id,
    )
    await tx.delete(orderProducts).where(eq(orderProducts.orderId, order.id))
    await tx.insert(orderProducts).values(
      lines.map((l) => ({
        orderId: order.id,
        productId: l.product.id,
        quantity: l.quantity,
        price: unitPrice(l.product),
      })),
    )
    // new gold, new listing price: given back, claimed again at the next payment start (keeping the
    // order's surplus when it is free)
    if (kind === 'StandoffOrder')
      await tx
        .update(orders)
        .set({ listingPrice: null, listingHeldUntil: null })
        .where(eq(orders.id, order.id))
  })
}

/** Sets a new amount on an unpaid Steam order (bounds of the Steam settings). */
export function changeSteamAmount(deps: ApiDeps, actor: Actor, id: string, amount: string | number) {
  return changeOrder(deps, actor, id, 'SteamOrder', async (tx, order) => {
    const steamAmount = parseSteamAmount(amount, await steamBounds(tx))
    await tx.update(orders).set({ steamAmount, updated: new Date() }).where(eq(orders.id, order.id))
  })
}

/** A new non-empty value for a field, undefined to keep the old one; an empty text is refused. */
function replacement(
  v: string | null | undefined,
  field: string,
  code: Parameters<typeof fieldError>[1],
): string | undefined {
  if (v === undefined || v === null) return undefined
  const s = v.trim()
  if (!s) throw fieldError(field, code)
  return s
}

export interface DeliveryChanges {
  email?: string | null
  game_account_id?: string | null
  steam_account_id?: string | null
  moogold_user_id?: string | null
  moogold_server?: number | string | null
  moogold_server_custom_id?: string | null
}

/** Changes where an unpaid order is delivered; only the fields of its kind, only those given. */
export function changeDelivery(
  deps: ApiDeps,
  actor: Actor,
  id: string,
  segment: OrderSegment,
  body: DeliveryChanges,
) {
  return changeOrder(deps, actor, id, ORDER_KIND_BY_SEGMENT[segment], async (tx, order) => {
    const set: Partial<typeof orders.$inferInsert> = {}
    if (body.email !== undefined && body.email !== null) {
      const email = parseEmail(body.email)
      if (!email) throw refuseField('email', 'order_email_required')
      set.email = email
    }
    if (segment === 'standoff') {
      set.gameAccountId = replacement(body.game_account_id, 'game_account_id', 'game_account_id_required')
    }
    if (segment === 'steam') {
      set.steamAccountId = replacement(body.steam_account_id, 'steam_account_id', 'steam_account_required')
    }
    if (segment === 'supply_channel') {
      set.moogoldUserId = replacement(body.moogold_user_id, 'moogold_user_id', 'supply_user_id_required')
      if (body.moogold_server !== undefined || body.moogold_server_custom_id !== undefined) {
        const [game] = await tx
          .select()
          .from(games)
          .where(eq(games.id, order.gameId ?? 0))
        if (!game) throw refuse('order_game_unavailable')
        const server = await resolveSupplyServer(
          tx,
          game,
          body.moogold_server,
          body.moogold_server_custom_id,
          {
            server: 'moogold_server',
            custom: 'moogold_server_custom_id',
          },
        )
        set.moogoldServer = server.server
        set.moogoldServerCustomId = server.customId
      }
    }
    // a new player id (or server) was not checked: its nickname is unknown until the next order
    const playerChanged =
      (set.gameAccountId !== undefined && set.gameAccountId !== order.gameAccountId) ||
      (set.steamAccountId !== undefined && set.steamAccountId !== order.steamAccountId) ||
      (set.moogoldUserId !== undefined && set.moogoldUserId !== order.moogoldUserId) ||
      (set.moogoldServer !== undefined && set.moogoldServer !== order.moogoldServer) ||
      (set.moogoldServerCustomId !== undefined && set.moogoldServerCustomId !== order.moogoldServerCustomId)
    if (playerChanged) set.playerNickname = null
    const changes = Object.fromEntries(Object.entries(set).filter(([, v]) => v !== undefined))
    if (Object.keys(changes).length > 0) {
      await tx
        .update(orders)
        .set({ ...changes, updated: new Date() })
        .where(eq(orders.id, order.id))
    }
  })
}
