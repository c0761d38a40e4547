// The one place where the API's snake_case order and payment shapes become the storefront's
// camelCase view models (§3): the recalculated order, countries with their payment methods, and
// payment scenarios. Money becomes integer minor units here; an unknown `resourcetype` or scenario
// `type` raises (§8) instead of rendering something half-understood.
import { assertOrderKind, assertScenarioType, type OrderKind } from '#app/lib/api/resourcetypes'
import { applyBasisPoints, type Kopecks, parseMoney } from '#app/lib/money'
import type { components } from '#openapi/schema'

export type { OrderKind }

type Schemas = components['schemas']

import { ORDER_STATUSES, type OrderStatus } from '#app/lib/api/resourcetypes'

export { ORDER_STATUSES, type OrderStatus }

/** The recalculated order; PUBG lines carry their delivered codes, a gift order its `code`. */
export type OrderWire = Schemas['RecalculatedOrder']
export type CountryWire = Schemas['Country']
export type ActiveCountryWire = Schemas['ActiveCountry']
export type MethodWire = Schemas['PaymentMethod']
export type PaymentDataWire = Schemas['PaymentData']
export type OrderStatusWire = Schemas['OrderStatus']

export interface DeliveredCode {
  code: string
  amountUc: number
}

export interface OrderLine {
  id: number
  productId: number
  title: string
  picture: string
  quantity: number
  price: Kopecks
  total: Kopecks
  amountUc: number | null
  gold: number | null
  codes: DeliveredCode[]
}

export interface OrderAccount {
  gameAccountId: string | null
  gameAvatar: string | null
  steamAccountId: string | null
  supplyUserId: string | null
  supplyServer: string | null
  /** The chosen server's id, when the game lists its servers. */
  supplyServerId: number | null
  /** The nickname the player check answered for the id (our extension; null: not checked). */
  playerNickname: string | null
  email: string | null
}

export interface Order {
  id: string
  /** The short number people read out (our extension; null from a backend without it). */
  number: number | null
  kind: OrderKind
  status: OrderStatus
  created: string
  game: { id: number; title: string; logo: string } | null
  gift: { id: number; title: string; logo: string } | null
  lines: OrderLine[]
  account: OrderAccount
  /** Steam top-ups: the amount and the commission added to it. */
  steam: { amount: Kopecks; commission: Kopecks } | null
  totalWithoutPromo: Kopecks
  totalWithPromo: Kopecks
  promoPercent: number | null
  balanceUsed: Kopecks
  totalToPay: Kopecks
  isPaymentActive: boolean
  rejectReason: string | null
  /** A gift order's code, once delivered. */
  giftCode: string | null
  /** The refund of a paid order that was not delivered (our extension of the contract). */
  refund: OrderRefund | null
  /** Paid and waiting for a person: the minutes it usually takes (our extension). */
  awaitingMinutes: number | null
  /** Paid but held for review by the fraud rules (issue 34): no code until staff approve it. */
  onReview: boolean
  /** Standoff: the gold price the server fixed for the skin listing, and whether the buyer listed it. */
  listing: { price: string; listed: boolean } | null
}

export interface OrderRefund {
  status: 'pending' | 'done' | 'manual'
  method: 'provider' | 'balance' | 'manual'
  amount: Kopecks
  toBalance: Kopecks
  reason: string
}

/** "199.00" → kopecks; a malformed amount is a contract break, not a zero. */
export function money(text: string): Kopecks {
  const value = parseMoney(text)
  if (value === null) throw new TypeError(`Not a money amount: ${JSON.stringify(text)}`)
  return value
}

const moneyOrNull = (text: string | null | undefined): Kopecks | null => (text == null ? null : money(text))

export function assertOrderStatus(value: unknown): OrderStatus {
  if (typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value))
    return value as OrderStatus
  throw new TypeError(`Unknown order status: ${JSON.stringify(value)}`)
}

function supplyServer(o: OrderWire): string | null {
  if (o.moogold_server_custom_id) return o.moogold_server_custom_id
  return o.moogold_server === null || o.moogold_server === undefined ? null : String(o.moogold_server)
}

