// Repeat order (§4): the game page (`/products/{gameId}?repeat={orderId}`) preloads a past
// order's quantities and account data and shows the confirm form. The game page's loader calls
// `loadRepeatOrder(api, orderId)`; the API's access rule applies (a signed-in user reaches only
// their own orders, guests only guest orders by id).
import type { ApiSession } from '#app/lib/api/client.server'

export interface RepeatOrder {
  orderId: string
  gameId: number
  /** product id → quantity, only lines with a quantity above zero */
  quantities: Record<number, number>
  email: string | null
  gameAccountId: string | null
  /** Standoff: the avatar already on the order, so the form need not ask again (§5) */
  gameAvatar: string | null
  steamAccountId: string | null
  /** Steam top-up amount, "500.00" */
  amount: string | null
  moogoldUserId: string | null
  moogoldServer: number | null
  moogoldServerCustomId: string | null
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The order to repeat, or null when the id is malformed, unknown, not the caller's, or not a game order. */
export async function loadRepeatOrder(
  api: ApiSession,
  orderId: string | null | undefined,
): Promise<RepeatOrder | null> {
  if (!orderId || !UUID_RE.test(orderId)) return null
  try {
    const { data: order } = await api.client.GET('/api/orders/{id}/', { params: { path: { id: orderId } } })
    if (!order?.game) return null
    const quantities: Record<number, number> = {}
    for (const line of order.products) if (line.quantity > 0) quantities[line.product] = line.quantity
    return {
      orderId: order.id,
      gameId: order.game.id,
      quantities,
      email: order.email,
      gameAccountId: order.game_account_id,
      gameAvatar: order.game_avatar,
      steamAccountId: order.steam_account_id,
      amount: order.amount,
      moogoldUserId: order.moogold_user_id,
      moogoldServer: order.moogold_server,
      moogoldServerCustomId: order.moogold_server_custom_id,
    }
  } catch {
    return null
  }
}
