// Data the order forms need besides the catalogue: last order data, settings, servers.
import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import {
  games,
  type OrderKind,
  orders,
  standoffSettings,
  steamSettings,
  supplyServers,
} from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { toMoney } from '../../lib/money'

/** Basis points as a percent string: 800 → "8.00". */
export const percentText = (bp: number) => toMoney(bp)

/** The caller's latest order of a kind (optionally of one game), or null. */
export async function latestOrder(db: Db, userId: number, kind: OrderKind, gameId?: number) {
  const filters: SQL[] = [eq(orders.userId, userId), eq(orders.kind, kind)]
  if (gameId !== undefined) filters.push(eq(orders.gameId, gameId))
  const [row] = await db
    .select()
    .from(orders)
    .where(and(...filters))
    .orderBy(desc(orders.created))
    .limit(1)
  return row ?? null
}

export async function standoffSettingsOut(db: Db) {
  const [s] = await db.select().from(standoffSettings).orderBy(asc(standoffSettings.id)).limit(1)
  if (!s) throw refuse('settings_unavailable')
  return {
    id: s.id,
    need_refund: s.needRefund,
    is_surplus_enabled: s.isSurplusEnabled,
    skin_name: s.skinName,
    skin_picture: s.skinPicture,
    market_fee: percentText(s.marketFee),
  }
}

export async function steamSettingsOut(db: Db) {
  const [s] = await db.select().from(steamSettings).orderBy(asc(steamSettings.id)).limit(1)
  if (!s) throw refuse('settings_unavailable')
  return {
    id: s.id,
    commission: percentText(s.commission),
    min_amount: toMoney(s.minAmount),
    max_amount: toMoney(s.maxAmount),
  }
}

/** Servers of an active SupplyGame (404 for any other game), paged. */
export async function supplyServersPage(db: Db, gameId: number, limit: number, offset: number) {
  const [game] = await db
    .select({ id: games.id })
    .from(games)
    .where(and(eq(games.id, gameId), eq(games.kind, 'SupplyGame'), eq(games.isActive, true)))
  if (!game) throw refuse('game_not_found')
  const where = eq(supplyServers.gameId, gameId)
  const [total, rows] = await Promise.all([
    db.select({ n: count() }).from(supplyServers).where(where),
    db
      .select({ id: supplyServers.id, name: supplyServers.name })
      .from(supplyServers)
      .where(where)
      .orderBy(asc(supplyServers.id))
      .limit(limit)
      .offset(offset),
  ])
  return { count: total[0]?.n ?? 0, results: rows }
}
