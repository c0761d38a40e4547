// What a guest typed into the order form, remembered on this device (issue 50): the email and, per
// game, the player ids (PUBG has none; Standoff's account id, a supply game's id and server, the
// Steam login). The server writes it as a signed HttpOnly cookie when a guest's order is created,
// so it works without JavaScript; the game page pre-fills its editable fields from it, the gift
// page its email, and nothing else ever reads it (it proves nothing about who the visitor is).
// «Забыть мои данные на этом устройстве» (/buyer/forget, linked from the footer as «Данные на этом
// устройстве») expires it. A signed-in buyer's form is pre-filled from the account.
//
// Two cookies of one name, each sent only where a form reads it, so that every other page of a
// returning guest stays served from the page cache and the personal fill (which pass over a
// request with any cookie but the locale's): Path=/products (the game pages) holds the email and
// the player ids; Path=/gifts/detalis (a gift's page, its purchase form) holds the email alone.
// A game order writes both; a gift order writes the gift pages' one (it cannot rewrite the game
// pages' one: that request does not carry it, and its player ids would be lost).
//
// Value: base64url JSON, a dot, an HMAC-SHA256 of it with a key derived from the shop's secret. A
// value that is unsigned, tampered with, too long or of the wrong shape is ignored, never an error.
import { createHmac, timingSafeEqual } from 'node:crypto'
import path from 'node:path'
import { parse, serialize } from 'cookie'
import { cookiesSecure } from '#app/lib/session.server'
import { DEFAULT_DATA_DIR, shopSecret } from '../../shared/shop-secret'

/** The cookie's name over plain http on this machine (development, the e2e shop). */
export const REMEMBER_COOKIE = 'buyer'
/**
 * Its name everywhere else: a browser takes a `__Secure-` cookie only from https and only with
 * Secure, so a value planted over plain http (a first visit before HSTS) can never pose as ours.
 */
export const SECURE_REMEMBER_COOKIE = '__Secure-buyer'
const cookieName = (request: Request) => (cookiesSecure(request) ? SECURE_REMEMBER_COOKIE : REMEMBER_COOKIE)
/** The game pages (/products/{id}), where the order form is. */
export const REMEMBER_PATH = '/products'
/** A gift's page (/gifts/detalis/{id}), where its purchase form is: the email only. */
export const GIFT_REMEMBER_PATH = '/gifts/detalis'
/** A year: the point is the next purchase, weeks or months later. */
const REMEMBER_MAX_AGE_SECONDS = 365 * 24 * 60 * 60
/** Games remembered at most; the most recent first. */
const MAX_GAMES = 6
const MAX_EMAIL = 254
const MAX_ID = 64
/** A longer cookie value than this is not read at all (ours stay well under it). */
const REMEMBER_MAX_VALUE = 2048

/** The player fields of one game, as the order form names them. */
export interface RememberedPlayer {
  userId?: string
  serverId?: string
  serverCustomId?: string
  steamAccountId?: string
}

interface RememberedBuyer {
  email?: string
  /** game id → the player fields last used for it, most recent first */
  games: Array<{ game: number; player: RememberedPlayer }>
}

const PLAYER_KEYS = ['userId', 'serverId', 'serverCustomId', 'steamAccountId'] as const

let signingKey: Buffer | null = null

function key(): Buffer {
  signingKey ??= createHmac(
    'sha256',
    shopSecret(process.env.JWT_SECRET || undefined, path.resolve(process.env.DATA_DIR || DEFAULT_DATA_DIR)),
  )
    .update('remembered-buyer-v1')
    .digest()
  return signingKey
}

const signatureOf = (payload: string) => createHmac('sha256', key()).update(payload).digest()

/** A short single-line text, or undefined (no control characters, within `max`). */
function text(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined
  const v = value.trim()
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (v === '' || v.length > max || /[\u0000-\u001f\u007f]/.test(v)) return undefined
  return v
}

function cleanPlayer(raw: unknown): RememberedPlayer {
  const out: RememberedPlayer = {}
  if (!raw || typeof raw !== 'object') return out
  for (const k of PLAYER_KEYS) {
    const v = text((raw as Record<string, unknown>)[k], MAX_ID)
    if (v !== undefined) out[k] = v
  }
  return out
}

function clean(raw: unknown): RememberedBuyer {
  const out: RememberedBuyer = { games: [] }
  if (!raw || typeof raw !== 'object') return out
  const r = raw as { email?: unknown; games?: unknown }
  const email = text(r.email, MAX_EMAIL)
  if (email?.includes('@')) out.email = email
  if (Array.isArray(r.games)) {
    for (const g of r.games) {
      const game = (g as { game?: unknown } | null)?.game
      if (typeof game !== 'number' || !Number.isSafeInteger(game) || game < 1) continue
      if (out.games.some((x) => x.game === game)) continue
      const player = cleanPlayer((g as { player?: unknown }).player)
      if (Object.keys(player).length > 0) out.games.push({ game, player })
      if (out.games.length === MAX_GAMES) break
    }
  }
  return out
}

