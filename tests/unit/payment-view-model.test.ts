// The payment page's view models (app/lib/view-models/order.ts): the API's snake_case order,
// countries and scenarios become camelCase with integer money; unknown kinds raise (§8).
import { describe, expect, it } from 'vitest'
import { formatPercentBp, formatRate, paymentAmount } from '#api/services/payments/amounts'
import { UnknownKindError } from '#app/lib/api/resourcetypes'
import {
  type ActiveCountryWire,
  availability,
  convertByRate,
  findMethod,
  type OrderWire,
  type PaymentDataWire,
  quoteMethod,
  scaled,
  toActiveCountry,
  toOrder,
  toPayment,
  toScenario,
  toStatusResult,
} from '#app/lib/view-models/order'

function orderWire(over: Partial<OrderWire> = {}): OrderWire {
  return {
    id: '7c0a4f1e-1d2b-4c6e-9a8b-0123456789ab',
    resourcetype: 'PUBGOrder',
    status: 'done',
    created: '2026-11-21T10:00:00.000Z',
    email: 'buyer@example.com',
    game: { id: 1, title: 'PUBG Mobile', logo: '/images/pubg.svg', resourcetype: 'PUBGGame' },
    gift: null,
    products: [
      {
        id: 11,
        product: 3,
        resourcetype: 'PUBGProduct',
        title: '660 UC',
        picture: '/images/uc.svg',
        quantity: 2,
        price: '899.00',
        total: '1798.00',
        amount_uc: 660,
        gold: null,
        codes: [
          { code: 'UC-AAAA-BBBB', amount_uc: 660 },
          { code: 'UC-CCCC-DDDD', amount_uc: 660 },
        ],
      },
    ],
    total: '1798.00',
    total_without_promocode: '1798.00',
    total_with_promocode: '1618.20',
    promo_percent: 10,
    balance_used: '18.20',
    total_to_pay: '1600.00',
    is_payment_active: false,
    reject_reason: null,
    game_avatar: null,
    game_account_id: null,
    surplus: null,
    steam_account_id: null,
    amount: null,
    commission: null,
    moogold_user_id: null,
    moogold_server: null,
    moogold_server_custom_id: null,
    player_nickname: null,
    code: null,
    ...over,
  }
}

describe('toOrder', () => {
  it('maps the recalculated order to camelCase with money in kopecks and the delivered codes', () => {
    const order = toOrder(orderWire())
    expect(order).toMatchObject({
      kind: 'PUBGOrder',
      status: 'done',
      game: { id: 1, title: 'PUBG Mobile', logo: '/images/pubg.svg' },
      gift: null,
      totalWithoutPromo: 179800,
      totalWithPromo: 161820,
      promoPercent: 10,
      balanceUsed: 1820,
      totalToPay: 160000,
      isPaymentActive: false,
      rejectReason: null,
      giftCode: null,
      steam: null,
      account: { email: 'buyer@example.com', gameAccountId: null, steamAccountId: null, supplyUserId: null },
    })
    expect(order.lines).toEqual([
      {
        id: 11,
        productId: 3,
        title: '660 UC',
        picture: '/images/uc.svg',
        quantity: 2,
        price: 89900,
        total: 179800,
        amountUc: 660,
        gold: null,
        codes: [
          { code: 'UC-AAAA-BBBB', amountUc: 660 },
          { code: 'UC-CCCC-DDDD', amountUc: 660 },
        ],
      },
    ])
  })

  it('keeps each kind’s account data, the Steam amounts and a gift’s code', () => {
    const steam = toOrder(
      orderWire({
        resourcetype: 'SteamOrder',
        steam_account_id: 'gaben',
        amount: '1000.00',
        commission: '80.00',
        products: [],
      }),
    )
    expect(steam.steam).toEqual({ amount: 100000, commission: 8000 })
    expect(steam.account.steamAccountId).toBe('gaben')
    const supply = toOrder(
      orderWire({ resourcetype: 'MooGoldOrder', moogold_user_id: '123456', moogold_server: 7, products: [] }),
    )
    expect(supply.account).toMatchObject({ supplyUserId: '123456', supplyServer: '7' })
    expect(
      toOrder(orderWire({ moogold_server: 7, moogold_server_custom_id: 'Asia-2' })).account.supplyServer,
    ).toBe('Asia-2')
    const standoff = toOrder(
      orderWire({ resourcetype: 'StandoffOrder', game_account_id: '55501', game_avatar: '/media/a.png' }),
    )
    expect(standoff.account).toMatchObject({ gameAccountId: '55501', gameAvatar: '/media/a.png' })
    const gift = toOrder(
      orderWire({
        resourcetype: 'RokkyOrder',
        game: null,
        gift: { id: 10, title: 'Roblox — 800 Robux', logo: '/images/gifts/roblox.svg' },
        products: [],
        code: 'RBX-1234-5678',
      }),
    )
    expect(gift).toMatchObject({
      kind: 'RokkyOrder',
      gift: { id: 10 },
      game: null,
      giftCode: 'RBX-1234-5678',
    })
  })

  it('maps the refund extension of a failed paid order (absent: null)', () => {
    expect(toOrder(orderWire()).refund).toBeNull()
    const failed = toOrder(
      orderWire({
        status: 'failed',
        refund: {
          status: 'pending',
          method: 'provider',
          amount: '99.00',
          to_balance: '10.50',
          reason: 'Нет кодов',
        },
      }),
    )
    expect(failed.refund).toEqual({
      status: 'pending',
      method: 'provider',
      amount: 9900,
      toBalance: 1050,
      reason: 'Нет кодов',
    })
  })

  it('raises on an unknown resourcetype or status, and on a malformed amount', () => {
    expect(() => toOrder(orderWire({ resourcetype: 'XboxOrder' as never }))).toThrow(UnknownKindError)
    expect(() => toOrder(orderWire({ status: 'lost' as never }))).toThrow(/Unknown order status/)
    expect(() => toOrder(orderWire({ total_to_pay: '12.345' }))).toThrow(/Not a money amount/)
    expect(() => toOrder(orderWire({ total_to_pay: '-1.00' }))).toThrow(/Not a money amount/)
  })
})