export function toOrder(o: OrderWire): Order {
  const kind = assertOrderKind(o.resourcetype)
  const amount = moneyOrNull(o.amount)
  return {
    id: o.id,
    number: o.number ?? null,
    kind,
    status: assertOrderStatus(o.status),
    created: o.created,
    game: o.game ? { id: o.game.id, title: o.game.title, logo: o.game.logo } : null,
    gift: o.gift ? { id: o.gift.id, title: o.gift.title, logo: o.gift.logo } : null,
    lines: o.products.map((l) => ({
      id: l.id,
      productId: l.product,
      title: l.title,
      picture: l.picture,
      quantity: l.quantity,
      price: money(l.price),
      total: money(l.total),
      amountUc: l.amount_uc,
      gold: l.gold,
      codes: l.codes.map((c) => ({ code: c.code, amountUc: c.amount_uc })),
    })),
    account: {
      gameAccountId: o.game_account_id || null,
      gameAvatar: o.game_avatar || null,
      steamAccountId: o.steam_account_id || null,
      supplyUserId: o.moogold_user_id || null,
      supplyServer: supplyServer(o),
      supplyServerId: typeof o.moogold_server === 'number' ? o.moogold_server : null,
      playerNickname: o.player_nickname || null,
      email: o.email || null,
    },
    steam:
      kind === 'SteamOrder' && amount !== null
        ? { amount, commission: moneyOrNull(o.commission) ?? 0 }
        : null,
    totalWithoutPromo: money(o.total_without_promocode),
    totalWithPromo: money(o.total_with_promocode),
    promoPercent: o.promo_percent ?? null,
    balanceUsed: money(o.balance_used),
    totalToPay: money(o.total_to_pay),
    isPaymentActive: o.is_payment_active,
    rejectReason: o.reject_reason || null,
    giftCode: o.code || null,
    awaitingMinutes: o.awaiting_delivery_minutes ?? null,
    onReview: o.on_review === true,
    listing: o.listing_price ? { price: o.listing_price, listed: o.skin_listed === true } : null,
    refund: o.refund
      ? {
          status: o.refund.status,
          method: o.refund.method,
          amount: money(o.refund.amount),
          toBalance: money(o.refund.to_balance),
          reason: o.refund.reason,
        }
      : null,
  }
}

// ---------------------------------------------------------------------------------------------
// Countries and payment methods

export interface Country {
  id: number
  name: string
  flag: string
}

export interface PaymentMethod {
  name: string
  title: string
  icon: string
  /** Percent fee in basis points ("3.50" → 350). */
  feeBp: number
  /** Fixed fee and minimum, in minor units of the payment currency. */
  fixFee: number
  minAmount: number
  isActive: boolean
  isSecondary: boolean
  /** The currency this method is paid in for the country. */
  currency: string
  needsEmail: boolean
  needsPhone: boolean
  canRetrievePaymentData: boolean
}

export interface MethodGroup {
  name: string
  shortName: string
  order: number
  methods: PaymentMethod[]
}

export interface ActiveCountry extends Country {
  currency: string
  /** Units of `currency` per rouble, times 1 000 000 ("5.600000" → 5 600 000). */
  rateMicro: number
  groups: MethodGroup[]
}

/** A decimal string with at most `scale` decimals → integer × 10^scale (exact). */
export function scaled(text: string, scale: number): number {
  const m = /^(\d{1,12})(?:\.(\d+))?$/.exec(text.trim())
  if (!m || (m[2] ?? '').length > scale)
    throw new TypeError(`Not a decimal with ${scale} places: ${JSON.stringify(text)}`)
  return Number(m[1]) * 10 ** scale + Number((m[2] ?? '').padEnd(scale, '0'))
}

export const toCountry = (c: CountryWire): Country => ({ id: c.id, name: c.name, flag: c.flag })

function toMethod(m: MethodWire, countryCurrency: string): PaymentMethod {
  return {
    name: m.name,
    title: m.title,
    icon: m.icon,
    feeBp: scaled(m.fee, 2),
    fixFee: money(m.fix_fee),
    minAmount: money(m.min_amount),
    isActive: m.is_active,
    isSecondary: m.is_secondary,
    currency:
      m.currencies.length === 0 || m.currencies.includes(countryCurrency)
        ? countryCurrency
        : m.currencies[0]!,
    needsEmail: m.required_fields.includes('email'),
    needsPhone: m.required_fields.includes('phone'),
    canRetrievePaymentData: m.can_retrieve_payment_data,
  }
}

export function toActiveCountry(c: ActiveCountryWire): ActiveCountry {
  return {
    ...toCountry(c),
    currency: c.currency,
    rateMicro: scaled(c.rate, 6),
    groups: [...c.method_groups]
      .sort((a, b) => a.order - b.order)
      .map((g) => ({
        name: g.name,
        shortName: g.short_name,
        order: g.order,
        methods: g.methods.map((m) => toMethod(m, c.currency)),
      })),
  }
}

export function findMethod(country: ActiveCountry, name: string): PaymentMethod | null {
  for (const g of country.groups) for (const m of g.methods) if (m.name === name) return m
  return null
}

/** Roubles (minor units) → minor units of a currency at `rateMicro`, half up, exact. */
export function convertByRate(kopecks: Kopecks, rateMicro: number): number {
  return Number((BigInt(kopecks) * BigInt(rateMicro) + 500_000n) / 1_000_000n)
}

export type MethodAvailability = 'ok' | 'inactive' | 'below_min'

export interface MethodQuote {
  /** The order's total to pay in the method's currency. */
  converted: number
  fee: number
  /** What the shopper pays through this method: converted + percent fee + fixed fee. */
  amount: number
  availability: MethodAvailability
}

/**
 * What paying `totalToPay` through a method costs, as the API computes it (the total converted by
 * the rate, its percent fee half up, the fixed fee), and whether the method can take it. Shown
 * before paying; the API recomputes it and is the authority. Null when the method's currency is
 * neither the country's nor roubles (no rate to quote with).
 */
