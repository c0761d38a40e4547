// Standoff order avatars: at most 2 MB (the upload itself: services/uploads/).
import { eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Tx } from '../../db/client'
import { orders } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import type { Actor } from '../actor'
import { cleanImage } from '../uploads/images'
import { limitUploads } from '../uploads/limits'
import { copyUpload, MEDIA_PREFIX, mediaName, replaceUpload } from '../uploads/store'
import { loadOrderForCaller } from './access'
import { UNPAID_STATUSES } from './state-machine'
import { changeOrder } from './update'

export const MAX_AVATAR_BYTES = 2 * 1024 * 1024

/** The avatar asked for: an uploaded file (its size and a reader of its bytes) or an earlier order's. */
export interface AvatarSource {
  file: { size: number; bytes: () => Promise<Uint8Array> } | null
  historyOrderId: string
}

/**
 * Sets the game avatar of the caller's unpaid Standoff order `id`: checks the order, spends an
 * upload of the client and the order, then stores the cleaned file (or a copy of an earlier order's
 * avatar) and points the order at it.
 */
export async function setStandoffAvatar(
  deps: ApiDeps,
  actor: Actor,
  id: string,
  source: () => Promise<AvatarSource>,
) {
  const order = await loadOrderForCaller(deps.db, actor, id)
  if (order.kind !== 'StandoffOrder') throw refuse('order_wrong_kind')
  if (!UNPAID_STATUSES.includes(order.status)) throw refuse('order_not_editable')

  // after the ownership check, so a stranger cannot spend the owner's uploads
  await limitUploads(deps, actor, `order:${order.id}`)

  const { file, historyOrderId: historyId } = await source()
  let setAvatar: (tx: Tx, orderId: string) => Promise<string | null>
  if (file && file.size > 0) {
    if (file.size > MAX_AVATAR_BYTES) throw refuse('avatar_too_large', { mb: MAX_AVATAR_BYTES / 1024 / 1024 })
    const image = cleanImage(await file.bytes())
    if (!image) throw refuse('avatar_not_image')
    setAvatar = (tx, orderId) => replaceUpload(tx, { orderId }, image)
  } else if (historyId) {
    const earlier = await loadOrderForCaller(deps.db, actor, historyId)
    const from = earlier.kind === 'StandoffOrder' ? mediaName(earlier.gameAvatar) : null
    if (!from) throw refuse('avatar_history_missing')
    // a copy of its own: replacing either order's avatar later never takes the other's
    setAvatar = (tx, orderId) => copyUpload(tx, from, { orderId })
  } else {
    throw refuse('avatar_required')
  }

  return changeOrder(deps, actor, id, 'StandoffOrder', async (tx, o) => {
    const name = await setAvatar(tx, o.id)
    if (!name) throw refuse('avatar_history_missing')
    const gameAvatar = MEDIA_PREFIX + name
    await tx.update(orders).set({ gameAvatar, updated: new Date() }).where(eq(orders.id, o.id))
  })
}