const countryWire = (): ActiveCountryWire => ({
  id: 2,
  name: 'Казахстан',
  flag: '/images/flags/kz.svg',
  currency: 'KZT',
  rate: '5.600000',
  method_groups: [
    {
      name: 'QR',
      short_name: 'QR',
      order: 2,
      methods: [
        {
          name: 'qr-kz',
          title: 'QR',
          uri: '/api/payments/qr-kz/',
          fee: '2.50',
          icon: '/i.svg',
          is_active: true,
          min_amount: '50.00',
          fix_fee: '0.00',
          is_secondary: false,
          currencies: ['KZT'],
          required_fields: ['email', 'phone'],
          can_retrieve_payment_data: true,
        },
      ],
    },
    {
      name: 'Cards',
      short_name: 'Cards',
      order: 1,
      methods: [
        {
          name: 'card-kz',
          title: 'Card',
          uri: '/api/payments/card-kz/',
          fee: '3.50',
          icon: '/c.svg',
          is_active: false,
          min_amount: '10000.00',
          fix_fee: '100.00',
          is_secondary: true,
          currencies: [],
          required_fields: [],
          can_retrieve_payment_data: false,
        },
        {
          name: 'card-rub',
          title: 'Card in roubles',
          uri: '/api/payments/card-rub/',
          fee: '0.00',
          icon: '/c.svg',
          is_active: true,
          min_amount: '0.00',
          fix_fee: '30.00',
          is_secondary: false,
          currencies: ['RUB'],
          required_fields: [],
          can_retrieve_payment_data: false,
        },
      ],
    },
  ],
})

