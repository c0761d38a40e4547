// Issue 43, finding 3: the pay page lists every money line named for what it is — the Steam top-up,
// the shop's commission on it (never «Комиссия Steam»), the promo discount, the balance spent and
// the payment method's fee — and the lines add up, step by step, to what the buyer is charged.
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { OrderSummary } from '#app/components/payment/order-summary'
import { I18nProvider } from '#app/i18n/i18n-context'
import { messagesFor } from '#app/i18n/i18n.server'
import { type OrderWire, type StatusResult, toOrder } from '#app/lib/view-models/order'

function steamWire(over: Partial<OrderWire> = {}): OrderWire {
  return {
    id: '7c0a4f1e-1d2b-4c6e-9a8b-0123456789ab',
    resourcetype: 'SteamOrder',
    status: 'waiting_for_payment',
    created: '2026-11-21T10:00:00.000Z',
    email: 'buyer@example.com',
    game: { id: 1, title: 'Steam', logo: '/images/steam.svg', resourcetype: 'Steam' },
    gift: null,
    products: [],
    // 1 000,00 top-up + 80,00 shop commission; 10 % promo off the commission; 72,00 of balance
    total: '1080.00',
    total_without_promocode: '1080.00',
    total_with_promocode: '1072.00',
    promo_percent: 10,
    balance_used: '72.00',
    total_to_pay: '1000.00',
    is_payment_active: true,
    reject_reason: null,
    game_avatar: null,
    game_account_id: null,
    surplus: null,
    steam_account_id: 'gaben',
    amount: '1000.00',
    commission: '80.00',
    moogold_user_id: null,
    moogold_server: null,
    moogold_server_custom_id: null,
    player_nickname: null,
    code: null,
    ...over,
  } as OrderWire
}

/** The page's money rows as [label, signed kopecks], in order. */
function rowsOf(wire: OrderWire, charged: StatusResult['charged']): Array<[string, number]> {
  const html = renderToStaticMarkup(
    <I18nProvider locale="ru" messages={messagesFor('ru')}>
      <OrderSummary order={toOrder(wire)} charged={charged} />
    </I18nProvider>,
  )
  const rows: Array<[string, number]> = []
  for (const m of html.matchAll(/<dt>(.*?)<\/dt><dd[^>]*>(.*?)<\/dd>/g)) {
    const value = m[2]!.replace(/&[a-z]+;|&#\d+;/g, ' ')
    if (!/\d/.test(value) || !/₽/.test(value)) continue
    const kop = Math.round(Number(value.replace(/[^\d,]/g, '').replace(',', '.')) * 100)
    rows.push([m[1]!, value.trim().startsWith('−') ? -kop : kop])
  }
  return rows
}

const amountOf = (rows: Array<[string, number]>, label: string) => {
  const row = rows.find(([l]) => l.startsWith(label))
  expect(row, `a line «${label}»`).toBeDefined()
  return row![1]
}

describe('the pay page’s money lines add up to what is charged', () => {
  it('a Steam top-up with promo, balance and the method’s fee: every line named, each total the sum above it', () => {
    const charged = { amount: 102_000, fee: 2000, paid: false }
    const rows = rowsOf(steamWire(), charged)
    const labels = rows.map(([l]) => l)
    expect(labels).toEqual([
      'Пополнение Steam',
      'Комиссия магазина',
      'Сумма заказа',
      'Скидка по промокоду (10% от комиссии)',
      'С промокодом',
      'Списано с баланса',
      'К оплате',
      'Комиссия способа оплаты',
      'Итого с комиссией способа оплаты',
    ])
    expect(labels.join(' ')).not.toMatch(/Комиссия Steam/i)
    const v = (l: string) => amountOf(rows, l)
    expect(v('Пополнение Steam') + v('Комиссия магазина')).toBe(v('Сумма заказа'))
    expect(v('Сумма заказа') + v('Скидка по промокоду')).toBe(v('С промокодом'))
    expect(v('С промокодом') + v('Списано с баланса')).toBe(v('К оплате'))
    expect(v('К оплате') + v('Комиссия способа оплаты')).toBe(v('Итого с комиссией способа оплаты'))
    expect(v('Итого с комиссией способа оплаты')).toBe(charged.amount)
  })

  it('paid: the last line says what was charged; without a fee «К оплате» is the charge and no fee line shows', () => {
    const paid = rowsOf(steamWire({ status: 'done', is_payment_active: false }), {
      amount: 102_000,
      fee: 2000,
      paid: true,
    })
    expect(paid.at(-1)).toEqual(['Оплачено с комиссией способа оплаты', 102_000])

    const noFee = rowsOf(steamWire(), { amount: 100_000, fee: 0, paid: false })
    expect(noFee.map(([l]) => l)).not.toContain('Комиссия способа оплаты')
    expect(noFee.at(-1)).toEqual(['К оплате', 100_000])
    // no payment under way yet: the totals end at «К оплате»
    expect(rowsOf(steamWire(), null).at(-1)).toEqual(['К оплате', 100_000])
  })
})
