// Back-office logo upload for games and gifts: the image is recognised by its bytes, stripped of
// metadata and stored in the database (services/uploads), replacing the item's previous logo; the
// item's `logo` becomes its /media/ address. Audited with the address before and after.
import { z } from '@hono/zod-openapi'
import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import type { AppEnv, ApiApp } from '../../context'
import { games, gifts } from '../../db/schema'
import { fail, fieldError } from '../../lib/errors'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { audit } from '../../services/admin/audit'
import { cleanImage } from '../../services/uploads/images'
import { MEDIA_PREFIX, replaceUpload } from '../../services/uploads/store'
import { adminRoute, staffOf } from './guard'

export const MAX_LOGO_BYTES = 2 * 1024 * 1024

const LogoForm = z
  .object({
    logo: z
      .any()
      .optional()
      .openapi({ type: 'string', format: 'binary', description: 'PNG, JPEG, WebP or GIF, at most 2 MB' }),
  })
  .openapi('AdminLogoUpload')
const LogoOut = z.object({
  logo: z.string().openapi({ example: '/media/0123456789abcdef0123456789abcdef.png' }),
})

const route = (what: 'games' | 'gifts') =>
  adminRoute('owner', {
    method: 'post',
    path: `/api/admin/${what}/{id}/logo/`,
    summary: `Upload a ${what === 'games' ? 'game' : 'gift'}’s logo (multipart, field \`logo\`)`,
    request: {
      params: IdParam,
      body: { content: { 'multipart/form-data': { schema: LogoForm } }, required: true },
    },
    responses: { 200: jsonContent(LogoOut), ...errorResponses(400, 403, 404, 413) },
  })

async function storeLogo(c: Context<AppEnv>, what: 'game' | 'gift', id: number) {
  const staff = staffOf(c)
  const form = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>)
  const field = form.logo
  const file = Array.isArray(field) ? field.find((f) => f instanceof File) : field
  if (!(file instanceof File) || file.size === 0) throw fieldError('logo', 'admin_logo_required')
  if (file.size > MAX_LOGO_BYTES)
    throw fail(413, 'admin_logo_too_large', { mb: MAX_LOGO_BYTES / 1024 / 1024 })
  const image = cleanImage(new Uint8Array(await file.arrayBuffer()))
  if (!image) throw fieldError('logo', 'admin_logo_not_image')
  const table = what === 'game' ? games : gifts
  return c.var.deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ logo: table.logo }).from(table).where(eq(table.id, id)).for('update')
    if (!row) throw fail(404, 'not_found')
    const name = await replaceUpload(tx, what === 'game' ? { gameId: id } : { giftId: id }, image)
    const logo = `${MEDIA_PREFIX}${name}`
    await tx.update(table).set({ logo }).where(eq(table.id, id))
    await audit(tx, staff, {
      action: `${what}.logo`,
      entity: what,
      entityId: id,
      before: row,
      after: { logo },
    })
    return { logo }
  })
}

export function registerAdminLogos(app: ApiApp) {
  app.openapi(route('games'), async (c) => c.json(await storeLogo(c, 'game', c.req.valid('param').id), 200))
  app.openapi(route('gifts'), async (c) => c.json(await storeLogo(c, 'gift', c.req.valid('param').id), 200))
}
