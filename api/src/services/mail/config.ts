// Mail settings, read once with the rest of the API configuration (api/src/env.ts calls this).
//   SMTP_URL   smtp://user:pass@host:587 (STARTTLS when offered) or smtps://user:pass@host:465
//   MAIL_FROM  the From address, «Name <shop@example.com>»; required with SMTP_URL
// Without SMTP_URL every mail is written to DATA_DIR/mail/*.eml (the embedded default).
import path from 'node:path'
import addressparser from 'nodemailer/lib/addressparser'
import type SMTPPool from 'nodemailer/lib/smtp-pool'
import { parseConnectionUrl } from 'nodemailer/lib/shared'

export interface MailConfig {
  /** The From header. */
  from: string
  /** Domain of Message-IDs (the From address's domain). */
  domain: string
  /** SMTP pool options, or null for the file transport. */
  smtp: SMTPPool.Options | null
  /** Where the file transport writes .eml files. */
  dir: string
  /** Guest order look-up requests allowed per email and per client address, per hour. */
  lookupLimits: { perEmail: number; perAddress: number; windowSeconds: number }
}

const invalid = (name: string, why: string) => new Error(`Invalid environment:\n  ${name}: ${why}`)

/** The single address of a From header, or null when it is not exactly one address. */
function fromAddress(value: string): string | null {
  const parsed = addressparser(value, { flatten: true })
  const [first] = parsed
  if (parsed.length !== 1 || !first || !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(first.address)) return null
  return first.address
}

function smtpOptions(url: string): SMTPPool.Options {
  if (!URL.canParse(url)) throw invalid('SMTP_URL', 'must be a URL such as smtp://user:pass@host:587')
  const u = new URL(url)
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    throw invalid('SMTP_URL', 'must start with smtp:// or smtps://')
  if (!u.hostname) throw invalid('SMTP_URL', 'names no host')
  return {
    // a pool keeps connections open between mails; the worker sends a few at a time
    pool: true,
    maxConnections: 4,
    // short waits: a job's lease (120 s) must outlast a send that hangs, or another worker would
    // take the job over while this one still talks to the server
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    port: u.protocol === 'smtps:' ? 465 : 587,
    // the URL wins: host, port, credentials and nodemailer's query options (?tls.rejectUnauthorized=false)
    ...parseConnectionUrl(url),
  }
}

/** Reads the mail settings; a bad value throws the start-up message naming the variable. */
export function mailConfigFromEnv(env: NodeJS.ProcessEnv, opts: { dataDir: string; publicUrl: string }) {
  const smtpUrl = env.SMTP_URL?.trim() || undefined
  const smtp = smtpUrl ? smtpOptions(smtpUrl) : null
  const rawFrom = env.MAIL_FROM?.trim() || undefined
  if (smtp && !rawFrom)
    throw invalid('MAIL_FROM', 'required when SMTP_URL is set (e.g. Shop <shop@example.com>)')
  const host = new URL(opts.publicUrl).hostname
  const from = rawFrom ?? `ИгроМаркет <no-reply@${host.includes('.') ? host : `${host}.localdomain`}>`
  const address = fromAddress(from)
  if (!address)
    throw invalid('MAIL_FROM', 'must be one email address, optionally with a name: Shop <shop@example.com>')
  const limit = (name: string, def: number) => {
    const raw = env[name]?.trim()
    if (!raw) return def
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1) throw invalid(name, 'must be a positive whole number')
    return Number(raw)
  }
  return {
    from,
    domain: address.split('@')[1]!,
    smtp,
    dir: path.join(opts.dataDir, 'mail'),
    lookupLimits: {
      perEmail: limit('ORDER_LOOKUP_LIMIT_PER_EMAIL', 3),
      perAddress: limit('ORDER_LOOKUP_LIMIT_PER_ADDRESS', 10),
      windowSeconds: 3600,
    },
  } satisfies MailConfig
}