describe('toActiveCountry', () => {
  const country = toActiveCountry(countryWire())

  it('orders the groups by `order` and parses fees, limits and the rate exactly', () => {
    expect(country).toMatchObject({ id: 2, name: 'Казахстан', currency: 'KZT', rateMicro: 5_600_000 })
    expect(country.groups.map((g) => g.name)).toEqual(['Cards', 'QR'])
    expect(findMethod(country, 'qr-kz')).toMatchObject({
      feeBp: 250,
      fixFee: 0,
      minAmount: 5000,
      currency: 'KZT',
      needsEmail: true,
      needsPhone: true,
      canRetrievePaymentData: true,
    })
    expect(findMethod(country, 'card-kz')).toMatchObject({
      feeBp: 350,
      fixFee: 10000,
      isActive: false,
      isSecondary: true,
      currency: 'KZT', // no currencies listed: the country's
      needsEmail: false,
      needsPhone: false,
    })
    expect(findMethod(country, 'card-rub')?.currency).toBe('RUB')
    expect(findMethod(country, 'nope')).toBeNull()
  })

  it('reads decimals without floats and refuses malformed ones', () => {
    expect(scaled('0.035000', 6)).toBe(35_000)
    expect(scaled('12', 2)).toBe(1200)
    expect(() => scaled('1.1234567', 6)).toThrow()
    expect(() => scaled('abc', 2)).toThrow()
  })

  it('quotes each method as the API will charge it (same arithmetic as the API)', () => {
    const qr = findMethod(country, 'qr-kz')!
    // 899.00 ₽ × 5.6 = 5034.40 KZT, + 2.5 % = 125.86 (half up)
    expect(quoteMethod(qr, 89900, country)).toEqual({
      converted: 503440,
      fee: 12586,
      amount: 516026,
      availability: 'ok',
    })
    // roubles are not converted
    const rub = findMethod(country, 'card-rub')!
    expect(quoteMethod(rub, 89900, country)).toMatchObject({ converted: 89900, amount: 92900 })
    // an inactive method stays inactive whatever the amount; a small order is below the minimum
    expect(quoteMethod(findMethod(country, 'card-kz')!, 10_000_000, country)?.availability).toBe('inactive')
    expect(quoteMethod(qr, 800, country)?.availability).toBe('below_min') // 8.00 ₽ = 44.80 KZT < 50.00
    expect(availability(qr, null)).toBe('ok')
    // a currency with no known rate is not quoted
    expect(quoteMethod({ ...qr, currency: 'USD' }, 89900, country)).toBeNull()
  })

  it('matches the API’s paymentAmount for many totals, rates and fees', () => {
    const rates = [1_000_000, 5_600_000, 35_000, 92_123_456]
    const fees = [0, 1, 150, 250, 333, 450, 700, 1000]
    for (const rateMicro of rates)
      for (const feeBp of fees)
        for (const total of [1, 99, 100, 8900, 89900, 1234567, 999_999_999]) {
          const fixFee = (total + feeBp) % 7 === 0 ? 5000 : 0
          const c = toActiveCountry({
            ...countryWire(),
            rate: formatRate(rateMicro),
            method_groups: [
              {
                name: 'g',
                short_name: 'g',
                order: 1,
                methods: [
                  {
                    ...countryWire().method_groups[0]!.methods[0]!,
                    fee: formatPercentBp(feeBp),
                    fix_fee: `${fixFee / 100}.00`,
                  },
                ],
              },
            ],
          })
          const q = quoteMethod(c.groups[0]!.methods[0]!, total, c)
          const api = paymentAmount(total, rateMicro, { fee: feeBp, fixFee })
          expect(q, `${total} @ ${rateMicro} fee ${feeBp}`).toMatchObject({
            converted: api.converted,
            fee: api.fee,
            amount: api.amount,
          })
        }
    expect(convertByRate(999_999_999, 92_123_456)).toBe(92_123_455_908) // the product is beyond 2^53
  })
})

