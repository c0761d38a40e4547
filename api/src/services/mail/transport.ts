// Where mails go: an SMTP server (SMTP_URL, a pooled nodemailer transport) or, by default, .eml
// files under DATA_DIR/mail/ (the embedded demo: every mail can be opened without a mail server).
import { createHash } from 'node:crypto'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type Transporter } from 'nodemailer'
import type Mail from 'nodemailer/lib/mailer'
import type { MailConfig } from './config'

export interface OutgoingMail {
  to: string
  subject: string
  html: string
  text: string
  /** The outbox key: the same key always makes the same Message-ID (and the same file name). */
  key: string
  /** When the mail was queued (file names sort by it). */
  queuedAt: Date
  template: string
}

export interface MailTransport {
  kind: 'smtp' | 'file'
  /** Hands the mail over; throws when the server refuses it or cannot be reached. */
  send(mail: OutgoingMail): Promise<{ messageId: string; file?: string }>
  close(): void
}

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32)

/** Message-ID per outbox key: a mail sent again after a crash is the same message to clients. */
export const messageIdFor = (key: string, domain: string) => `<${keyHash(key)}@${domain}>`

function message(config: MailConfig, mail: OutgoingMail): Mail.Options {
  return {
    from: config.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    messageId: messageIdFor(mail.key, config.domain),
    date: new Date(),
    // base64 bodies: Cyrillic text survives every relay unchanged
    textEncoding: 'base64',
    headers: { 'Auto-Submitted': 'auto-generated', 'X-Auto-Response-Suppress': 'All' },
  }
}

function smtpTransport(config: MailConfig): MailTransport {
  let transporter: Transporter | null = null
  const get = () => {
    transporter ??= nodemailer.createTransport(config.smtp!)
    return transporter
  }
  return {
    kind: 'smtp',
    async send(mail) {
      const msg = message(config, mail)
      await get().sendMail(msg)
      return { messageId: msg.messageId! }
    },
    close() {
      transporter?.close()
      transporter = null
    },
  }
}

function fileTransport(config: MailConfig): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    kind: 'file',
    async send(mail) {
      const msg = message(config, mail)
      const info = await composer.sendMail(msg)
      const stamp = mail.queuedAt
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z')
      // one name per key: a mail written again after a crash replaces itself
      const file = path.join(config.dir, `${stamp}-${mail.template}-${keyHash(mail.key).slice(0, 12)}.eml`)
      await mkdir(config.dir, { recursive: true })
      const tmp = `${file}.${process.pid}.tmp`
      await writeFile(tmp, info.message as Buffer, { mode: 0o600 })
      await rename(tmp, file)
      return { messageId: msg.messageId!, file }
    },
    close() {},
  }
}

export function createMailTransport(config: MailConfig): MailTransport {
  return config.smtp ? smtpTransport(config) : fileTransport(config)
}
