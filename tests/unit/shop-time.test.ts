// The shop's one time zone (issue 47, decision 136): times read and typed in it, labelled.
import { describe, expect, it } from 'vitest'
import {
  formatShopTime,
  formatShopTimeLong,
  fromShopWallTime,
  isTimeZone,
  shopDay,
  toShopWallTime,
  zoneLabel,
} from '../../shared/shop-time'

describe('shop time', () => {
  it('shows an instant in the shop zone with its label: МСК for Moscow, the name otherwise', () => {
    // the finding: «Оплачено 17:59» (UTC) for a payment at 20:59 Moscow time
    expect(formatShopTime('2026-11-23T17:59:00.000Z', 'Europe/Moscow')).toBe('23.11.2026 20:59 МСК')
    expect(formatShopTime('2026-11-23T17:59:00.000Z', 'Asia/Yekaterinburg')).toBe(
      '23.11.2026 22:59 Asia/Yekaterinburg',
    )
    expect(formatShopTimeLong(new Date('2026-11-23T21:30:00Z'), 'Europe/Moscow')).toBe(
      '24 ноября 2026 г. в 00:30 МСК',
    )
    expect(zoneLabel('Europe/Moscow')).toBe('МСК')
  })

  it('takes a wall time typed in the shop zone as that instant, and writes it back the same', () => {
    expect(fromShopWallTime('2026-12-31T23:59', 'Europe/Moscow')?.toISOString()).toBe(
      '2026-12-31T20:59:00.000Z',
    )
    expect(fromShopWallTime('2026-12-01', 'Asia/Vladivostok')?.toISOString()).toBe('2026-11-30T14:00:00.000Z')
    expect(toShopWallTime('2026-12-31T20:59:00.000Z', 'Europe/Moscow')).toBe('2026-12-31T23:59')
    expect(toShopWallTime(null, 'Europe/Moscow')).toBe('')
    expect(shopDay('2026-11-30T22:00:00Z', 'Europe/Moscow')).toBe('2026-12-01')
    expect(fromShopWallTime('31.12.2026', 'Europe/Moscow')).toBeNull()
  })

  it('finds the right instant where the clocks change (no fixed offset)', () => {
    // Berlin: +1 in winter, +2 in summer
    expect(fromShopWallTime('2026-01-15T12:00', 'Europe/Berlin')?.toISOString()).toBe(
      '2026-01-15T11:00:00.000Z',
    )
    expect(fromShopWallTime('2026-07-15T12:00', 'Europe/Berlin')?.toISOString()).toBe(
      '2026-07-15T10:00:00.000Z',
    )
    for (const iso of ['2026-03-29T00:30:00.000Z', '2026-10-25T02:30:00.000Z', '2026-06-01T09:15:00.000Z'])
      expect(fromShopWallTime(toShopWallTime(iso, 'Europe/Berlin'), 'Europe/Berlin')?.toISOString()).toBe(iso)
  })

  it('knows a time zone from a typo', () => {
    expect(isTimeZone('Europe/Moscow')).toBe(true)
    expect(isTimeZone('Asia/Yekaterinburg')).toBe(true)
    expect(isTimeZone('Europe/Moskow')).toBe(false)
    expect(isTimeZone('')).toBe(false)
    expect(isTimeZone('../etc/passwd')).toBe(false)
  })
})
