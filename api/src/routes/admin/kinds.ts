// Kind settings (owner, issue 31): the Standoff 2 gold settings (skin to list, market fee, surplus,
// refund need) and the Steam top-up settings (commission, the account's currency, limits), so no
// kind needs SQL. A Steam game is sellable once its settings are saved.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { errorResponses, jsonContent } from '../../lib/schemas'
import {
  readStandoffSettings,
  readSteamSettings,
  standoffView,
  steamView,
  updateStandoffSettings,
  updateSteamSettings,
} from '../../services/admin/kind-settings'
import { Filled, Int, jsonBody, Money, Text } from './fields'
import { adminRoute, staffOf } from './guard'
import { message } from '../../lib/errors'

/** The currencies a Steam wallet is credited in that the desk can show. */
const STEAM_CURRENCIES = ['RUB', 'KZT', 'USD', 'EUR', 'UAH'] as const

const Picture = Text(500)
  .min(1, message('field_skin_image_required'))
  .refine((v) => v.startsWith('/') || v.startsWith('https://'), message('field_image_url'))
  // the refinement above, published (issue 44)
  .openapi({ pattern: '^\\s*(/|https://)' })

const StandoffIn = z
  .object({
    skin_name: Filled(200, message('field_skin_name_required')),
    skin_picture: Picture,
    market_fee_bp: Int(0, 9000).openapi({ description: 'The market fee in basis points (1000 = 10 %)' }),
    is_surplus_enabled: z.boolean(message('field_yes_no')),
    need_refund: z.boolean(message('field_yes_no')),
  })
  .openapi('AdminStandoffSettingsInput')
const StandoffOut = StandoffIn.extend({ configured: z.boolean() }).openapi('AdminStandoffSettings')

const SteamIn = z
  .object({
    commission_bp: Int(0, 5000).openapi({ description: 'Commission in basis points (800 = 8 %)' }),
    currency: z.enum(STEAM_CURRENCIES, message('field_currency_choose')),
    min_amount: Money,
    max_amount: Money,
  })
  .openapi('AdminSteamSettingsInput')
const SteamOut = z
  .object({
    commission_bp: z.number().int(),
    currency: z.string(),
    min_amount: z.string(),
    max_amount: z.string(),
    configured: z.boolean().openapi({ description: 'False: never saved, Steam games cannot be sold' }),
  })
  .openapi('AdminSteamSettings')

const getStandoff = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/settings/standoff/',
  summary: 'The Standoff 2 gold settings (defaults when never saved)',
  responses: { 200: jsonContent(StandoffOut), ...errorResponses(403, 404) },
})
const putStandoff = adminRoute('owner', {
  method: 'put',
  path: '/api/admin/settings/standoff/',
  summary: 'Saves the Standoff 2 gold settings (new orders use them; open ones keep their listing price)',
  request: jsonBody(StandoffIn),
  responses: { 200: jsonContent(StandoffOut), ...errorResponses(400, 403, 404) },
})
const getSteam = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/settings/steam/',
  summary: 'The Steam top-up settings (defaults when never saved)',
  responses: { 200: jsonContent(SteamOut), ...errorResponses(403, 404) },
})
const putSteam = adminRoute('owner', {
  method: 'put',
  path: '/api/admin/settings/steam/',
  summary: 'Saves the Steam top-up settings; Steam games can be sold from then on',
  request: jsonBody(SteamIn),
  responses: { 200: jsonContent(SteamOut), ...errorResponses(400, 403, 404) },
})

export function registerAdminKinds(app: ApiApp) {
  app.openapi(getStandoff, async (c) => c.json(standoffView(await readStandoffSettings(c.var.deps.db)), 200))

  app.openapi(putStandoff, async (c) => {
    const b = c.req.valid('json')
    const saved = await updateStandoffSettings(c.var.deps.db, staffOf(c), {
      skinName: b.skin_name,
      skinPicture: b.skin_picture,
      marketFee: b.market_fee_bp,
      isSurplusEnabled: b.is_surplus_enabled,
      needRefund: b.need_refund,
    })
    return c.json(saved, 200)
  })

  app.openapi(getSteam, async (c) => c.json(steamView(await readSteamSettings(c.var.deps.db)), 200))

  app.openapi(putSteam, async (c) => {
    const b = c.req.valid('json')
    const saved = await updateSteamSettings(c.var.deps.db, staffOf(c), {
      commission: b.commission_bp,
      currency: b.currency,
      minAmount: b.min_amount,
      maxAmount: b.max_amount,
    })
    return c.json(saved, 200)
  })
}
