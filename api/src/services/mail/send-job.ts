// The 'mail.send' job: renders the queued mail from fresh data, hands it to the transport and logs
// it once in mail_log. A refusal or an unreachable server throws, so the job is retried with
// backoff (the order or account change that queued it is long committed and never undone).
import { eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { mailLog } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { log } from '../../lib/log'
import type { MailConfig } from './config'
import type { MailJobPayload, MailTemplate } from './outbox'
import { isMailTemplate, renderMail } from './render'
import { createMailTransport, type MailTransport } from './transport'

const transports = new Map<MailConfig, MailTransport>()

/** The transport of a configuration (one pool of SMTP connections per process and setting). */
export function mailTransportFor(config: MailConfig): MailTransport {
  let t = transports.get(config)
  if (!t) {
    t = createMailTransport(config)
    transports.set(config, t)
  }
  return t
}

/** Closes the transport's connections (shutdown, tests). */
export function closeMailTransport(config: MailConfig): void {
  transports.get(config)?.close()
  transports.delete(config)
}

/** An error as a line without addresses: SMTP replies often quote the recipient. */
export function describeSendError(err: unknown): string {
  const e = err as { code?: unknown; responseCode?: unknown; message?: unknown }
  const text = typeof e?.message === 'string' ? e.message : String(err)
  const where = [e?.code, e?.responseCode].filter((v) => typeof v === 'string' || typeof v === 'number')
  return `${where.length ? `${where.join(' ')}: ` : ''}${text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]')}`
}

export const sendMailJob: JobHandler = async (job, deps: ApiDeps) => {
  const { db, config } = deps
  const payload = job.payload as Partial<MailJobPayload>
  if (!isMailTemplate(payload.template) || typeof payload.to !== 'string' || typeof payload.data !== 'object')
    throw new Error('malformed mail job: no such template or recipient')
  const template: MailTemplate = payload.template
  const key = job.dedupeKey ?? `job:${job.id}`
  // handed over already: the worker stopped after the send and before the job was marked done
  const [logged] = await db.select({ key: mailLog.key }).from(mailLog).where(eq(mailLog.key, key))
  if (logged) return

  const mail = await renderMail(template, payload.data as never, {
    db,
    config,
    to: payload.to,
    now: new Date(),
    demo: config.demo,
  })
  if (!mail) {
    log.info({ job: job.id, template }, 'mail skipped: nothing to send')
    return
  }
  const transport = mailTransportFor(config.mail)
  let sent: Awaited<ReturnType<MailTransport['send']>>
  try {
    sent = await transport.send({
      to: payload.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      key,
      queuedAt: job.created,
      template,
    })
  } catch (err) {
    // a fresh error: the original carries the recipient in its fields, and the worker logs what it throws
    throw new Error(`mail not sent (${transport.kind}): ${describeSendError(err)}`)
  }
  await db
    .insert(mailLog)
    .values({
      key,
      template,
      orderId: mail.orderId ?? null,
      messageId: sent.messageId,
      transport: transport.kind,
    })
    .onConflictDoNothing()
  if (sent.file)
    log.info({ job: job.id, template, file: sent.file }, 'mail written to a file (SMTP_URL not set)')
  else log.info({ job: job.id, template, messageId: sent.messageId }, 'mail sent')
}
