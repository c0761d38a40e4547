// Back-office image upload for games' and gifts' logos and payment methods' icons: the image is
// recognised by its bytes (PNG, JPEG, WebP, GIF — an SVG, which could carry script, is refused),
// stripped of metadata and stored in the database (services/uploads), replacing the item's
// previous one; the item's `logo`/`icon` becomes its /media/ address. Audited before and after.
// The shop's own logo (issue 47, /admin/shop) goes through the same checks.
import { z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { AppEnv, ApiApp } from '../../context'
import { fail, fieldError } from '../../lib/errors'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { type CleanImage, cleanImage } from '../../services/uploads/images'
import {
  IMAGE_TARGETS,
  type ImageTarget,
  MAX_LOGO_BYTES,
  storeItemImage,
  storeShopLogo,
} from '../../services/uploads/item-images'
import { adminRoute, staffOf } from './guard'

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

const CODES = {
  logo: { required: 'admin_logo_required', large: 'admin_logo_too_large', notImage: 'admin_logo_not_image' },
  icon: { required: 'admin_icon_required', large: 'admin_icon_too_large', notImage: 'admin_icon_not_image' },
} as const

/** The posted image of `field`, checked (present, not too large, an image by its bytes) and cleaned. */
async function postedImage(
  c: Context<AppEnv>,
  field: 'logo' | 'icon',
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

export function registerAdminLogos(app: ApiApp) {
  app.openapi(shopRoute, async (c) => {
    const image = await postedImage(c, 'logo', MAX_LOGO_BYTES)
    return c.json({ logo: await storeShopLogo(c.var.deps.db, staffOf(c), image) }, 200)
  })
  const store = async (c: Context<AppEnv>, what: ImageTarget, id: number) => {
    const target = IMAGE_TARGETS[what]
    const image = await postedImage(c, target.field, target.maxBytes)
    return storeItemImage(c.var.deps.db, staffOf(c), what, id, image)
  }
  app.openapi(route('games'), async (c) =>
    c.json({ logo: await store(c, 'game', c.req.valid('param').id) }, 200),
  )
  app.openapi(route('gifts'), async (c) =>
    c.json({ logo: await store(c, 'gift', c.req.valid('param').id) }, 200),
  )
  app.openapi(iconRoute, async (c) =>
    c.json({ icon: await store(c, 'method', c.req.valid('param').id) }, 200),
  )
}