export function quoteMethod(
  method: PaymentMethod,
  totalToPay: Kopecks,
  country: ActiveCountry,
): MethodQuote | null {
  const rateMicro =
    method.currency === country.currency ? country.rateMicro : method.currency === 'RUB' ? 1_000_000 : null
  if (rateMicro === null) return null
  const converted = convertByRate(totalToPay, rateMicro)
  const fee = applyBasisPoints(converted, method.feeBp)
  return {
    converted,
    fee,
    amount: converted + fee + method.fixFee,
    availability: availability(method, converted),
  }
}

export function availability(method: PaymentMethod, converted: number | null): MethodAvailability {
  if (!method.isActive) return 'inactive'
  return converted !== null && converted < method.minAmount ? 'below_min' : 'ok'
}

// ---------------------------------------------------------------------------------------------
// Payment scenarios (§3, §4)

export type Scenario =
  | { type: 'external'; helpText: string }
  | { type: 'form'; method: 'POST' | 'GET'; action: string; fields: Array<[string, string]> }
  | { type: 'invoice_qr'; qrStr: string; expiresAt: string | null }
  | { type: 'p2p'; cardNumber: string; cardName: string }
  | { type: 'p2p_redirect'; url: string }
  | { type: 'qr'; url: string }
  | { type: 'redirect'; url: string }
  | { type: 'wait_order_state'; orderId: string }

export type PaymentStatus = 'pending' | 'succeeded' | 'failed'

export interface Payment {
  id: string
  amount: number
  currency: string
  status: PaymentStatus
  /** Where the shopper pays, when there is such a page (opens in a new window, §4). */
  url: string | null
  scenario: Scenario
  /** The method it was started with (our extension), to start it again (a new QR). */
  methodName: string | null
}

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string') throw new TypeError(`Payment scenario: ${what} is not a string`)
  return v
}

/** A scenario of any source (the start answer, payment data); an unknown type raises. */
export function toScenario(s: { type: unknown } & Record<string, unknown>): Scenario {
  const type = assertScenarioType(s.type)
  switch (type) {
    case 'external':
      return { type, helpText: str(s.help_text, 'help_text') }
    case 'form': {
      const fields = (s.fields ?? {}) as Record<string, unknown>
      return {
        type,
        method: s.method === 'GET' ? 'GET' : 'POST',
        action: str(s.action, 'action'),
        fields: Object.entries(fields).map(([k, v]) => [k, String(v)]),
      }
    }
    case 'invoice_qr':
      return {
        type,
        qrStr: str(s.qr_str, 'qr_str'),
        expiresAt: typeof s.expires_at === 'string' ? s.expires_at : null,
      }
    case 'p2p':
      return { type, cardNumber: str(s.card_number, 'card_number'), cardName: str(s.card_name, 'card_name') }
    case 'p2p_redirect':
    case 'qr':
    case 'redirect':
      return { type, url: str(s.url, 'url') }
    case 'wait_order_state':
      return { type, orderId: str(s.order_id, 'order_id') }
  }
}

/** The url a scenario sends the shopper to, if any (redirects, qr links, form actions aside). */
export function scenarioUrl(s: Scenario): string | null {
  return s.type === 'redirect' || s.type === 'p2p_redirect' || s.type === 'qr' ? s.url : null
}

export function toPayment(p: PaymentDataWire): Payment {
  const wire = p as unknown as Record<string, unknown> & { type: unknown }
  const scenario = toScenario(wire)
  const sandbox = typeof wire.sandbox_checkout_url === 'string' ? wire.sandbox_checkout_url : null
  return {
    id: p.payment_id,
    amount: money(p.amount),
    currency: p.currency,
    status: p.payment_status,
    url: p.url ?? scenarioUrl(scenario) ?? sandbox,
    scenario,
    methodName: typeof wire.method_name === 'string' ? wire.method_name : null,
  }
}

/** A payment taken but not accepted by the shop, being given back (our extension of the contract). */
export interface ReturnedPayment {
  /** Minor units of `currency`. */
  amount: Kopecks
  currency: string
  status: OrderRefund['status']
  method: OrderRefund['method']
}

export interface StatusResult {
  status: OrderStatus
  paymentId: string | null
  paymentStatus: PaymentStatus | null
  /** Russian text about the latest payment when it was declined. */
  paymentMessage: string | null
  returnedPayments: ReturnedPayment[]
  /** Roubles charged (or to be charged by the payment under way), the method's fee included. */
  charged: { amount: Kopecks; fee: Kopecks; paid: boolean } | null
}

export function toStatusResult(s: OrderStatusWire): StatusResult {
  return {
    status: assertOrderStatus(s.status),
    paymentId: s.payment_id,
    paymentStatus: s.payment_status,
    paymentMessage: s.payment_message ?? null,
    returnedPayments: (s.returned_payments ?? []).map((r) => ({
      amount: money(r.amount),
      currency: r.currency,
      status: r.status,
      method: r.method,
    })),
    charged: s.charged
      ? { amount: money(s.charged.amount), fee: money(s.charged.fee), paid: s.charged.paid }
      : null,
  }
}

/** Statuses in which the order is on its way and the page should keep refreshing. */
export const IN_PROGRESS_STATUSES: readonly OrderStatus[] = ['paid', 'sending', 'sent']
