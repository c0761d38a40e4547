// The pay page's «Платёж не засчитан — возвращаем деньги» line (decision 037), made by the loader.
import { describe, expect, it } from 'vitest'
import { returnedNote } from '#app/components/payment/returned-note.server'
import { createT } from '#app/i18n/translate'
import { loadLocaleMessages } from '#app/lib/locale-messages.server'

const t = createT(loadLocaleMessages('ru'))

describe('returnedNote', () => {
  it('is null without returned payments', () => {
    expect(returnedNote(t, [])).toBeNull()
  })

  it('says how much and where the money goes, one line per payment, in Russian', () => {
    const note = returnedNote(t, [
      { amount: 123450, currency: 'RUB', status: 'pending', method: 'provider' },
      { amount: 500, currency: 'RUB', status: 'done', method: 'balance' },
      { amount: 300, currency: 'USD', status: 'manual', method: 'manual' },
      { amount: 300, currency: 'RUB', status: 'done', method: 'provider' },
    ])
    const lines = note!.split('\n')
    expect(lines).toHaveLength(4)
    expect(lines[0]).toMatch(/^Платёж не засчитан — возвращаем деньги: 1\s234,50\s₽\. /)
    expect(lines[0]).toContain('Деньги вернутся тем же способом')
    expect(lines[1]).toContain('5,00')
    expect(lines[1]).toContain('зачислены на баланс')
    expect(lines[2]).toMatch(/3,00\sUSD\. /)
    expect(lines[2]).toContain('Возврат оформит поддержка')
    expect(lines[3]).toContain('Деньги возвращены')
    for (const line of lines) expect(line).not.toMatch(/payment\.returned/)
  })
})
