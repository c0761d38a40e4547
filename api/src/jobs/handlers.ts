// Every job kind the shop runs, and the recurring ones: the one place to look for "what runs in
// the background". Services own their handlers; this file only lists them.
import { REVIEW_OVERDUE_JOB, reviewOverdueJob } from '../services/risk/review'
import { and, inArray, lt, sql } from 'drizzle-orm'
import { jobs } from '../db/schema'
import { passwordResetJob, RESET_JOB } from '../services/auth/passwords'
import { MAIL_JOB } from '../services/mail/outbox'
import { sendMailJob } from '../services/mail/send-job'
import { REFUND_JOB } from '../services/refunds/open'
import { RECEIPT_JOB } from '../services/receipts/outbox'
import { receiptSendJob } from '../services/receipts/send-job'
import { refundProviderJob } from '../services/refunds/provider-job'
import { supplierRecheckJob } from '../services/fulfilment/recheck'
import { RECHECK_JOB } from '../services/fulfilment/recheck-queue'
import {
  DELIVERY_OVERDUE_JOB,
  DELIVERY_REFUND_JOB,
  DELIVERY_REFUND_WARNING_JOB,
  deliveryOverdueJob,
  deliveryRefundJob,
  deliveryRefundWarningJob,
} from '../services/delivery/handover'
import { EXPIRE_JOB, expireOrdersJob } from '../services/orders/expiry'
import { paymentRequeryJob, REQUERY_JOB } from '../services/payments/requery'
import { ALERTS_EVERY_SECONDS, ALERTS_JOB, alertsJob } from '../services/alerts/run'
import { TELEGRAM_HANDLERS, TELEGRAM_RECURRING } from '../services/telegram/jobs'
import {
  RECONCILIATION_EVERY_SECONDS,
  RECONCILIATION_JOB,
  reconciliationJob,
} from '../services/reconciliation/run'
import { HOUSEKEEPING_HANDLERS, HOUSEKEEPING_RECURRING } from './housekeeping'
import type { JobHandler, RecurringJob } from './worker'

/** Finished jobs are kept a week (for the back-office timeline), then pruned. */
const pruneJobs: JobHandler = async (_job, deps) => {
  await deps.db
    .delete(jobs)
    .where(and(inArray(jobs.status, ['done']), lt(jobs.finishedAt, sql`now() - interval '7 days'`)))
}

export const JOB_HANDLERS: Record<string, JobHandler> = {
  'jobs.prune': pruneJobs,
  [MAIL_JOB]: sendMailJob,
  [RESET_JOB]: passwordResetJob,
  [REFUND_JOB]: refundProviderJob,
  [RECEIPT_JOB]: receiptSendJob,
  // the order clock (issue 12)
  [EXPIRE_JOB]: expireOrdersJob,
  [RECHECK_JOB]: supplierRecheckJob,
  [REQUERY_JOB]: paymentRequeryJob,
  // manual delivery (issue 31)
  [DELIVERY_OVERDUE_JOB]: deliveryOverdueJob,
  [REVIEW_OVERDUE_JOB]: reviewOverdueJob,
  [DELIVERY_REFUND_JOB]: deliveryRefundJob,
  [DELIVERY_REFUND_WARNING_JOB]: deliveryRefundWarningJob,
  // staff alerts (issue 37)
  [ALERTS_JOB]: alertsJob,
  // «Сверка» with the payment providers (issue 43)
  [RECONCILIATION_JOB]: reconciliationJob,
  ...HOUSEKEEPING_HANDLERS,
  // the Telegram bot (issue 49)
  ...TELEGRAM_HANDLERS,
}

export const RECURRING_JOBS: RecurringJob[] = [
  { kind: 'jobs.prune', everySeconds: 3600 },
  { kind: EXPIRE_JOB, everySeconds: 300 },
  { kind: ALERTS_JOB, everySeconds: ALERTS_EVERY_SECONDS },
  { kind: RECONCILIATION_JOB, everySeconds: RECONCILIATION_EVERY_SECONDS },
  ...HOUSEKEEPING_RECURRING,
  ...TELEGRAM_RECURRING,
]
