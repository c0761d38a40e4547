// How updates reach the shop (decision 140). Webhook: Telegram posts each update to
// /api/telegram/webhook/ with setWebhook's secret_token in a header (routes/telegram.ts). Long
// polling, where the shop has no public https address: the recurring 'telegram.poll' job asks
// getUpdates for a while, one instance at a time (one job per period), and keeps the offset in
// telegram_state so a restart or another instance goes on where it stopped. The 'telegram.setup'
// job (daily) tells Telegram which of the two is used.
import { eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { telegramState } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { log } from '../../lib/log'
import { callBot, type TgUpdate } from './bot-api'
import { handleUpdate } from './updates'

export const TELEGRAM_POLL_JOB = 'telegram.poll'
export const TELEGRAM_SETUP_JOB = 'telegram.setup'
export const POLL_EVERY_SECONDS = 10
/**
 * One getUpdates per job, waiting this long for news: short, so a poll never holds a worker's only
 * slot (PGlite runs one job at a time) long enough to starve the sends it causes.
 */
const LONG_POLL_SECONDS = 4
const ALLOWED_UPDATES = ['message', 'callback_query']
export const WEBHOOK_PATH = '/api/telegram/webhook/'

export const telegramSetupJob: JobHandler = async (_job, deps) => {
  const tg = deps.config.telegram
  if (!tg) return
  if (tg.mode === 'webhook')
    await callBot(deps, 'setWebhook', {
      url: `${deps.config.publicUrl}${WEBHOOK_PATH}`,
      secret_token: tg.webhookSecret,
      allowed_updates: ALLOWED_UPDATES,
    })
  else await callBot(deps, 'deleteWebhook', { drop_pending_updates: false })
  log.info({ mode: tg.mode }, 'telegram updates set up')
}

const OFFSET_KEY = 'poll_offset'

/** Asks getUpdates once and handles what came; answers how many updates came. */
export async function pollOnce(deps: ApiDeps, timeoutSeconds = LONG_POLL_SECONDS): Promise<number> {
  const [row] = await deps.db.select().from(telegramState).where(eq(telegramState.key, OFFSET_KEY))
  const updates = await callBot<TgUpdate[]>(
    deps,
    'getUpdates',
    { offset: row?.value ?? 0, timeout: timeoutSeconds, allowed_updates: ALLOWED_UPDATES },
    { timeoutMs: (timeoutSeconds + 10) * 1000 },
  )
  for (const u of updates) {
    await handleUpdate(deps, u)
    // confirmed one by one: a crash re-asks only what was not handled (and update_id keeps it once)
    await deps.db
      .insert(telegramState)
      .values({ key: OFFSET_KEY, value: u.update_id + 1 })
      .onConflictDoUpdate({ target: telegramState.key, set: { value: u.update_id + 1 } })
  }
  return updates.length
}

export const telegramPollJob: JobHandler = async (_job, deps) => {
  if (deps.config.telegram?.mode !== 'polling') return
  await pollOnce(deps, LONG_POLL_SECONDS)
}
