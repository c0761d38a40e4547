import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { errorResponses, jsonContent, UuidParam } from '../lib/schemas'
import { setStandoffAvatar } from '../services/orders/avatar'
import { StandoffOrderCreatedSchema } from './schemas/orders'
import { standoffCreatedResult } from '../services/orders/serialize'
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
    // the form is read only after the service has checked the order and spent an upload
    const { order: updated, totals } = await setStandoffAvatar(
      c.var.deps,
      actorOf(c),
      c.req.valid('param').id,
      async () => {
        const form = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>)
        const fileField = form.game_avatar
        const file = Array.isArray(fileField) ? fileField.find((f) => f instanceof File) : fileField
        const historyField = form.history_order_id
        return {
          file:
            file instanceof File
              ? { size: file.size, bytes: async () => new Uint8Array(await file.arrayBuffer()) }
              : null,
          historyOrderId: typeof historyField === 'string' ? historyField.trim() : '',
        }
      },
    )
    return c.json(standoffCreatedResult(updated, totals), 200)
  })
}
