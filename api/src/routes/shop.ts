// The shop's name, logo and support contacts (issue 37) and its tagline (issue 47): public for the
// storefront's header, titles and footer; the owner edits them at /api/admin/shop/ (the logo is
// uploaded at /api/admin/shop/logo/, routes/admin/logos.ts).
import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { message } from '../lib/errors'
import { errorResponses, jsonContent } from '../lib/schemas'
import { getShopSettings } from '../services/shop/settings'
import { shopView as out, updateShopSettings } from '../services/shop/update'
import { TIME_ZONE_SHAPE } from '../../../shared/shop-time'
import { Filled, jsonBody, Text } from './admin/fields'
import { adminRoute, staffOf } from './admin/guard'

/** The tagline's limit: one line under the name on a phone's screen. */
const TAGLINE_MAX = 120
/**
 * One line of plain text: no control or format characters (bidi overrides, zero-width ones), no
 * line or paragraph separators, nothing private-use or unassigned, not the Hangul and Braille
 * blanks, and no more than two combining marks in a row: nothing that reorders, hides or blanks
 * what the footer and the mails show (found by review, the last ones by this stop's, L-c). The
 * contract publishes this very pattern (Unicode property escapes, as JSON Schema's validators
 * compile it with the `u` flag).
 */
const TAGLINE_PATTERN =
  '^(?![\\s\\S]*\\p{M}{3})[^\\p{Cc}\\p{Cf}\\p{Co}\\p{Cn}\\p{Zl}\\p{Zp}\\u115f\\u1160\\u3164\\uffa0\\u2800]*$'
const TAGLINE_CHARS = new RegExp(TAGLINE_PATTERN, 'u')
/** Support hours (issue 50): a short line beside the contact in the game page's trust line. */
const SUPPORT_HOURS_MAX = 80

const Shop = z
  .object({
    name: Filled(80, message('field_shop_name_required')),
    logo: z
      .string({ error: message('field_string') })
      .trim()
      .max(500, message('field_max_chars', { max: 500 }))
      .refine(
        (v) => v === '' || /^\/(?!\/)[\w\-./]*$/.test(v) || /^https:\/\/[^\s"'<>]+$/.test(v),
        message('field_shop_logo'),
      )
      .openapi({
        description: 'a path on this site or an https URL; empty for the built-in mark',
        // the refinement above, published (issue 44)
        pattern: '^\\s*(|/(?!/)[\\w\\-./]*|https://[^\\s"\'<>]+)\\s*$',
      }),
    support_email: z.union([z.literal(''), z.email(message('field_email_format')).max(200)]),
    support_phone: Text(40).refine(
      (v) => v === '' || /^[+\d][\d\s()-]{4,38}$/.test(v),
      message('field_phone'),
    ),
    time_zone: z
      .string({ error: message('field_string') })
      .trim()
      .max(64, message('field_max_chars', { max: 64 }))
      .regex(TIME_ZONE_SHAPE, message('field_time_zone'))
      .optional()
      .openapi({
        example: 'Europe/Moscow',
        description:
          'The IANA zone every time of the back-office, mails and exports is in (decision 136); absent: unchanged. A well-shaped zone the server does not know: 400 time_zone_unknown',
      }),
    tagline: Text(TAGLINE_MAX).regex(TAGLINE_CHARS, message('shop_tagline_one_line')).optional().openapi({
      pattern: TAGLINE_PATTERN,
      description:
        'The line under the name in the footer and the mails (issue 47); empty: the built-in one. Absent: unchanged. Saved trimmed',
    }),
    support_hours: z
      .string({ error: message('shop_support_hours_text') })
      .trim()
      .max(SUPPORT_HOURS_MAX, message('shop_support_hours_too_long', { max: SUPPORT_HOURS_MAX }))
      .regex(TAGLINE_CHARS, message('shop_support_hours_one_line'))
      .optional()
      .openapi({
        pattern: TAGLINE_PATTERN,
        description:
          "When support answers, the owner's free text (our extension, issue 50), shown beside the support contact on the game pages; empty: not said. Absent: unchanged. Saved trimmed",
      }),
  })
  .openapi('Shop')
type ShopIn = z.infer<typeof Shop>

const publicRoute = createRoute({
  method: 'get',
  path: '/api/shop/',
  tags: ['content'],
  summary: "The shop's name, logo and support contacts",
  description:
    'Public, for the storefront header, titles and mails. `saved` is false until the owner saves them in the back office (the demo or a neutral default is answered meanwhile).',
  responses: {
    200: jsonContent(
      Shop.extend({
        saved: z.boolean(),
        telegram_follow: z.boolean().optional().openapi({
          description:
            'The shop has a Telegram bot: buyers may follow an order there (POST /api/orders/{id}/telegram/)',
        }),
      }).openapi('ShopPublic'),
    ),
  },
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
    return c.json({ ...out(s), saved: s.saved, telegram_follow: c.var.deps.config.telegram !== null }, 200)
  })
  app.openapi(getRoute, async (c) =>
    c.json(out(await getShopSettings(c.var.deps.db, c.var.deps.config)), 200),
  )
  app.openapi(putRoute, async (c) => {
    const b = c.req.valid('json') as ShopIn
    const saved = await updateShopSettings(c.var.deps, staffOf(c), {
      name: b.name,
      logo: b.logo,
      supportEmail: b.support_email,
      supportPhone: b.support_phone,
      timeZone: b.time_zone,
      tagline: b.tagline,
      supportHours: b.support_hours,
    })
    return c.json(out(saved), 200)
  })
}
