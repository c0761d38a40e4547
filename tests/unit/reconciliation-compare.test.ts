// «Сверка»'s comparison (issue 43): each kind of difference, the period's edges, payments and
// refunds still on their way, and the keys that make a re-run find the same difference.
import { describe, expect, it } from 'vitest'
import {
  type BooksInput,
  compareBooks,
  type ProviderPayment,
  type ProviderRefund,
  SETTLE_MS,
  type ShopPayment,
  type ShopRefund,
} from '#api/services/reconciliation/compare'

const T0 = new Date('2026-12-01T10:00:00Z')
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000)
const FROM = at(0)
const TO = at(60)

const pp = (o: Partial<ProviderPayment> = {}): ProviderPayment => ({
  id: 'yk-1',
  status: 'succeeded',
  amount: 110160,
  currency: 'RUB',
  createdAt: at(10),
  ...o,
})
const sp = (o: Partial<ShopPayment> = {}): ShopPayment => ({
  id: 'p-1',
  orderId: 'o-1',
  externalId: 'yk-1',
  status: 'succeeded',
  amount: 110160,
  currency: 'RUB',
  created: at(10),
  ...o,
})
const pr = (o: Partial<ProviderRefund> = {}): ProviderRefund => ({
  id: 'r-1',
  paymentId: 'yk-1',
  status: 'succeeded',
  amount: 110160,
  currency: 'RUB',
  createdAt: at(20),
  ...o,
})
const sr = (o: Partial<ShopRefund> = {}): ShopRefund => ({
  id: 7,
  orderId: 'o-1',
  paymentId: 'p-1',
  externalId: 'r-1',
  status: 'done',
  method: 'provider',
  amount: 110160,
  currency: 'RUB',
  created: at(20),
  ...o,
})

const books = (o: Partial<BooksInput> = {}): BooksInput => ({
  provider: 'yookassa',
  from: FROM,
  to: TO,
  now: at(120),
  providerPayments: [],
  providerRefunds: [],
  shopPayments: [],
  shopRefunds: [],
  ...o,
})

