import { createHash, createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { getpayNoticeSign, verifyGetpayNotice } from '#api/providers/getpay'
import {
  signPayselectionRequest,
  stateFromTransactions,
  verifyPayselectionWebhook,
} from '#api/providers/payselection'
import { safeEqual } from '#api/providers/signing'
import { signMoogold } from '#api/services/fulfilment/moogold'

describe('Payselection signing', () => {
  it('signs METHOD\\npath\\nsite\\nrequest-id\\nbody with HMAC-SHA256 hex', () => {
    const sig = signPayselectionRequest('key', {
      method: 'post',
      path: '/payments/requests/single',
      siteId: '123',
      requestId: 'r-1',
      body: '{"a":1}',
    })
    const expected = createHmac('sha256', 'key')
      .update('POST\n/payments/requests/single\n123\nr-1\n{"a":1}')
      .digest('hex')
    expect(sig).toBe(expected)
  })

  it('verifies a webhook only with the exact raw body and key', () => {
    const body = '{"Event":"Payment","Amount":"10.00"}'
    const sig = createHmac('sha256', 'key').update(body).digest('hex')
    expect(verifyPayselectionWebhook('key', body, sig)).toBe(true)
    expect(verifyPayselectionWebhook('key', body, sig.toUpperCase())).toBe(true)
    expect(verifyPayselectionWebhook('key', `${body} `, sig)).toBe(false)
    expect(verifyPayselectionWebhook('other', body, sig)).toBe(false)
    expect(verifyPayselectionWebhook('key', body, undefined)).toBe(false)
    expect(verifyPayselectionWebhook('key', body, '')).toBe(false)
  })

  it('maps gateway transactions to a state', () => {
    expect(stateFromTransactions([])).toEqual({ state: 'pending' })
    expect(stateFromTransactions([{ TransactionState: 'wait_for_3ds' }])).toEqual({ state: 'pending' })
    expect(stateFromTransactions([{ TransactionId: 'a', TransactionState: 'declined' }])).toMatchObject({
      state: 'failed',
      eventKey: 'a:declined',
    })
    expect(
      stateFromTransactions([
        { TransactionId: 'a', TransactionState: 'declined' },
        { TransactionId: 'b', TransactionState: 'success', Amount: '12.30', Currency: 'RUB' },
      ]),
    ).toEqual({ state: 'succeeded', amount: 1230, currency: 'RUB', eventKey: 'b:success' })
    expect(() => stateFromTransactions([{ TransactionState: 'success', Amount: '1.234' }])).toThrow()
  })
})

describe('GetPay SIGN', () => {
  const n = {
    WALLET_ID: 'W',
    WALLET_TYPE: 'card',
    SUM: '10.00',
    ORDER_ID: 'o',
    P_TYPE: 'visa',
    P_WALLET: '4111',
    PAYMENT_ID: 'p',
  }
  it('is sha256 of the fields and the secret joined by ":"', () => {
    expect(getpayNoticeSign('s', n)).toBe(
      createHash('sha256').update('W:card:10.00:o:visa:4111:p:s').digest('hex'),
    )
  })
  it('any changed field breaks it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(n) as Array<keyof typeof n>)),
        fc.string({ minLength: 1 }),
        (k, v) => {
          fc.pre(v !== n[k])
          const SIGN = getpayNoticeSign('s', n)
          return verifyGetpayNotice('s', { ...n, SIGN }) && !verifyGetpayNotice('s', { ...n, [k]: v, SIGN })
        },
      ),
    )
  })
})

describe('MooGold auth', () => {
  it('is HMAC-SHA256 of payload + timestamp + path', () => {
    expect(signMoogold('k', '{"x":1}', '1700000000', 'order/create_order')).toBe(
      createHmac('sha256', 'k').update('{"x":1}1700000000order/create_order').digest('hex'),
    )
  })
})

describe('safeEqual', () => {
  it('compares without throwing on different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true)
    expect(safeEqual('abc', 'abcd')).toBe(false)
    expect(safeEqual('abc', null)).toBe(false)
  })
})
