// The admin order card's summary in words (issue 47): money, times, yes/no, minutes, gold.
import { describe, expect, it } from 'vitest'
import { fieldText } from '#app/lib/admin/order-fields'

const words = {
  yes: 'да',
  no: 'нет',
  minutes: (n: number) => `${n} мин`,
  when: (iso: string) => `когда ${iso.slice(0, 10)}`,
  gold: (text: string) => text.replace('.', ','),
}

describe('fieldText', () => {
  it('reads each kind of value as a person would', () => {
    expect(fieldText('money', '1101.60', words)).toBe('1\u202f101,60\u00a0₽')
    expect(fieldText('time', '2026-12-01T17:59:00Z', words)).toBe('когда 2026-12-01')
    expect(fieldText('bool', true, words)).toBe('да')
    expect(fieldText('bool', false, words)).toBe('нет')
    expect(fieldText('minutes', 30, words)).toBe('30 мин')
    expect(fieldText('percent', '3.5', words)).toBe('3,5 %')
    expect(fieldText('gold', '526.42', words)).toBe('526,42 G')
    expect(fieldText('text', 'player-1', words)).toBe('player-1')
  })

  it('says «—» for a value that is not there', () => {
    for (const v of [null, undefined, ''])
      for (const kind of ['money', 'time', 'bool', 'text'] as const)
        expect(fieldText(kind, v, words)).toBe('—')
  })
})