describe('payments', () => {
  it('books that agree have no difference', () => {
    expect(
      compareBooks(
        books({
          providerPayments: [pp()],
          shopPayments: [sp()],
          providerRefunds: [pr()],
          shopRefunds: [sr()],
        }),
      ),
    ).toEqual([])
  })

  it('a payment the provider took that the shop does not have: its order from the metadata', () => {
    expect(compareBooks(books({ providerPayments: [pp({ ourOrderId: 'o-9' })] }))).toEqual([
      {
        key: 'yookassa:payment:yk-1:paid_at_provider_only',
        kind: 'paid_at_provider_only',
        orderId: 'o-9',
        paymentId: null,
        refundId: null,
        externalId: 'yk-1',
        providerAmount: 110160,
        providerCurrency: 'RUB',
        shopAmount: null,
        shopCurrency: null,
        occurredAt: at(10),
      },
    ])
  })

  it('found by the metadata when the shop never learnt the provider id', () => {
    const shop = sp({ externalId: null })
    expect(
      compareBooks(books({ providerPayments: [pp({ ourPaymentId: 'p-1' })], shopPayments: [shop] })),
    ).toEqual([])
  })

  it('a payment the shop has as failed that the provider took is a difference, with both sides', () => {
    const [d] = compareBooks(
      books({ providerPayments: [pp()], shopPayments: [sp({ status: 'failed', amount: 500 })] }),
    )
    expect(d).toMatchObject({
      kind: 'paid_at_provider_only',
      orderId: 'o-1',
      paymentId: 'p-1',
      shopAmount: 500,
      shopCurrency: 'RUB',
    })
  })

  it('a refused payment (refunded) counts as money the shop took', () => {
    expect(
      compareBooks(books({ providerPayments: [pp()], shopPayments: [sp({ status: 'refused' })] })),
    ).toEqual([])
  })

  it('a payment still pending in the shop is on its way for a while, then a difference', () => {
    const young = books({
      providerPayments: [pp()],
      shopPayments: [sp({ status: 'pending' })],
      now: at(10 + 1),
    })
    expect(compareBooks(young)).toEqual([])
    const edge = { ...young, now: new Date(at(10).getTime() + SETTLE_MS - 1) }
    expect(compareBooks(edge)).toEqual([])
    const late = { ...young, now: new Date(at(10).getTime() + SETTLE_MS) }
    expect(compareBooks(late).map((d) => d.kind)).toEqual(['paid_at_provider_only'])
    // unknown to the shop: never on its way
    expect(compareBooks(books({ providerPayments: [pp()], now: at(11) })).map((d) => d.kind)).toEqual([
      'paid_at_provider_only',
    ])
  })

  it('only succeeded provider payments inside the period count', () => {
    for (const status of ['pending', 'waiting_for_capture', 'canceled'] as const)
      expect(compareBooks(books({ providerPayments: [pp({ status })] }))).toEqual([])
    expect(compareBooks(books({ providerPayments: [pp({ createdAt: at(-1) })] }))).toEqual([])
    expect(compareBooks(books({ providerPayments: [pp({ createdAt: TO })] }))).toEqual([])
    expect(compareBooks(books({ providerPayments: [pp({ createdAt: FROM })] }))).toHaveLength(1)
    expect(
      compareBooks(books({ providerPayments: [pp({ createdAt: new Date(TO.getTime() - 1) })] })),
    ).toHaveLength(1)
  })

  it('amount or currency that differ', () => {
    const [a] = compareBooks(books({ providerPayments: [pp({ amount: 100 })], shopPayments: [sp()] }))
    expect(a).toEqual({
      key: 'yookassa:payment:yk-1:amount_differs',
      kind: 'amount_differs',
      orderId: 'o-1',
      paymentId: 'p-1',
      refundId: null,
      externalId: 'yk-1',
      providerAmount: 100,
      providerCurrency: 'RUB',
      shopAmount: 110160,
      shopCurrency: 'RUB',
      occurredAt: at(10),
    })
    const [c] = compareBooks(books({ providerPayments: [pp({ currency: 'USD' })], shopPayments: [sp()] }))
    expect(c?.kind).toBe('amount_differs')
    const [n] = compareBooks(books({ providerPayments: [pp({ amount: null })], shopPayments: [sp()] }))
    expect(n?.kind).toBe('amount_differs')
  })

  it('a payment the shop has as paid that the provider has not (or not as succeeded)', () => {
    expect(compareBooks(books({ shopPayments: [sp()] }))).toEqual([
      {
        key: 'yookassa:payment:p-1:paid_in_shop_only',
        kind: 'paid_in_shop_only',
        orderId: 'o-1',
        paymentId: 'p-1',
        refundId: null,
        externalId: 'yk-1',
        providerAmount: null,
        providerCurrency: null,
        shopAmount: 110160,
        shopCurrency: 'RUB',
        occurredAt: at(10),
      },
    ])
    const [c] = compareBooks(
      books({ shopPayments: [sp()], providerPayments: [pp({ status: 'canceled', amount: 5 })] }),
    )
    expect(c).toMatchObject({ kind: 'paid_in_shop_only', providerAmount: 5, providerCurrency: 'RUB' })
    expect(compareBooks(books({ shopPayments: [sp({ externalId: null })] })).map((d) => d.kind)).toEqual([
      'paid_in_shop_only',
    ])
    expect(compareBooks(books({ shopPayments: [sp({ status: 'refused' })] })).map((d) => d.kind)).toEqual([
      'paid_in_shop_only',
    ])
  })

  it('shop payments not paid, or outside the period, are not compared', () => {
    for (const status of ['pending', 'failed'] as const)
      expect(compareBooks(books({ shopPayments: [sp({ status })] }))).toEqual([])
    expect(compareBooks(books({ shopPayments: [sp({ created: at(-1) })] }))).toEqual([])
    expect(compareBooks(books({ shopPayments: [sp({ created: TO })] }))).toEqual([])
    expect(compareBooks(books({ shopPayments: [sp({ created: FROM })] }))).toHaveLength(1)
  })
})