export function encodeRemembered(buyer: RememberedBuyer): string {
  const payload = Buffer.from(JSON.stringify(clean(buyer)), 'utf8').toString('base64url')
  return `${payload}.${signatureOf(payload).toString('base64url')}`
}

/** What a cookie value holds; anything unsigned, tampered, oversized or malformed is nothing. */
function decodeRemembered(value: string | undefined): RememberedBuyer {
  const none: RememberedBuyer = { games: [] }
  if (!value || value.length > REMEMBER_MAX_VALUE) return none
  const dot = value.lastIndexOf('.')
  if (dot < 0) return none
  const payload = value.slice(0, dot)
  const given = Buffer.from(value.slice(dot + 1), 'base64url')
  const expected = signatureOf(payload)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return none
  try {
    return clean(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')))
  } catch {
    return none
  }
}

/** What this device remembers (nothing when the request has no valid cookie). */
function readRemembered(request: Request): RememberedBuyer {
  return decodeRemembered(rawCookie(request))
}

function rawCookie(request: Request): string | undefined {
  try {
    return parse(request.headers.get('cookie') ?? '')[cookieName(request)] || undefined
  } catch {
    return undefined
  }
}

/** Whether the request carries the cookie at all (valid or not): the forget control shows for it. */
export function hasRememberCookie(request: Request): boolean {
  return rawCookie(request) !== undefined
}

/** The pre-fill of one game's form: the email and that game's player fields. */
export function rememberedFor(request: Request, gameId: number): { email?: string } & RememberedPlayer {
  const buyer = readRemembered(request)
  const player = buyer.games.find((g) => g.game === gameId)?.player ?? {}
  return { ...(buyer.email ? { email: buyer.email } : {}), ...player }
}

/** The email this device remembers (a gift's page pre-fills its form with it), or undefined. */
export function rememberedEmail(request: Request): string | undefined {
  return readRemembered(request).email
}

function cookie(
  value: string,
  request: Request,
  maxAge: number,
  path = REMEMBER_PATH,
  name = cookieName(request),
): string {
  return serialize(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookiesSecure(request),
    // only the pages whose form reads it: elsewhere the browser does not send it, so the home page,
    // the gift lists and the signed-in pages stay served from the page cache and the personal
    // fill, which pass over any request with a cookie of their own
    path,
    maxAge,
    ...(maxAge === 0 ? { expires: new Date(0) } : {}),
  })
}

/** The gift pages' cookie: the email alone. */
const giftCookie = (request: Request, email: string) =>
  cookie(encodeRemembered({ email, games: [] }), request, REMEMBER_MAX_AGE_SECONDS, GIFT_REMEMBER_PATH)

/**
 * The Set-Cookies that remember a game order's email and player fields: the game pages' over what
 * the device remembered before (this game moves to the front; the oldest game drops off past the
 * cap), and the email for the gift pages.
 */
export function rememberCookies(
  request: Request,
  order: { gameId: number; email?: string | null; player: RememberedPlayer },
): string[] {
  const before = readRemembered(request)
  const player = cleanPlayer(order.player)
  const games = [
    ...(Object.keys(player).length > 0 ? [{ game: order.gameId, player }] : []),
    ...before.games.filter((g) => g.game !== order.gameId),
  ].slice(0, MAX_GAMES)
  const email = text(order.email, MAX_EMAIL) ?? before.email
  // long ids in Cyrillic take more room than their length says: the oldest games drop off until
  // the value fits what the reader accepts (or the next read would forget everything)
  let value = encodeRemembered({ ...(email ? { email } : {}), games })
  while (value.length > REMEMBER_MAX_VALUE && games.length > 0) {
    games.pop()
    value = encodeRemembered({ ...(email ? { email } : {}), games })
  }
  const forGames = cookie(value, request, REMEMBER_MAX_AGE_SECONDS)
  return email?.includes('@') ? [forGames, giftCookie(request, email)] : [forGames]
}

/** The Set-Cookie that remembers a guest's gift order's email for the next gift (issue 50). */
export function rememberGiftCookie(request: Request, email: string | null | undefined): string | null {
  const valid = text(email, MAX_EMAIL)
  return valid?.includes('@') ? giftCookie(request, valid) : null
}

/** The Set-Cookies that forget everything this device remembered, on both paths. */
export function forgetCookies(request: Request): string[] {
  const forget = [cookie('', request, 0), cookie('', request, 0, GIFT_REMEMBER_PATH)]
  // the plain name too, over https: a value planted under it is not read, but it should not stay
  if (cookiesSecure(request))
    for (const path of [REMEMBER_PATH, GIFT_REMEMBER_PATH])
      forget.push(cookie('', request, 0, path, REMEMBER_COOKIE))
  return forget
}
