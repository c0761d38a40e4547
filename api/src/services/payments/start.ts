import { randomUUID } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { countries, paymentMethodGroups, paymentMethods, payments } from '../../db/schema'
import { ApiError, message } from '../../lib/errors'
import { refuse, refuseField } from '../../lib/domain-error'
import { toMoney } from '../../lib/money'
import { getProvider } from '../../providers'
import type { PaymentScenario } from '../../providers/types'
import type { Actor } from '../actor'
import { fulfilOrder } from '../fulfilment'
import { loadOrderForCaller } from '../orders/access'
import { recalculateOrder } from '../orders/pricing'
import { transitionOrder, UNPAID_STATUSES } from '../orders/state-machine'
import { applyAccountPromo, dropUnusablePromo } from '../promo/orders'
import { holdEnd, holdStock } from '../stock/holds'
import { claimListingPrice } from '../delivery/listing'
import type { Tx } from '../../db/client'
import type { OrderRow } from '../orders/access'
import { paymentAmount } from './amounts'
import { queuePaymentRequery } from './requery'
import { markOrderPaid, ORDER_TOTAL_KEY, supersedePendingPayments } from './settle'
import { receiptForNewPayment } from '../receipts/outbox'
import { countryCodeOf } from '../risk/card'
import { guardBuyerStart } from '../risk/gate'

export interface StartPaymentBody {
  order_id: string
  currency: string
  email?: string | null
  phone?: string | null
}

export type StartPaymentAnswer = PaymentScenario & { payment_id: string; amount: string; currency: string }

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE_RE = /^\+?\d{10,15}$/

/** The method a name means for this visitor: the one in their active country first. */
async function findMethod(deps: ApiDeps, name: string, countryId: number | null) {
  const rows = await deps.db
    .select({ method: paymentMethods, country: countries })
    .from(paymentMethods)
    .innerJoin(paymentMethodGroups, eq(paymentMethodGroups.id, paymentMethods.groupId))
    .innerJoin(countries, eq(countries.id, paymentMethodGroups.countryId))
    // a hidden country's methods take no payments
    .where(and(eq(paymentMethods.name, name), eq(countries.hidden, false)))
    .orderBy(asc(paymentMethods.id))
  const row = rows.find((r) => r.country.id === countryId) ?? rows[0]
  if (!row) throw refuse('payment_method_not_found')
  return row
}

/** The rate of a currency: the method's country when it is that country's currency, else any country's. */
async function rateFor(deps: ApiDeps, currency: string, home: { currency: string; rateMicro: number }) {
  if (currency === home.currency) return home.rateMicro
  if (currency === 'RUB') return 1_000_000
  const [other] = await deps.db
    .select({ rateMicro: countries.rateMicro })
    .from(countries)
    .where(eq(countries.currency, currency))
    .limit(1)
  if (!other) throw refuseField('currency', 'payment_currency_not_supported', { currency })
  return other.rateMicro
}

function contactFields(
  required: readonly string[],
  body: StartPaymentBody,
  orderEmail: string | null,
): { email: string | null; phone: string | null } {
  const email = body.email?.trim() || (required.includes('email') ? orderEmail : null) || null
  const phone = body.phone?.replace(/[\s()-]/g, '') || null
  if (required.includes('email') && !email) throw refuseField('email', 'payment_email_required')
  if (email && !EMAIL_RE.test(email)) throw refuseField('email', 'payment_email_invalid')
  if (required.includes('phone') && !phone) throw refuseField('phone', 'payment_phone_required')
  if (phone && !PHONE_RE.test(phone)) throw refuseField('phone', 'payment_phone_invalid')
  return { email, phone }
}

/**
 * POST /api/payments/{name}/: checks the order and the method, stores a pending payment for the
 * exact amount, moves the order to waiting_for_payment and asks the provider for the scenario.
 * An order with nothing left to pay (balance or promo cover it) is paid at once.
 */
