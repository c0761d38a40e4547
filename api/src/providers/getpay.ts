import type { ApiDeps } from '../context'
import { toMoney } from '../lib/money'
import { safeEqual, sha256Hex } from './signing'
import {
  type CreatePaymentInput,
  type CreatePaymentResult,
  type PaymentProvider,
  ProviderError,
} from './types'

/** The fields of a GetPay-style payment notification (spec §7), as strings. */
export interface GetpayNotice {
  WALLET_ID: string
  WALLET_TYPE: string
  SUM: string
  ORDER_ID: string
  P_TYPE: string
  P_WALLET: string
  PAYMENT_ID: string
  SIGN: string
}

export const GETPAY_SIGNED_FIELDS = [
  'WALLET_ID',
  'WALLET_TYPE',
  'SUM',
  'ORDER_ID',
  'P_TYPE',
  'P_WALLET',
  'PAYMENT_ID',
] as const

/**
 * SIGN of a notification: lowercase hex SHA-256 of
 * "{WALLET_ID}:{WALLET_TYPE}:{SUM}:{ORDER_ID}:{P_TYPE}:{P_WALLET}:{PAYMENT_ID}:{secret}".
 */
export function getpayNoticeSign(secret: string, n: Omit<GetpayNotice, 'SIGN'>): string {
  return sha256Hex([...GETPAY_SIGNED_FIELDS.map((f) => n[f]), secret].join(':'))
}

export function verifyGetpayNotice(secret: string, n: GetpayNotice): boolean {
  return safeEqual(getpayNoticeSign(secret, n), n.SIGN)
}

/** SIGN of the payment link: SHA-256 hex of "{WALLET_ID}:{SUM}:{ORDER_ID}:{CURRENCY}:{secret}". */
export function getpayLinkSign(
  secret: string,
  walletId: string,
  sum: string,
  orderId: string,
  currency: string,
) {
  return sha256Hex([walletId, sum, orderId, currency, secret].join(':'))
}

/** Sends the shopper to the GetPay payment page; the result arrives at /api/payments/getpay/notify/. */
export const getpayProvider: PaymentProvider = {
  name: 'getpay',
  isAvailable: (deps) => Boolean(deps.config.getpay?.payUrl),
  async createPayment(input: CreatePaymentInput, deps: ApiDeps): Promise<CreatePaymentResult> {
    const cfg = deps.config.getpay
    if (!cfg?.payUrl) throw new ProviderError('getpay is not configured')
    const sum = toMoney(input.amount)
    const url = new URL(cfg.payUrl)
    url.searchParams.set('WALLET_ID', cfg.walletId)
    url.searchParams.set('SUM', sum)
    url.searchParams.set('ORDER_ID', input.order.id)
    url.searchParams.set('CURRENCY', input.currency)
    url.searchParams.set(
      'SIGN',
      getpayLinkSign(cfg.secret, cfg.walletId, sum, input.order.id, input.currency),
    )
    return { scenario: { type: 'redirect', url: url.toString() } }
  },
}
