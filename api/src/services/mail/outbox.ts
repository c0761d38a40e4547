// The mail outbox: a mail is queued in the transaction of the change that causes it and sent
// afterwards by the job worker ('mail.send', ./send-job.ts), so it is never lost (rolled back with
// the change, kept across kill -9) and never sent twice for one cause (`key`).
import type { DataRequestKind } from '../../db/schema'
import type { Db, Tx } from '../../db/client'
import type { SocialProvider } from '../../env'
import { enqueue } from '../../jobs/queue'
import { followStaffMail } from '../telegram/follow'

/**
 * What each template needs, as plain JSON: ids, not copies of rows (the sender reads the rest
 * fresh when it sends), and links as paths of the storefront (the sender adds PUBLIC_URL).
 */
export interface MailDataMap {
  /** A paid order handed to a person (services/delivery): it waits, how long, what the buyer must do. */
  order_paid: { orderId: string }
  /** To each staff member: a paid order waits past its game's promised time (once per order). */
  delivery_overdue: { orderId: string }
  /** To each staff member: an order nobody took will be refunded by itself soon (once per order). */
  delivery_refund_warning: { orderId: string }
  /** To each owner: a taken order passed its auto-refund deadline; the owner decides (once per order). */
  delivery_escalated: { orderId: string }
  /** A paid order held for review (issue 34): «на проверке — обычно до 30 минут». */
  order_held: { orderId: string }
  /** To each staff member: an order still held for review 30 minutes on (once per order). */
  review_overdue: { orderId: string }
  /** Queued by the order state machine when an order becomes done: the order, its codes, the total. */
  order_done: { orderId: string }
  /** Queued by the order state machine when a paid order fails: the reason and what happens to the money. */
  order_failed: { orderId: string }
  /**
   * A refund of the order was made. `reason`: why (shown to the buyer; default: the order's
   * reject_reason); `destination`: where the money went (default 'payment', back the way it was
   * paid); `amount`: kopecks refunded (default: the order's total_to_pay, or balance_used for 'balance');
   * `refusedPayment`: the money of a payment the shop refused (the order was not paid by it), with its
   * `currency` (minor units of it in `amount`).
   */
  order_refunded: {
    orderId: string
    reason?: string
    /** `person`: a staff member paid it back by hand (a refund the provider could not make). */
    destination?: 'payment' | 'balance' | 'person'
    amount?: number
    currency?: string
    refusedPayment?: boolean
    /** The payment refunded (its method is named; older mails: the order's succeeded payment). */
    paymentId?: string | null
  }
  /** A guest asked for the list of their orders: the sender makes the signed 24-hour link for `to`. */
  order_lookup: Record<string, never>
  /**
   * Confirm the account's email. `path`: the storefront link, e.g. `/auth/confirm`; with
   * `tokenId` (an account_tokens row) the sender adds `?token=<signed token>` when it renders, so
   * the token is stored nowhere.
   */
  confirm_email: { path: string; expiresInHours: number; tokenId?: string }
  /** Set a new password. `path`, `tokenId`: as for confirm_email (e.g. `/auth/reset`). */
  password_reset: { path: string; expiresInMinutes: number; tokenId?: string }
  /** The password was changed (or set by a reset); other sign-ins were ended. */
  password_changed: Record<string, never>
  /** A social account was bound to the shop account (sign-in by it works from now on). */
  social_bound: { provider: SocialProvider }
  /** To a staff member: the staff alerts opened since the last digest (services/alerts), by cause. */
  staff_alerts: { causes: string[] }
  /** A personal data request (152-ФЗ): the link that proves the mailbox; the sender makes its token. */
  data_request_confirm: { requestId: string; kind: DataRequestKind; expiresInHours: number }
  /** The request was confirmed: it is a staff task now, answered by its due date. */
  data_request_accepted: { requestId: string }
}

/** Every mail the shop sends; each has a template in ./templates (see ./render.tsx). */
export type MailTemplate = keyof MailDataMap

export interface MailRequest<T extends MailTemplate = MailTemplate> {
  template: T
  to: string
  data: MailDataMap[T]
  /** The cause, unique per mail: `order_done:<order id>`, `password_reset:<token id>`. */
  key: string
}

export const MAIL_JOB = 'mail.send'

/** The job payload of a queued mail. */
export interface MailJobPayload {
  template: MailTemplate
  to: string
  data: Record<string, unknown>
}

/** Queues a mail; false when a mail for this cause was already queued. */
export async function queueMail<T extends MailTemplate>(db: Db | Tx, mail: MailRequest<T>): Promise<boolean> {
  const payload: MailJobPayload = { template: mail.template, to: mail.to, data: { ...mail.data } }
  const queued = await enqueue(db, {
    kind: MAIL_JOB,
    key: `mail:${mail.key}`,
    payload: { ...payload },
    maxAttempts: 20,
  })
  // a staff mail is also said in its recipient's Telegram (when linked and chosen)
  if (queued) await followStaffMail(db, { ...payload, key: mail.key })
  return queued
}