export async function startPayment(
  deps: ApiDeps,
  actor: Actor,
  methodName: string,
  body: StartPaymentBody,
  activeCountryId: number | null,
): Promise<StartPaymentAnswer> {
  const { method, country } = await findMethod(deps, methodName, activeCountryId)
  const checked = await loadOrderForCaller(deps.db, actor, body.order_id)
  assertPayable(checked.status)
  // block lists and the velocity limits of payment starts (issue 34)
  await guardBuyerStart(deps, actor, 'payment', checked.email)
  // §5: a Standoff order is complete only with the account's avatar
  if (checked.kind === 'StandoffOrder' && !checked.gameAvatar)
    throw refuseField('game_avatar', 'avatar_required')

  // an account-level promo code reaches the order at the latest here (it only ever lowers the total);
  // a code that is no longer usable by this buyer comes off, and the shopper sees the new total first
  const dropped = await deps.db.transaction(async (tx) => {
    await applyAccountPromo(tx, checked.id)
    return dropUnusablePromo(tx, checked.id)
  })
  if (dropped) throw refuse('promo_code_dropped', dropped)
  const totals = await recalculateOrder(deps.db, checked.id)
  const currency = body.currency.trim().toUpperCase()

  if (totals.totalToPay === 0) {
    const paymentId = randomUUID()
    await deps.db.transaction(async (tx) => {
      const order = await loadOrderForCaller(tx, actor, checked.id, { lock: true })
      assertPayable(order.status)
      await holdStock(tx, order, holdRules(deps, actor))
      await holdStandoffListing(deps, actor, tx, order)
      await supersedePendingPayments(tx, order.id)
      await tx.insert(payments).values({
        id: paymentId,
        orderId: order.id,
        methodName: method.name,
        provider: 'none',
        amount: 0,
        currency,
        status: 'succeeded',
        scenario: { type: 'wait_order_state', order_id: order.id },
      })
      await markOrderPaid(tx, order.id)
    })
    await fulfilOrder(deps, checked.id)
    return {
      type: 'wait_order_state',
      order_id: checked.id,
      payment_id: paymentId,
      amount: toMoney(0),
      currency,
    }
  }

  const provider = getProvider(method.provider)
  if (!method.isActive || !provider?.isAvailable(deps)) throw refuse('payment_method_inactive')
  const allowed = method.currencies.length ? method.currencies : [country.currency]
  if (!allowed.includes(currency))
    throw refuseField('currency', 'payment_currency_not_supported', { currency: currency || '—' })
  const contact = contactFields(method.requiredFields, body, checked.email)
  const rateMicro = await rateFor(deps, currency, country)
  const { converted, amount } = paymentAmount(totals.totalToPay, rateMicro, method)
  if (converted < method.minAmount)
    throw refuse('payment_amount_below_minimum', { min: toMoney(method.minAmount), currency })

  const paymentId = randomUUID()
  const payment = await deps.db.transaction(async (tx) => {
    const order = await loadOrderForCaller(tx, actor, checked.id, { lock: true })
    assertPayable(order.status)
    if (order.totalToPay !== totals.totalToPay) throw refuse('order_total_changed')
    // the codes are reserved before the shopper pays: no payment starts for stock that is gone
    await holdStock(tx, order, holdRules(deps, actor))
    // a Standoff order's listing price is held like stock, from here (issue 42)
    await holdStandoffListing(deps, actor, tx, order)
    await supersedePendingPayments(tx, order.id)
    if (order.status === 'created') await transitionOrder(tx, order.id, 'waiting_for_payment')
    const [row] = await tx
      .insert(payments)
      .values({
        id: paymentId,
        orderId: order.id,
        methodName: method.name,
        provider: method.provider,
        amount,
        currency,
        status: 'pending',
        // the order total this payment is for: a confirmation after the total changed is refused
        scenario: { [ORDER_TOTAL_KEY]: totals.totalToPay },
        // the risk rules' facts (issue 34): who started it and for which country
        clientAddress: actor.address,
        clientNetwork: actor.network,
        countryCode: countryCodeOf(country),
      })
      .returning()
    // asked again in the background if its callback never comes
    await queuePaymentRequery(tx, deps, row!)
    return { row: row!, order: { ...order, status: 'waiting_for_payment' as const } }
  })

  let created: Awaited<ReturnType<typeof provider.createPayment>>
  try {
    created = await provider.createPayment(
      {
        order: payment.order,
        method,
        payment: payment.row,
        amount,
        currency,
        customer: contact,
        receipt: await receiptForNewPayment(deps.db, deps.config, payment.row),
      },
      deps,
    )
  } catch (e) {
    await deps.db.update(payments).set({ status: 'failed' }).where(eq(payments.id, paymentId))
    if (e instanceof ApiError) throw e
    console.error(`[payments] ${method.provider} refused payment ${paymentId}`, e)
    throw new ApiError(502, 'payment_provider_error', message('payment_provider_error'))
  }
  await deps.db
    .update(payments)
    .set({
      scenario: { ...created.scenario, [ORDER_TOTAL_KEY]: totals.totalToPay },
      externalId: created.externalId ?? null,
    })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')))
  return { ...created.scenario, payment_id: paymentId, amount: toMoney(amount), currency }
}

/** The hold's length and the per-buyer cap (decision 046), for this caller's address. */
function holdRules(deps: ApiDeps, actor: Actor) {
  const { stockHoldMinutes, maxHeldCodes } = deps.config.orderClock
  // the client's network (IPv6 /64): three addresses of one /64 are one buyer (issue 42)
  return { minutes: stockHoldMinutes, maxHeldCodes, address: actor.network }
}

/** Claims a Standoff order's listing price until its hold ends (STOCK_HOLD_MINUTES from the first start). */
async function holdStandoffListing(deps: ApiDeps, actor: Actor, tx: Tx, order: OrderRow) {
  if (order.kind !== 'StandoffOrder') return
  const { stockHoldMinutes, maxHeldListings } = deps.config.orderClock
  const { until, over } = await holdEnd(tx, order.id, stockHoldMinutes)
  if (over) throw refuse('hold_time_over')
  await claimListingPrice(tx, order, { until, maxHeldListings, network: actor.network })
}

function assertPayable(status: string) {
  if (UNPAID_STATUSES.includes(status as never)) return
  if (status === 'failed') throw refuse('order_not_payable')
  throw refuse('order_already_paid')
}