describe('refunds', () => {
  const paid = { providerPayments: [pp()], shopPayments: [sp()] }

  it('a refund at the provider the shop does not know: its order by the payment', () => {
    expect(compareBooks(books({ ...paid, providerRefunds: [pr()] }))).toEqual([
      {
        key: 'yookassa:refund:r-1:refund_at_provider_only',
        kind: 'refund_at_provider_only',
        orderId: 'o-1',
        paymentId: 'p-1',
        refundId: null,
        externalId: 'r-1',
        providerAmount: 110160,
        providerCurrency: 'RUB',
        shopAmount: null,
        shopCurrency: null,
        occurredAt: at(20),
      },
    ])
    const [unknown] = compareBooks(books({ providerRefunds: [pr({ paymentId: 'yk-x' })] }))
    expect(unknown).toMatchObject({ kind: 'refund_at_provider_only', orderId: null, paymentId: null })
    const [pending] = compareBooks(books({ ...paid, providerRefunds: [pr({ status: 'pending' })] }))
    expect(pending?.kind).toBe('refund_at_provider_only')
  })

  it('cancelled provider refunds and those outside the period are not compared', () => {
    expect(compareBooks(books({ ...paid, providerRefunds: [pr({ status: 'canceled' })] }))).toEqual([])
    expect(compareBooks(books({ ...paid, providerRefunds: [pr({ createdAt: TO })] }))).toEqual([])
    expect(compareBooks(books({ ...paid, providerRefunds: [pr({ createdAt: at(-1) })] }))).toEqual([])
  })

  it('a refund the shop is still asking for (no provider id yet) is on its way', () => {
    const asking = sr({ status: 'pending', externalId: null })
    expect(compareBooks(books({ ...paid, providerRefunds: [pr()], shopRefunds: [asking] }))).toEqual([])
    // not if it is a balance refund, or already has another id, or is not pending
    for (const other of [
      sr({ status: 'pending', externalId: null, method: 'balance' }),
      sr({ status: 'pending', externalId: 'r-other' }),
      sr({ status: 'manual', externalId: null }),
      sr({ status: 'pending', externalId: null, paymentId: null }),
    ])
      expect(
        compareBooks(books({ ...paid, providerRefunds: [pr()], shopRefunds: [other] })).map((d) => d.kind),
      ).toContain('refund_at_provider_only')
  })

  it('a refund amount that differs', () => {
    const [d] = compareBooks(books({ ...paid, providerRefunds: [pr({ amount: 100 })], shopRefunds: [sr()] }))
    expect(d).toEqual({
      key: 'yookassa:refund:r-1:amount_differs',
      kind: 'amount_differs',
      orderId: 'o-1',
      paymentId: 'p-1',
      refundId: 7,
      externalId: 'r-1',
      providerAmount: 100,
      providerCurrency: 'RUB',
      shopAmount: 110160,
      shopCurrency: 'RUB',
      occurredAt: at(20),
    })
  })

  it('a refund done in the shop with none at the provider', () => {
    expect(compareBooks(books({ ...paid, shopRefunds: [sr()] }))).toEqual([
      {
        key: 'yookassa:refund:7:refund_in_shop_only',
        kind: 'refund_in_shop_only',
        orderId: 'o-1',
        paymentId: 'p-1',
        refundId: 7,
        externalId: 'r-1',
        providerAmount: null,
        providerCurrency: null,
        shopAmount: 110160,
        shopCurrency: 'RUB',
        occurredAt: at(20),
      },
    ])
    const [c] = compareBooks(
      books({ ...paid, shopRefunds: [sr()], providerRefunds: [pr({ status: 'canceled', amount: 3 })] }),
    )
    expect(c).toMatchObject({ kind: 'refund_in_shop_only', providerAmount: 3, providerCurrency: 'RUB' })
    expect(
      compareBooks(books({ ...paid, shopRefunds: [sr({ externalId: null })] })).map((d) => d.kind),
    ).toEqual(['refund_in_shop_only'])
    // a refund the provider still processes is there
    expect(
      compareBooks(books({ ...paid, shopRefunds: [sr()], providerRefunds: [pr({ status: 'pending' })] })),
    ).toEqual([])
  })

  it('shop refunds not through the provider, not done, or outside the period are not compared', () => {
    for (const r of [
      sr({ method: 'balance' }),
      sr({ method: 'manual' }),
      sr({ status: 'pending' }),
      sr({ status: 'manual' }),
      sr({ created: TO }),
      sr({ created: at(-1) }),
    ])
      expect(compareBooks(books({ ...paid, shopRefunds: [r] }))).toEqual([])
  })
})
