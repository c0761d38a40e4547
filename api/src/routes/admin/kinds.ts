// Kind settings (owner, issue 31): the Standoff 2 gold settings (skin to list, market fee, surplus,
// refund need) and the Steam top-up settings (commission, the account's currency, limits), so no
// kind needs SQL. A Steam game is sellable once its settings are saved.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { fail } from '../../lib/errors'
import { toMoney } from '../../lib/money'
import { errorResponses, jsonContent } from '../../lib/schemas'
import { audit, changedFields } from '../../services/admin/audit'
import {
  readStandoffSettings,
  readSteamSettings,
  saveStandoffSettings,
  saveSteamSettings,
} from '../../services/admin/kind-settings'
import { Filled, Int, jsonBody, Money, Text } from './fields'
import { adminRoute, staffOf } from './guard'

/** The currencies a Steam wallet is credited in that the desk can show. */
const STEAM_CURRENCIES = ['RUB', 'KZT', 'USD', 'EUR', 'UAH'] as const

const Picture = Text(500)
  .min(1, 'укажите картинку скина')
  .refine((v) => v.startsWith('/') || v.startsWith('https://'), 'адрес картинки: /… или https://…')
  // the refinement above, published (issue 44)
  .openapi({ pattern: '^\\s*(/|https://)' })

const StandoffIn = z
  .object({
    skin_name: Filled(200, 'укажите название скина'),
    skin_picture: Picture,
    market_fee_bp: Int(0, 9000).openapi({ description: 'The market fee in basis points (1000 = 10 %)' }),
    is_surplus_enabled: z.boolean('ожидается да или нет'),
    need_refund: z.boolean('ожидается да или нет'),
  })
  .openapi('AdminStandoffSettingsInput')
const StandoffOut = StandoffIn.extend({ configured: z.boolean() }).openapi('AdminStandoffSettings')

const SteamIn = z
  .object({
    commission_bp: Int(0, 5000).openapi({ description: 'Commission in basis points (800 = 8 %)' }),
    currency: z.enum(STEAM_CURRENCIES, 'валюта из списка'),
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

type StandoffRow = Awaited<ReturnType<typeof readStandoffSettings>>
type SteamRow = Awaited<ReturnType<typeof readSteamSettings>>

const standoffOut = (s: StandoffRow): z.infer<typeof StandoffOut> => ({
  skin_name: s?.skinName ?? '',
  skin_picture: s?.skinPicture ?? '',
  market_fee_bp: s?.marketFee ?? 1000,
  is_surplus_enabled: s?.isSurplusEnabled ?? true,
  need_refund: s?.needRefund ?? false,
  configured: s !== null,
})

const steamOut = (s: SteamRow): z.infer<typeof SteamOut> => ({
  commission_bp: s?.commission ?? 0,
  currency: s?.currency ?? 'RUB',
  min_amount: toMoney(s?.minAmount ?? 10000),
  max_amount: toMoney(s?.maxAmount ?? 1500000),
  configured: s !== null,
})

export function registerAdminKinds(app: ApiApp) {
  app.openapi(getStandoff, async (c) => c.json(standoffOut(await readStandoffSettings(c.var.deps.db)), 200))

  app.openapi(putStandoff, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json')
    const saved = await c.var.deps.db.transaction(async (tx) => {
      const before = standoffOut(await readStandoffSettings(tx))
      const row = await saveStandoffSettings(tx, {
        skinName: b.skin_name,
        skinPicture: b.skin_picture,
        marketFee: b.market_fee_bp,
        isSurplusEnabled: b.is_surplus_enabled,
        needRefund: b.need_refund,
      })
      const after = standoffOut(row)
      const diff = changedFields(before, after)
      if (diff.changed)
        await audit(tx, staff, { action: 'settings.standoff', entity: 'settings', entityId: row.id, ...diff })
      return after
    })
    return c.json(saved, 200)
  })

  app.openapi(getSteam, async (c) => c.json(steamOut(await readSteamSettings(c.var.deps.db)), 200))

  app.openapi(putSteam, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json')
    if (b.min_amount <= 0 || b.max_amount < b.min_amount) throw fail(400, 'steam_settings_bounds')
    const saved = await c.var.deps.db.transaction(async (tx) => {
      const before = steamOut(await readSteamSettings(tx))
      const row = await saveSteamSettings(tx, {
        commission: b.commission_bp,
        currency: b.currency,
        minAmount: b.min_amount,
        maxAmount: b.max_amount,
      })
      const after = steamOut(row)
      const diff = changedFields(before, after)
      if (diff.changed)
        await audit(tx, staff, { action: 'settings.steam', entity: 'settings', entityId: row.id, ...diff })
      return after
    })
    return c.json(saved, 200)
  })
}
