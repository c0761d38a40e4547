// Telegram login: the login page returns the user's fields signed by the bot. The check is an
// HMAC-SHA256 of the sorted "key=value" lines, keyed by SHA256(bot token), plus auth_date freshness.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { TelegramProviderConfig } from '../../env'
import { refuse } from '../../lib/domain-error'
import type { SocialIdentity } from './providers'

const FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash'] as const

/** The Telegram login page, returning to our redirect address with `state` in its query. */
export function telegramAuthorizeUrl(
  cfg: TelegramProviderConfig,
  redirectUri: string,
  state: string,
): string {
  const returnTo = new URL(redirectUri)
  returnTo.searchParams.set('state', state)
  const u = new URL(cfg.authUrl)
  u.searchParams.set('bot_id', cfg.botId)
  u.searchParams.set('origin', returnTo.origin)
  u.searchParams.set('return_to', returnTo.toString())
  u.searchParams.set('request_access', 'write')
  return u.toString()
}

/**
 * The login payload from `code`: a JSON object, a query string, or Telegram's base64 JSON
 * (`tgAuthResult`). Only the login fields are kept.
 */
export function parseTelegramPayload(code: string): Record<string, string> {
  let raw: Record<string, unknown> = {}
  const text = code.trim()
  try {
    if (text.startsWith('{')) raw = JSON.parse(text)
    else if (text.includes('=')) raw = Object.fromEntries(new URLSearchParams(text.replace(/^[?#]/, '')))
    else raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    raw = {}
  }
  if (typeof raw.tgAuthResult === 'string') return parseTelegramPayload(raw.tgAuthResult)
  const out: Record<string, string> = {}
  for (const f of FIELDS) {
    const v = raw[f]
    if (typeof v === 'string' || typeof v === 'number') out[f] = String(v)
  }
  return out
}

/** Signs a payload as Telegram does (used by the local fake and tests). */
export function signTelegramPayload(botToken: string, fields: Record<string, string>): string {
  const check = Object.keys(fields)
    .filter((k) => k !== 'hash')
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join('\n')
  const secret = createHash('sha256').update(botToken).digest()
  return createHmac('sha256', secret).update(check).digest('hex')
}

export function telegramIdentity(
  cfg: TelegramProviderConfig,
  code: string,
  now = Date.now(),
): SocialIdentity {
  const p = parseTelegramPayload(code)
  const bad = () => refuse('social_signature_invalid')
  if (!p.id || !p.auth_date || !p.hash || !/^\d{1,20}$/.test(p.id) || !/^[a-f0-9]{64}$/.test(p.hash))
    throw bad()
  const expected = Buffer.from(signTelegramPayload(cfg.botToken, p), 'hex')
  if (!timingSafeEqual(expected, Buffer.from(p.hash, 'hex'))) throw bad()
  const age = now / 1000 - Number(p.auth_date)
  if (!Number.isFinite(age) || age > cfg.maxAgeSeconds || age < -300) throw refuse('social_auth_expired')
  const nickname = [p.first_name, p.last_name].filter(Boolean).join(' ') || p.username || null
  return { id: p.id, email: null, nickname }
}
