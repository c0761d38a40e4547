// The bot's jobs, for the job list (jobs/handlers.ts).
import type { JobHandler, RecurringJob } from '../../jobs/worker'
import { TELEGRAM_EVENT_JOB, TELEGRAM_MAIL_JOB } from './follow'
import { telegramOrderEventJob, telegramStaffMailJob } from './order-event-job'
import { TELEGRAM_SEND_JOB } from './outbox'
import {
  POLL_EVERY_SECONDS,
  TELEGRAM_POLL_JOB,
  TELEGRAM_SETUP_JOB,
  telegramPollJob,
  telegramSetupJob,
} from './receive'
import { telegramSendJob } from './send-job'

export const TELEGRAM_HANDLERS: Record<string, JobHandler> = {
  [TELEGRAM_SEND_JOB]: telegramSendJob,
  [TELEGRAM_EVENT_JOB]: telegramOrderEventJob,
  [TELEGRAM_MAIL_JOB]: telegramStaffMailJob,
  [TELEGRAM_POLL_JOB]: telegramPollJob,
  [TELEGRAM_SETUP_JOB]: telegramSetupJob,
}

export const TELEGRAM_RECURRING: RecurringJob[] = [
  // setWebhook (or deleteWebhook for polling) once a day: the same call, so a lost setting heals
  { kind: TELEGRAM_SETUP_JOB, everySeconds: 86_400, when: (d) => d.config.telegram !== null },
  {
    kind: TELEGRAM_POLL_JOB,
    everySeconds: POLL_EVERY_SECONDS,
    when: (d) => d.config.telegram?.mode === 'polling',
  },
]
