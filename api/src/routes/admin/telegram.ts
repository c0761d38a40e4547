// Staff in Telegram (issue 49): a staff member links their Telegram with a one-time deep link; the
// owner sees who linked and chooses which alerts go to whom; a link is undone by its owner or an
// owner. The bot's token is never answered here.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { ErrorSchema, errorResponses, idParam, jsonContent } from '../../lib/schemas'
import { staffLink } from '../../services/telegram/linking'
import {
  chooseStaffAlerts,
  linkedStaff,
  TELEGRAM_ALERTS,
  unlinkStaff,
} from '../../services/telegram/staff-links'
import { adminRoute, staffOf } from './guard'

const Alerts = z.array(z.enum(TELEGRAM_ALERTS)).max(TELEGRAM_ALERTS.length).openapi({
  description:
    'waiting: new orders waiting for delivery (with buttons); review: orders held for review (with buttons); staff_mail: the staff mails (overdue notices, warnings, escalations); alerts: the shop’s alert digest',
})

const LinkedStaff = z.object({
  user_id: z.number().int(),
  email: z.string(),
  telegram_name: z.string(),
  alerts: Alerts,
  linked_at: z.string(),
})

const Status = z
  .object({
    configured: z.boolean().openapi({ description: 'TELEGRAM_BOT_TOKEN is set' }),
    mode: z.enum(['webhook', 'polling']).nullable(),
    /** the caller's own link, if any */
    me: LinkedStaff.nullable(),
    staff: z
      .array(LinkedStaff)
      .nullable()
      .openapi({ description: 'Every linked staff member (owners only)' }),
  })
  .openapi('TelegramStatus')

const status = adminRoute('support', {
  method: 'get',
  path: '/api/admin/telegram/',
  summary: 'The bot’s setting and who linked Telegram',
  responses: { 200: jsonContent(Status), ...errorResponses(404) },
})

const link = adminRoute('support', {
  method: 'post',
  path: '/api/admin/telegram/link/',
  summary: 'A one-time link (10 minutes) that links the caller’s Telegram: open it and press Start',
  description: 'At most 5 links an hour per staff member. 409 while the shop has no bot.',
  responses: {
    200: jsonContent(z.object({ url: z.string(), expires_at: z.string() }).openapi('TelegramStaffLink')),
    ...errorResponses(404, 409),
    502: { description: 'Telegram did not answer', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

const UserParam = z.object({ user_id: idParam('user_id') })

const choose = adminRoute('owner', {
  method: 'put',
  path: '/api/admin/telegram/staff/{user_id}/',
  summary: 'Choose which alerts a linked staff member gets in Telegram',
  request: {
    params: UserParam,
    body: {
      content: {
        'application/json': { schema: z.object({ alerts: Alerts }).openapi('TelegramAlertsInput') },
      },
      required: true,
    },
  },
  responses: { 200: jsonContent(LinkedStaff), ...errorResponses(400, 403, 404) },
})

const unlink = adminRoute('support', {
  method: 'delete',
  path: '/api/admin/telegram/staff/{user_id}/',
  summary: 'Undo a Telegram link (one’s own; an owner: anyone’s)',
  request: { params: UserParam },
  responses: { 204: { description: 'Unlinked' }, ...errorResponses(403, 404) },
})

export function registerAdminTelegram(app: ApiApp) {
  app.openapi(status, async (c) => {
    const staff = staffOf(c)
    const { db, config } = c.var.deps
    const [me] = await linkedStaff(db, staff.userId)
    return c.json(
      {
        configured: config.telegram !== null,
        mode: config.telegram?.mode ?? null,
        me: me ?? null,
        staff: staff.role === 'owner' ? await linkedStaff(db) : null,
      },
      200,
    )
  })

  app.openapi(link, async (c) => c.json(await staffLink(c.var.deps, staffOf(c).userId), 200))

  app.openapi(choose, async (c) => {
    const { user_id: userId } = c.req.valid('param')
    const row = await chooseStaffAlerts(c.var.deps.db, staffOf(c), userId, c.req.valid('json').alerts)
    return c.json(row, 200)
  })

  app.openapi(unlink, async (c) => {
    await unlinkStaff(c.var.deps.db, staffOf(c), c.req.valid('param').user_id)
    return c.body(null, 204)
  })
}
