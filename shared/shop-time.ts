// The shop's one time zone (issue 47, decision 136): every time the back-office shows or takes,
// every mail and export is in it and says so («01.12.2026 20:58 МСК»). The one formatting module
// for times, shared by the storefront, the API and the mails.

export const DEFAULT_SHOP_TIMEZONE = 'Europe/Moscow'

/** How an IANA zone name is shaped (published in the contract; which zones exist is the runtime's). */
export const TIME_ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/

/** True when `zone` is an IANA time zone this runtime knows («Europe/Moscow», «Asia/Yekaterinburg»). */
export function isTimeZone(zone: string): boolean {
  if (!TIME_ZONE_SHAPE.test(zone)) return false
  try {
    new Intl.DateTimeFormat('ru-RU', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** What a person reads after a time: «МСК» for Moscow, the zone's name otherwise. */
export const zoneLabel = (zone: string): string => (zone === DEFAULT_SHOP_TIMEZONE ? 'МСК' : zone)

const formats = new Map<string, Intl.DateTimeFormat>()
function format(zone: string, style: 'numeric' | 'long'): Intl.DateTimeFormat {
  const key = `${zone}|${style}`
  let f = formats.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat('ru-RU', {
      day: style === 'long' ? 'numeric' : '2-digit',
      month: style === 'long' ? 'long' : '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: zone,
    })
    formats.set(key, f)
  }
  return f
}

const asDate = (when: Date | string) => (typeof when === 'string' ? new Date(when) : when)

/** «01.12.2026 20:58 МСК» (the back-office, exports). */
export function formatShopTime(when: Date | string, zone: string): string {
  return `${format(zone, 'numeric').format(asDate(when)).replace(',', '')} ${zoneLabel(zone)}`
}

/** «1 декабря 2026 г. в 20:58 МСК» (mails and the buyer's pages). */
export function formatShopTimeLong(when: Date | string, zone: string): string {
  return `${format(zone, 'long').format(asDate(when))} ${zoneLabel(zone)}`
}

/** The wall-clock parts of an instant in `zone`. */
function wallClock(when: Date, zone: string) {
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZone: zone,
  }).formatToParts(when)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return {
    y: get('year'),
    m: get('month'),
    d: get('day'),
    h: get('hour'),
    min: get('minute'),
    s: get('second'),
  }
}

/** `zone`'s offset from UTC at `when`, in milliseconds (Moscow: +3 h). */
function offsetAt(when: Date, zone: string): number {
  const w = wallClock(when, zone)
  const asUtc = Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s)
  return asUtc - Math.floor(when.getTime() / 1000) * 1000
}

/**
 * A wall time in `zone` («2026-12-31T23:59» or a day «2026-12-31», as date inputs send them) →
 * the instant; null when it is not such a text.
 */
export function fromShopWallTime(text: string, zone: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(text)
  if (!m) return null
  const [y, mo, d, h, mi] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0'].map(Number) as number[]
  const guess = Date.UTC(y!, mo! - 1, d!, h!, mi!)
  if (Number.isNaN(guess)) return null
  // the offset at the guess, then again at the corrected instant (a change of offset between them)
  const first = guess - offsetAt(new Date(guess), zone)
  return new Date(guess - offsetAt(new Date(first), zone))
}

/** The first instant of `day` (YYYY-MM-DD) in `zone`: a filter's inclusive lower bound. */
export const shopDayStart = (day: string, zone: string): Date =>
  fromShopWallTime(day, zone) ?? new Date(`${day}T00:00:00Z`)

/** The first instant after `day` in `zone` (a day is not always 24 h where the clocks change). */
export function shopDayEnd(day: string, zone: string): Date {
  const next = new Date(`${day}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return shopDayStart(next.toISOString().slice(0, 10), zone)
}

/** An instant as a datetime-local input's value in `zone` («2026-12-31T23:59»); '' for none. */
export function toShopWallTime(when: Date | string | null, zone: string): string {
  if (when === null) return ''
  const w = wallClock(asDate(when), zone)
  const p = (n: number) => String(n).padStart(2, '0')
  return `${w.y}-${p(w.m)}-${p(w.d)}T${p(w.h)}:${p(w.min)}`
}

/** The calendar day («2026-12-01») an instant falls on in `zone`. */
export const shopDay = (when: Date | string, zone: string): string => toShopWallTime(when, zone).slice(0, 10)
