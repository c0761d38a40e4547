// The shop's name, logo and support contacts (issue 37): public for the storefront's header, titles
// and footer; the owner edits them at /api/admin/shop/.
import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { errorResponses, jsonContent } from '../lib/schemas'
import { audit, changedFields } from '../services/admin/audit'
import { getShopSettings, type ShopSettings, saveShopSettings } from '../services/shop/settings'
import { jsonBody, Text } from './admin/fields'
import { adminRoute, staffOf } from './admin/guard'

const Shop = z
  .object({
    name: Text(80).min(1, 'заполните название магазина'),
    logo: z
      .string({ error: 'ожидается строка' })
      .trim()
      .max(500, 'не длиннее 500 символов')
      .refine(
        (v) => v === '' || /^\/(?!\/)[\w\-./]*$/.test(v) || /^https:\/\/[^\s"'<>]+$/.test(v),
        'адрес картинки: путь на сайте (/media/…) или https://…',
      )
      .openapi({ description: 'a path on this site or an https URL; empty for the built-in mark' }),
    support_email: z.union([z.literal(''), z.email('почта в виде name@example.ru').max(200)]),
    support_phone: Text(40).refine(
      (v) => v === '' || /^[+\d][\d\s()-]{4,38}$/.test(v),
      'телефон цифрами, можно с +',
    ),
  })
  .openapi('Shop')
type ShopIn = z.infer<typeof Shop>

const out = (s: ShopSettings): ShopIn => ({
  name: s.name,
  logo: s.logo,
  support_email: s.supportEmail,
  support_phone: s.supportPhone,
})

const publicRoute = createRoute({
  method: 'get',
  path: '/api/shop/',
  tags: ['content'],
  summary: "The shop's name, logo and support contacts",
  description:
    'Public, for the storefront header, titles and mails. `saved` is false until the owner saves them in the back office (the demo or a neutral default is answered meanwhile).',
  responses: { 200: jsonContent(Shop.extend({ saved: z.boolean() }).openapi('ShopPublic')) },
})
const getRoute = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/shop/',
  summary: "The shop's name, logo and support contacts",
  responses: { 200: jsonContent(Shop), ...errorResponses(403, 404) },
})
const putRoute = adminRoute('owner', {
  method: 'put',
  path: '/api/admin/shop/',
  summary: "Saves the shop's name, logo and support contacts",
  request: jsonBody(Shop),
  responses: { 200: jsonContent(Shop), ...errorResponses(400, 403, 404) },
})

export function registerShop(app: ApiApp) {
  app.openapi(publicRoute, async (c) => {
    const s = await getShopSettings(c.var.deps.db, c.var.deps.config)
    return c.json({ ...out(s), saved: s.saved }, 200)
  })
  app.openapi(getRoute, async (c) =>
    c.json(out(await getShopSettings(c.var.deps.db, c.var.deps.config)), 200),
  )
  app.openapi(putRoute, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json') as ShopIn
    const { db, config } = c.var.deps
    const saved = await db.transaction(async (tx) => {
      const before = await getShopSettings(tx, config)
      await saveShopSettings(tx, {
        name: b.name,
        logo: b.logo,
        supportEmail: b.support_email,
        supportPhone: b.support_phone,
      })
      const after = await getShopSettings(tx, config)
      const diff = changedFields(out(before), out(after))
      if (diff.changed)
        await audit(tx, staff, { action: 'shop.update', entity: 'shop', entityId: 1, ...diff })
      return after
    })
    return c.json(out(saved), 200)
  })
}
