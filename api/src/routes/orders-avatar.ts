import { createRoute, z } from '@hono/zod-openapi'
import { eq } from 'drizzle-orm'
import type { ApiApp } from '../context'
import type { Tx } from '../db/client'
import { orders } from '../db/schema'
import { fail } from '../lib/errors'
import { errorResponses, jsonContent, UuidParam } from '../lib/schemas'
import { loadOrderForCaller } from '../services/orders/access'
import { MAX_AVATAR_BYTES } from '../services/orders/avatar'
import { StandoffOrderCreatedSchema } from './schemas/orders'
import { standoffCreatedResult } from '../services/orders/serialize'
import { UNPAID_STATUSES } from '../services/orders/state-machine'
import { changeOrder } from '../services/orders/update'
import { cleanImage } from '../services/uploads/images'
import { limitUploads } from '../services/uploads/limits'
import { copyUpload, MEDIA_PREFIX, mediaName, replaceUpload } from '../services/uploads/store'
import { actorOf } from '../lib/actor'

const AvatarForm = z
  .object({
    game_avatar: z
      .any()
      .optional()
      .openapi({ type: 'string', format: 'binary', description: 'PNG, JPEG, WebP or GIF, at most 2 MB' }),
    history_order_id: z
      .string()
      .max(36)
      .optional()
      .openapi({ description: "Copy the avatar of this earlier Standoff order of the caller's instead" }),
  })
  .openapi('StandoffAvatarUpload')

const avatarRoute = createRoute({
  method: 'post',
  path: '/api/orders/standoff/avatar/{id}/',
  tags: ['orders'],
  summary: 'Set the game avatar of an unpaid Standoff order',
  description:
    "The file is recognised by its content (PNG, JPEG, WebP, GIF; not by its name), limited to 2 MB (413), stripped of metadata (EXIF, XMP, comments, text chunks) and stored under a generated name; it replaces the order's previous avatar. Without a file, `history_order_id` copies the avatar of an earlier Standoff order the caller can see. Uploads are limited per client address and per order (429 with Retry-After).",
  request: {
    params: UuidParam,
    body: { content: { 'multipart/form-data': { schema: AvatarForm } }, required: true },
  },
  responses: {
    200: jsonContent(StandoffOrderCreatedSchema),
    ...errorResponses(400, 404, 409, 413, 415, 429),
  },
})

export function registerStandoffAvatar(app: ApiApp) {
  app.openapi(avatarRoute, async (c) => {
    const id = c.req.valid('param').id
    const order = await loadOrderForCaller(c.var.deps.db, actorOf(c), id)
    if (order.kind !== 'StandoffOrder') throw fail(400, 'order_wrong_kind')
    if (!UNPAID_STATUSES.includes(order.status)) throw fail(409, 'order_not_editable')

    // after the ownership check, so a stranger cannot spend the owner's uploads
    await limitUploads(c.var.deps, actorOf(c), `order:${order.id}`)

    const form = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>)
    const fileField = form.game_avatar
    const file = Array.isArray(fileField) ? fileField.find((f) => f instanceof File) : fileField
    const historyField = form.history_order_id
    const historyId = typeof historyField === 'string' ? historyField.trim() : ''

    let setAvatar: (tx: Tx, orderId: string) => Promise<string | null>
    if (file instanceof File && file.size > 0) {
      if (file.size > MAX_AVATAR_BYTES)
        throw fail(413, 'avatar_too_large', { mb: MAX_AVATAR_BYTES / 1024 / 1024 })
      const image = cleanImage(new Uint8Array(await file.arrayBuffer()))
      if (!image) throw fail(400, 'avatar_not_image')
      setAvatar = (tx, orderId) => replaceUpload(tx, { orderId }, image)
    } else if (historyId) {
      const earlier = await loadOrderForCaller(c.var.deps.db, actorOf(c), historyId)
      const source = earlier.kind === 'StandoffOrder' ? mediaName(earlier.gameAvatar) : null
      if (!source) throw fail(400, 'avatar_history_missing')
      // a copy of its own: replacing either order's avatar later never takes the other's
      setAvatar = (tx, orderId) => copyUpload(tx, source, { orderId })
    } else {
      throw fail(400, 'avatar_required')
    }

    const { order: updated, totals } = await changeOrder(
      c.var.deps,
      actorOf(c),
      id,
      'StandoffOrder',
      async (tx, o) => {
        const name = await setAvatar(tx, o.id)
        if (!name) throw fail(400, 'avatar_history_missing')
        const gameAvatar = MEDIA_PREFIX + name
        await tx.update(orders).set({ gameAvatar, updated: new Date() }).where(eq(orders.id, o.id))
      },
    )
    return c.json(standoffCreatedResult(updated, totals), 200)
  })
}
