// The Telegram bot's public doors (our extension, issue 49): the webhook Telegram posts updates to,
// and a buyer's «Следить в Telegram» link for an order.
import { actorOf } from '../lib/actor'
import { createHash, timingSafeEqual } from 'node:crypto'
import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { clientAddressOf } from '../lib/client-address'
import { fail } from '../lib/errors'
import { log } from '../lib/log'
import { ErrorSchema, errorResponses, jsonContent, UuidParam } from '../lib/schemas'
import { loadOrderForCaller } from '../services/orders/access'
import { hitRateLimit } from '../services/rate-limit'
import type { TgUpdate } from '../services/telegram/bot-api'
import { orderLink } from '../services/telegram/linking'
import { WEBHOOK_PATH } from '../services/telegram/receive'
import { handleUpdate } from '../services/telegram/updates'

/** Wrong secrets one address may send in a minute before it is not even compared. */
const BAD_SECRETS_PER_MINUTE = 20

const Update = z.looseObject({ update_id: z.number().int().nonnegative() }).openapi('TelegramUpdate', {
  description: 'A Telegram Update object (Bot API); fields beyond update_id as Telegram sends them',
})

const webhook = createRoute({
  method: 'post',
  path: WEBHOOK_PATH,
  tags: ['telegram'],
  summary: 'Our extension: Telegram delivers a bot update (setWebhook with secret_token)',
  description:
    'Only with the header X-Telegram-Bot-Api-Secret-Token set by setWebhook (403 otherwise; 404 while the shop has no bot or polls for updates). Each update_id is handled once: a repeat answers 200 and changes nothing.',
  request: {
    headers: z.object({ 'x-telegram-bot-api-secret-token': z.string().max(256).optional() }),
    body: { content: { 'application/json': { schema: Update } }, required: true },
  },
  responses: {
    200: jsonContent(z.object({ ok: z.literal(true), repeat: z.boolean() }).openapi('TelegramWebhookAnswer')),
    ...errorResponses(400, 403, 404, 429),
  },
})

const TelegramLink = z
  .object({
    url: z.string().openapi({ example: 'https://t.me/shop_bot?start=o8m2…' }),
    expires_at: z.string(),
  })
  .openapi('TelegramLink')

const follow = createRoute({
  method: 'post',
  path: '/api/orders/{id}/telegram/',
  tags: ['orders'],
  summary:
    'Our extension: a one-time Telegram link that makes a chat follow the order («Следить в Telegram»)',
  description:
    'Same access as GET /api/orders/{id}/. The link opens the shop’s bot; /start with it links the chat to the order (once, within 30 minutes). The bot then tells the order’s news (never its codes); /stop ends it. 409 while the shop has no bot; 429 beyond 10 links an hour per order or 30 per address.',
  request: { params: UuidParam },
  responses: {
    200: jsonContent(TelegramLink),
    ...errorResponses(400, 404, 409, 429),
    502: { description: 'Telegram did not answer', content: { 'application/json': { schema: ErrorSchema } } },
  },
})

/** Compares the secrets' digests in constant time (their lengths say nothing either). */
function sameSecret(given: string | undefined, expected: string) {
  if (!given) return false
  const a = createHash('sha256').update(given).digest()
  const b = createHash('sha256').update(expected).digest()
  return timingSafeEqual(a, b)
}

export function registerTelegram(app: ApiApp) {
  app.openapi(webhook, async (c) => {
    const { deps } = c.var
    const tg = deps.config.telegram
    if (tg?.mode !== 'webhook') throw fail(404, 'not_found')
    const address = clientAddressOf(c)
    if (!sameSecret(c.req.valid('header')['x-telegram-bot-api-secret-token'], tg.webhookSecret)) {
      const hit = await hitRateLimit(deps.db, `tg:webhook:bad:${address}`, BAD_SECRETS_PER_MINUTE, 60)
      log.warn({ address }, 'telegram webhook refused: wrong secret token')
      if (!hit.allowed) {
        c.header('Retry-After', String(hit.retryAfter))
        throw fail(429, 'rate_limited', { seconds: hit.retryAfter })
      }
      throw fail(403, 'telegram_webhook_forbidden')
    }
    const outcome = await handleUpdate(deps, c.req.valid('json') as unknown as TgUpdate)
    return c.json({ ok: true as const, repeat: outcome === 'repeat' }, 200)
  })

  app.openapi(follow, async (c) => {
    const order = await loadOrderForCaller(c.var.deps.db, actorOf(c), c.req.valid('param').id)
    return c.json(await orderLink(c.var.deps, order, clientAddressOf(c), c.var.userId), 200)
  })
}
