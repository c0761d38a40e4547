// The deadline of a personal data request: 10 working days, Saturdays and Sundays skipped, counted
// from the Moscow day the request was confirmed.
import { describe, expect, it } from 'vitest'
import { addWorkingDays, moscowDate } from '#api/services/personal-data/working-days'

describe('addWorkingDays', () => {
  it('10 working days from a Monday is the Friday of the next week but one', () => {
    expect(addWorkingDays(new Date('2026-11-23T09:00:00Z'), 10)).toBe('2026-12-07')
  })
  it('from a Friday, Saturday', () => {
    // Fri 27 Nov → skips two weekends → Fri 11 Dec
    expect(addWorkingDays(new Date('2026-11-27T12:00:00Z'), 10)).toBe('2026-12-11')
    expect(addWorkingDays(new Date('2026-11-28T12:00:00Z'), 10)).toBe('2026-12-11')
    expect(addWorkingDays(new Date('2026-11-29T12:00:00Z'), 10)).toBe('2026-12-11')
  })
  it('never lands on a weekend; one working day after Friday is Monday', () => {
    expect(addWorkingDays(new Date('2026-11-27T12:00:00Z'), 1)).toBe('2026-11-30')
    for (let d = 0; d < 14; d++)
      for (const n of [1, 5, 10]) {
        const day = new Date(
          `${addWorkingDays(new Date(Date.UTC(2026, 0, 5 + d, 12)), n)}T00:00:00Z`,
        ).getUTCDay()
        expect([0, 6]).not.toContain(day)
      }
  })
  it('counts from the Moscow day: 22:30 UTC on a Friday is already Saturday in Moscow', () => {
    expect(moscowDate(new Date('2026-11-27T22:30:00Z'))).toBe('2026-11-28')
    expect(addWorkingDays(new Date('2026-11-27T20:30:00Z'), 1)).toBe('2026-11-30')
    expect(addWorkingDays(new Date('2026-11-26T22:30:00Z'), 1)).toBe('2026-11-30')
  })
})
