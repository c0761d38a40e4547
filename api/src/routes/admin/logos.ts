// Back-office image upload for games' and gifts' logos and payment methods' icons: the image is
// recognised by its bytes (PNG, JPEG, WebP, GIF — an SVG, which could carry script, is refused),
// stripped of metadata and stored in the database (services/uploads), replacing the item's
// previous one; the item's `logo`/`icon` becomes its /media/ address. Audited before and after.
// The shop's own logo (issue 47, /admin/shop) goes through the same checks.
import { z } from '@hono/zod-openapi'
import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import type { AppEnv, ApiApp } from '../../context'
import { games, gifts, paymentMethods } from '../../db/schema'
import { fail, fieldError } from '../../lib/errors'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { audit } from '../../services/admin/audit'
import { setShopLogo } from '../../services/shop/settings'
import { type CleanImage, cleanImage } from '../../services/uploads/images'
import { MEDIA_PREFIX, replaceUpload, type UploadOwner } from '../../services/uploads/store'
import { adminRoute, staffOf } from './guard'

export const MAX_LOGO_BYTES = 2 * 1024 * 1024
/** A method's icon is drawn at 32 px: 256 KB is plenty. */
export const MAX_ICON_BYTES = 256 * 1024

const binary = (description: string) =>
  z.any().optional().openapi({ type: 'string', format: 'binary', description })
// the file is required (the handler refuses a form without one with its own Russian message)
const LogoForm = z
  .object({ logo: binary('PNG, JPEG, WebP or GIF, at most 2 MB') })
  .openapi('AdminLogoUpload', { required: ['logo'] })
const LogoOut = z.object({
  logo: z.string().openapi({ example: '/media/0123456789abcdef0123456789abcdef.png' }),
})
const IconForm = z
  .object({ icon: binary('PNG, JPEG, WebP or GIF (no SVG), at most 256 KB') })
  .openapi('AdminPaymentIconUpload', { required: ['icon'] })
const IconOut = z.object({
  icon: z.string().openapi({ example: '/media/0123456789abcdef0123456789abcdef.png' }),
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
    responses: { 200: jsonContent(LogoOut), ...errorResponses(400, 403, 404, 413, 415) },
  })
const iconRoute = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/payments/methods/{id}/icon/',
  summary: 'Upload a payment method’s icon (multipart, field `icon`)',
  description:
    'The image is recognised by its bytes (PNG, JPEG, WebP or GIF; SVG is refused: it can carry script), ' +
    'stripped of metadata, stored as the method’s one upload and served from /media/. At most 256 KB. Audited.',
  request: {
    params: IdParam,
    body: { content: { 'multipart/form-data': { schema: IconForm } }, required: true },
  },
  responses: { 200: jsonContent(IconOut), ...errorResponses(400, 403, 404, 413, 415) },
})

const shopRoute = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/shop/logo/',
  summary: 'Upload the shop’s logo (multipart, field `logo`)',
  description:
    'The image is recognised by its bytes (PNG, JPEG, WebP or GIF; SVG is refused: it can carry script), ' +
    'stripped of metadata, stored as the shop’s one logo (the previous upload is deleted) and served from /media/; ' +
    'the shop’s `logo` becomes its address. At most 2 MB. Audited. 409 shop_not_saved until the shop’s name is saved.',
  request: {
    body: { content: { 'multipart/form-data': { schema: LogoForm } }, required: true },
  },
  responses: { 200: jsonContent(LogoOut), ...errorResponses(400, 403, 409, 413, 415) },
})

type Target = {
  entity: 'game' | 'gift' | 'payment_method'
  field: 'logo' | 'icon'
  maxBytes: number
  table: typeof games | typeof gifts | typeof paymentMethods
  owner: (id: number) => UploadOwner
}
const TARGETS = {
  game: {
    entity: 'game',
    field: 'logo',
    maxBytes: MAX_LOGO_BYTES,
    table: games,
    owner: (id) => ({ gameId: id }),
  },
  gift: {
    entity: 'gift',
    field: 'logo',
    maxBytes: MAX_LOGO_BYTES,
    table: gifts,
    owner: (id) => ({ giftId: id }),
  },
  method: {
    entity: 'payment_method',
    field: 'icon',
    maxBytes: MAX_ICON_BYTES,
    table: paymentMethods,
    owner: (id) => ({ paymentMethodId: id }),
  },
} satisfies Record<string, Target>