describe('toScenario', () => {
  it('maps each of the eight scenario types', () => {
    expect(toScenario({ type: 'external', help_text: 'Оплатите в банке' })).toEqual({
      type: 'external',
      helpText: 'Оплатите в банке',
    })
    expect(
      toScenario({ type: 'form', method: 'POST', action: 'https://pay.example/', fields: { a: '1', b: 2 } }),
    ).toEqual({
      type: 'form',
      method: 'POST',
      action: 'https://pay.example/',
      fields: [
        ['a', '1'],
        ['b', '2'],
      ],
    })
    expect(toScenario({ type: 'form', method: 'GET', action: '/x', fields: {} })).toMatchObject({
      method: 'GET',
      fields: [],
    })
    expect(toScenario({ type: 'invoice_qr', qr_str: 'ST00012|Sum=1' })).toEqual({
      type: 'invoice_qr',
      qrStr: 'ST00012|Sum=1',
      expiresAt: null,
    })
    // our extension: when the QR stops being offered
    expect(
      toScenario({
        type: 'invoice_qr',
        qr_str: 'https://qr.nspk.ru/A',
        expires_at: '2026-11-27T12:00:00.000Z',
      }),
    ).toMatchObject({ expiresAt: '2026-11-27T12:00:00.000Z' })
    expect(toScenario({ type: 'p2p', card_number: '2200 0000 0000 0004', card_name: 'ИВАН' })).toEqual({
      type: 'p2p',
      cardNumber: '2200 0000 0000 0004',
      cardName: 'ИВАН',
    })
    for (const type of ['p2p_redirect', 'qr', 'redirect'] as const)
      expect(toScenario({ type, url: 'https://pay.example/1' })).toEqual({
        type,
        url: 'https://pay.example/1',
      })
    expect(toScenario({ type: 'wait_order_state', order_id: 'o-1' })).toEqual({
      type: 'wait_order_state',
      orderId: 'o-1',
    })
  })

  it('raises on an unknown type (§8) and on a missing field', () => {
    expect(() => toScenario({ type: 'crypto_magic', url: 'x' })).toThrow(UnknownKindError)
    expect(() => toScenario({ type: undefined })).toThrow(UnknownKindError)
    expect(() => toScenario({ type: 'redirect' })).toThrow(/url is not a string/)
    expect(() => toScenario({ type: 'p2p', card_number: '1' })).toThrow(/card_name/)
  })
})

describe('toPayment and toStatusResult', () => {
  const base = { payment_id: 'p-1', amount: '925.97', currency: 'RUB', payment_status: 'pending' as const }

  it('keeps the amount in minor units and the url that opens in a new window', () => {
    const p = toPayment({ ...base, type: 'qr', url: 'https://pay.example/q' } as PaymentDataWire)
    expect(p).toEqual({
      id: 'p-1',
      amount: 92597,
      currency: 'RUB',
      status: 'pending',
      url: 'https://pay.example/q',
      scenario: { type: 'qr', url: 'https://pay.example/q' },
      methodName: null,
    })
    // no url of its own: the sandbox checkout page
    const external = toPayment({
      ...base,
      type: 'external',
      help_text: 'h',
      url: null,
      sandbox_checkout_url: 'http://localhost/api/payments/sandbox/checkout/p-1/',
    } as PaymentDataWire)
    expect(external.url).toBe('http://localhost/api/payments/sandbox/checkout/p-1/')
    expect(
      toPayment({ ...base, type: 'p2p', card_number: '1', card_name: 'n', url: null } as PaymentDataWire).url,
    ).toBeNull()
    expect(() => toPayment({ ...base, type: 'bank_magic', url: null } as unknown as PaymentDataWire)).toThrow(
      UnknownKindError,
    )
  })

  it('maps the order status result', () => {
    expect(
      toStatusResult({
        id: 'o',
        status: 'waiting_for_payment',
        payment_id: 'p-1',
        payment_status: 'failed',
        payment_message: 'Оплата не прошла',
        is_payment_active: true,
        reject_reason: null,
      }),
    ).toEqual({
      status: 'waiting_for_payment',
      paymentId: 'p-1',
      paymentStatus: 'failed',
      paymentMessage: 'Оплата не прошла',
      returnedPayments: [],
      // a client of the spec's fields only: no charged amount to show
      charged: null,
    })
  })

  it('maps the charged amount with the fee (our optional extension) to kopecks', () => {
    const s = toStatusResult({
      id: 'o',
      status: 'waiting_for_payment',
      payment_id: 'p-1',
      payment_status: 'pending',
      payment_message: null,
      is_payment_active: true,
      reject_reason: null,
      charged: { amount: '103.00', fee: '3.00', paid: false },
    })
    expect(s.charged).toEqual({ amount: 10_300, fee: 300, paid: false })
  })

  it('maps returned payments (our optional extension) to kopecks', () => {
    const s = toStatusResult({
      id: 'o',
      status: 'waiting_for_payment',
      payment_id: 'p-1',
      payment_status: 'failed',
      payment_message: null,
      is_payment_active: true,
      reject_reason: null,
      returned_payments: [{ amount: '1234.50', currency: 'RUB', status: 'pending', method: 'provider' }],
    })
    expect(s.returnedPayments).toEqual([
      { amount: 123450, currency: 'RUB', status: 'pending', method: 'provider' },
    ])
  })
})
