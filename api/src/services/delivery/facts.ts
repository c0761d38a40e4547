// What the buyer and the operator are told about an order that waits for a person: the game's
// promised time and, for Standoff gold, the skin and the exact price to list it at.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { games, orders } from '../../db/schema'
import { toMoney } from '../../lib/money'
import { standoffSettingsRow } from './listing'

export interface DeliveryFacts {
  orderId: string
  gameTitle: string
  deliveryMinutes: number
  awaiting: boolean
  /** Standoff: «105.27» and the skin's name, when the order has a listing price. */
  listing: { price: string; skin: string; picture: string; listed: boolean } | null
}

/** Gold hundredths as the storefront writes them, e.g. «105.27». */
export const goldText = (hundredths: number) => toMoney(hundredths)

export async function loadDeliveryFacts(db: Db | Tx, orderId: string): Promise<DeliveryFacts | null> {
  const [row] = await db
    .select({
      status: orders.status,
      awaitingSince: orders.awaitingSince,
      listingPrice: orders.listingPrice,
      skinListedAt: orders.skinListedAt,
      gameTitle: games.title,
      deliveryMinutes: games.deliveryMinutes,
    })
    .from(orders)
    .leftJoin(games, eq(games.id, orders.gameId))
    .where(eq(orders.id, orderId))
  if (!row) return null
  const s = row.listingPrice === null ? null : await standoffSettingsRow(db)
  return {
    orderId,
    gameTitle: row.gameTitle ?? '',
    deliveryMinutes: row.deliveryMinutes ?? 30,
    awaiting: row.status === 'sent' && row.awaitingSince !== null,
    listing:
      row.listingPrice === null
        ? null
        : {
            price: goldText(row.listingPrice),
            skin: s?.skinName ?? '',
            picture: s?.skinPicture ?? '',
            listed: row.skinListedAt !== null,
          },
  }
}