const CODES = {
  logo: { required: 'admin_logo_required', large: 'admin_logo_too_large', notImage: 'admin_logo_not_image' },
  icon: { required: 'admin_icon_required', large: 'admin_icon_too_large', notImage: 'admin_icon_not_image' },
} as const

/** The posted image of `field`, checked (present, not too large, an image by its bytes) and cleaned. */
async function postedImage(
  c: Context<AppEnv>,
  field: Target['field'],
  maxBytes: number,
): Promise<CleanImage> {
  const codes = CODES[field]
  const form = await c.req.parseBody({ all: true }).catch(() => ({}) as Record<string, unknown>)
  const posted = form[field]
  const file = Array.isArray(posted) ? posted.find((f) => f instanceof File) : posted
  if (!(file instanceof File) || file.size === 0) throw fieldError(field, codes.required)
  if (file.size > maxBytes) throw fail(413, codes.large, { kb: maxBytes / 1024, mb: maxBytes / 1024 / 1024 })
  const image = cleanImage(new Uint8Array(await file.arrayBuffer()))
  if (!image) throw fieldError(field, codes.notImage)
  return image
}

async function storeImage(c: Context<AppEnv>, target: Target, id: number): Promise<string> {
  const staff = staffOf(c)
  const image = await postedImage(c, target.field, target.maxBytes)
  // biome-ignore lint/suspicious/noExplicitAny: the three tables share `id` and an image column
  const t = target.table as any
  const column = target.field === 'icon' ? paymentMethods.icon : (target.table as typeof games).logo
  return c.var.deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ [target.field]: column })
      .from(t)
      .where(eq(t.id, id))
      .for('update')
    if (!row) throw fail(404, 'not_found')
    const name = await replaceUpload(tx, target.owner(id), image)
    const path = `${MEDIA_PREFIX}${name}`
    await tx
      .update(t)
      .set({ [target.field]: path })
      .where(eq(t.id, id))
    await audit(tx, staff, {
      action: `${target.entity}.${target.field}`,
      entity: target.entity,
      entityId: id,
      before: row,
      after: { [target.field]: path },
    })
    return path
  })
}

/** The shop's logo: its one upload, and the settings' `logo` pointed at it. */
async function storeShopLogo(c: Context<AppEnv>): Promise<string> {
  const staff = staffOf(c)
  const image = await postedImage(c, 'logo', MAX_LOGO_BYTES)
  return c.var.deps.db.transaction(async (tx) => {
    const name = await replaceUpload(tx, { shop: true }, image)
    const path = `${MEDIA_PREFIX}${name}`
    const replaced = await setShopLogo(tx, path)
    // the transaction rolls back: the upload is not kept either
    if (!replaced) throw fail(409, 'shop_not_saved')
    await audit(tx, staff, {
      action: 'shop.logo',
      entity: 'shop',
      entityId: 1,
      before: { logo: replaced.before },
      after: { logo: path },
    })
    return path
  })
}

export function registerAdminLogos(app: ApiApp) {
  app.openapi(shopRoute, async (c) => c.json({ logo: await storeShopLogo(c) }, 200))
  app.openapi(route('games'), async (c) =>
    c.json({ logo: await storeImage(c, TARGETS.game, c.req.valid('param').id) }, 200),
  )
  app.openapi(route('gifts'), async (c) =>
    c.json({ logo: await storeImage(c, TARGETS.gift, c.req.valid('param').id) }, 200),
  )
  app.openapi(iconRoute, async (c) =>
    c.json({ icon: await storeImage(c, TARGETS.method, c.req.valid('param').id) }, 200),
  )
}
