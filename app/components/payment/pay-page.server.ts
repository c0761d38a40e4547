// The payment page's BFF: one loader that gathers the order, the countries and the visitor's
// payment methods, the active promo code, the order status and the latest payment (all at once),
// and the page's form posts (promo code, country, pay).
import { type AppLoadContext, data, redirect, redirectDocument } from '@remix-run/node'
import { parse } from 'cookie'
import { getServerT } from '#app/i18n/i18n.server'
import type { TFunction } from '#app/i18n/translate'
import { ApiResponseError, type ApiSession, apiFor, must } from '#app/lib/api/client.server'
import { invalidRoute } from '#app/lib/http-errors.server'
import { type QrImage, qrImage } from '#app/lib/qr.server'
import { redirectWithToast } from '#app/lib/toast.server'
import { formatAmount, formatPercent } from '#app/lib/money'
import { handleEditAction, loadOrderEdit } from './order-edit.server'
import { doneTexts } from './done-texts.server'
import { preferredMethod } from './preferred-method'
import { returnedNote } from './returned-note.server'
import type { MethodGroupOption, MethodOption, PayActionData, PayPageData } from './types'
import {
  type ActiveCountry,
  availability,
  findMethod,
  IN_PROGRESS_STATUSES,
  type Order,
  type Payment,
  type PaymentMethod,
  quoteMethod,
  toActiveCountry,
  toCountry,
  toOrder,
  toPayment,
  toScenario,
  type StatusResult,
  toStatusResult,
} from '#app/lib/view-models/order'

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The API remembers the visitor's country in this cookie (set by /countries/active/select/). */
export const COUNTRY_COOKIE = 'country_id'

/** The order id of the route, or the validity-check 404 (§5). */
export function orderIdParam(request: Request, raw: string | undefined): string {
  if (!raw || !UUID_RE.test(raw)) invalidRoute(request)
  return raw.toLowerCase()
}

/**
 * The browser's `country_id` cookie, to hand on to the API: the API reads the visitor's country
 * from it, and the storefront's server-side calls do not carry the browser's cookies otherwise.
 */
export function countryCookieHeaders(request: Request): Record<string, string> {
  const value = parse(request.headers.get('cookie') ?? '')[COUNTRY_COOKIE]
  return value && /^\d{1,9}$/.test(value) ? { cookie: `${COUNTRY_COOKIE}=${value}` } : {}
}

/** Copies the API's `country_id` Set-Cookie onto the storefront's response (and nothing else). */
export function forwardCountryCookie(from: Response, into: Headers): void {
  for (const cookie of from.headers.getSetCookie()) {
    if (cookie.startsWith(`${COUNTRY_COOKIE}=`)) into.append('set-cookie', cookie)
  }
}

type Outcome<T> = { ok: true; data: T } | { ok: false; error: ApiResponseError }

async function attempt<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<Outcome<T>> {
  try {
    return { ok: true, data: await must(call) }
  } catch (error) {
    if (error instanceof ApiResponseError) return { ok: false, error }
    throw error
  }
}

function qrFor(payment: Payment): QrImage | null {
  const text =
    payment.scenario.type === 'invoice_qr'
      ? payment.scenario.qrStr
      : payment.scenario.type === 'qr'
        ? payment.scenario.url
        : null
  if (!text) return null
  try {
    return qrImage(text)
  } catch (error) {
    // too long for a QR code: the shopper still has the link
    console.error('[payment] QR code not drawn', error)
    return null
  }
}

const MOSCOW_TIME = new Intl.DateTimeFormat('ru-RU', {
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
})

/** When an invoice QR stops being offered, as the shopper reads it, and whether that has passed. */
function qrExpiryOf(payment: Payment, now = Date.now()): { until: string; expired: boolean } | null {
  const at =
    payment.scenario.type === 'invoice_qr' ? Date.parse(payment.scenario.expiresAt ?? '') : Number.NaN
  if (Number.isNaN(at)) return null
  return { until: MOSCOW_TIME.format(at), expired: at <= now }
}

function feeText(t: TFunction, method: PaymentMethod): string {
  const { feeBp, fixFee, currency } = method
  if (feeBp === 0 && fixFee === 0) return t('payment.methods.fee_none')
  const fee = formatAmount(fixFee, currency)
  if (fixFee === 0) return t('payment.methods.fee_percent', { percent: formatPercent(feeBp) })
  if (feeBp === 0) return t('payment.methods.fee_fixed', { fee })
  return t('payment.methods.fee_both', { percent: formatPercent(feeBp), fee })
}

function methodOption(
  t: TFunction,
  method: PaymentMethod,
  order: Order,
  country: ActiveCountry,
): MethodOption {
  const quote = quoteMethod(method, order.totalToPay, country)
  const state = quote?.availability ?? availability(method, null)
  const details = [feeText(t, method)]
  if (state === 'inactive') details.push(t('payment.methods.inactive'))
  else if (state === 'below_min')
    details.push(t('payment.methods.min_amount', { amount: formatAmount(method.minAmount, method.currency) }))
  else if (quote)
    details.push(t('payment.methods.to_pay', { amount: formatAmount(quote.amount, method.currency) }))
  return {
    method,
    availability: state,
    details: details.join(' · '),
    amount: quote?.amount ?? null,
    amountText: quote ? formatAmount(quote.amount, method.currency) : null,
  }
}

function methodGroups(t: TFunction, order: Order, country: ActiveCountry | null): MethodGroupOption[] {
  if (!country) return []
  return country.groups
    .map((g) => ({ name: g.name, methods: g.methods.map((m) => methodOption(t, m, order, country)) }))
    .filter((g) => g.methods.length > 0)
}

/** The page's note about payments taken but not accepted (being given back). */
function paymentMessage(t: TFunction, status: StatusResult | null): string | null {
  return returnedNote(t, status?.returnedPayments ?? []) || null
}

/**
 * A declined last payment while the order can be paid and no other payment is under way: the
 * API's reason, and its method to retry with when that method takes this order as it stands
 * (one that asks for a phone number is picked again in the list instead).
 */
function declinedPayment(
  order: Order,
  status: StatusResult | null,
  payment: Payment | null,
  latest: Payment | null,
  groups: MethodGroupOption[],
): PayPageData['declined'] {
  const reason = order.isPaymentActive && !payment ? (status?.paymentMessage ?? null) : null
  if (!reason) return null
  const method = groups
    .flatMap((g) => g.methods)
    .find((m) => m.method.name === latest?.methodName && m.availability === 'ok' && !m.method.needsPhone)
  return { reason, retryMethod: method?.method.name ?? null }
}

/** Everything the page shows, from six API calls made in parallel. */
export async function loadPayPage(
  request: Request,
  context: AppLoadContext,
  orderId: string,
): Promise<{ page: PayPageData; api: ApiSession; complete: boolean }> {
  const api = apiFor(request, context)
  const path = { params: { path: { id: orderId } } }
  const headers = countryCookieHeaders(request)
  const [orderRes, countriesRes, activeRes, promoRes, statusRes, paymentRes] = await Promise.all([
    attempt(api.client.GET('/api/orders/{id}/', path)),
    attempt(api.client.GET('/api/payments/countries/', {})),
    attempt(api.client.GET('/api/payments/countries/active/', { params: { query: {} }, headers })),
    attempt(api.client.GET('/api/orders/{id}/active_promo_code/', path)),
    attempt(api.client.GET('/api/orders/status/{id}/', path)),
    attempt(api.client.GET('/api/orders/payment_data/{id}/', path)),
  ])
  if (!orderRes.ok) {
    throw data({ message: orderRes.error.message }, { status: orderRes.error.status, headers: api.headers })
  }
  // every read answered (a refusal such as «no payment yet» is an answer; a timeout or a 5xx is
  // not): only such a page may be kept for the buyer (decision 103)
  const complete = [countriesRes, activeRes, promoRes, statusRes, paymentRes].every(
    (r) => r.ok || (r.error.status < 500 && r.error.status !== 408),
  )
  const order = toOrder(orderRes.data)
  const status = statusRes.ok ? toStatusResult(statusRes.data) : null
  const country = activeRes.ok ? toActiveCountry(activeRes.data) : null
  const latest = paymentRes.ok ? toPayment(paymentRes.data) : null
  const payment =
    latest && latest.status === 'pending' && order.isPaymentActive
      ? { ...latest, qr: qrFor(latest), qrExpiry: qrExpiryOf(latest) }
      : null
  const { t } = await getServerT(request)
  const groups = methodGroups(t, order, country)
  const defaultMethod = preferredMethod(
    groups.flatMap((g) => g.methods),
    latest?.methodName ?? null,
    country?.currency ?? null,
    // a repeat's method (issue 50); only ever a name compared with the methods on offer
    new URL(request.url).searchParams.get('method')?.slice(0, 64) ?? null,
  )
  const waiting = IN_PROGRESS_STATUSES.includes(order.status) || payment?.scenario.type === 'wait_order_state'
  const promo =
    promoRes.ok && promoRes.data ? { code: promoRes.data.code, percent: promoRes.data.percent } : null
  // a payment under way was started for the current total: the order changes only before one
  const edit = payment ? null : await loadOrderEdit(api, order)
  const skin = order.listing ? await standoffSkin(api) : null
  return {
    api,
    complete,
    page: {
      order,
      receipts: statusRes.ok ? (statusRes.data.receipts ?? []) : [],
      status,
      payment,
      paymentMessage: paymentMessage(t, status),
      declined: declinedPayment(order, status, payment, latest, groups),
      done: doneTexts(order),
      countries: countriesRes.ok ? countriesRes.data.map(toCountry) : [],
      country,
      groups,
      defaultMethod,
      promo,
      // no country at all (404) or no method on is not a failure: the shop takes no payments now
      noPayments:
        order.isPaymentActive &&
        ((!activeRes.ok && activeRes.error.status === 404) ||
          (country !== null && !groups.some((g) => g.methods.some((m) => m.availability !== 'inactive')))),
      methodsUnavailable:
        order.isPaymentActive && !country && !(!activeRes.ok && activeRes.error.status === 404),
      waiting,
      skin,
      poll: waiting || (payment !== null && payment.scenario.type !== 'form'),
      edit,
    },
  }
}

// ---------------------------------------------------------------------------------------------
// Form posts

const field = (form: FormData, name: string) => {
  const v = form.get(name)
  return typeof v === 'string' ? v.trim() : ''
}

const pagePath = (orderId: string) => `/orders/${orderId}/pay`

function firstFieldError(body: unknown, name: string): string | undefined {
  const fields = (body as { fields?: Record<string, unknown> } | null)?.fields
  const list = fields?.[name]
  return Array.isArray(list) && typeof list[0] === 'string' ? list[0] : undefined
}

export async function handlePayAction(request: Request, context: AppLoadContext, orderId: string) {
  const api = apiFor(request, context)
  const { t } = await getServerT(request)
  const form = await request.formData()
  const intent = field(form, 'intent')
  switch (intent) {
    case 'promo_apply':
      return applyPromo(api, t, request, orderId, field(form, 'code'))
    case 'promo_remove':
      return removePromo(api, t, request, orderId)
    case 'country':
      return selectCountry(api, request, orderId, field(form, 'country_id'))
    case 'pay':
      return startPayment(api, t, request, orderId, form)
    case 'check':
      return checkPayment(api, orderId)
    case 'skin_listed':
      return skinListed(api, orderId)
    case 'edit_lines':
    case 'edit_amount':
    case 'edit_delivery':
      return handleEditAction(api, t, request, orderId, intent, form)
    default:
      throw data({ message: t('errors.generic_error') }, { status: 400, headers: api.headers })
  }
}

/** The Standoff skin the buyer lists (the shop's Standoff settings); null when they cannot be read. */
async function standoffSkin(api: ApiSession) {
  const r = await attempt(api.client.GET('/api/orders/standoff/settings/', {}))
  return r.ok ? { name: r.data.skin_name, picture: r.data.skin_picture } : null
}

/** «Я выставил скин»: tells the shop, back to the page (which then says it was told). */
async function skinListed(api: ApiSession, orderId: string) {
  await api.client.POST('/api/orders/standoff/{id}/skin_listed/', { params: { path: { id: orderId } } })
  return redirect(pagePath(orderId), { status: 303, headers: api.headers })
}

async function applyPromo(api: ApiSession, t: TFunction, request: Request, orderId: string, code: string) {
  if (!code) {
    return data<PayActionData>(
      { intent: 'promo', error: t('payment.promo.required'), code },
      { status: 400, headers: api.headers },
    )
  }
  const res = await attempt(
    api.client.POST('/api/orders/{id}/activate_promo_code/', {
      params: { path: { id: orderId } },
      body: { code },
    }),
  )
  if (!res.ok) {
    return data<PayActionData>(
      { intent: 'promo', error: res.error.message, code },
      { status: res.error.status, headers: api.headers },
    )
  }
  const applied = res.data.promo_code?.code ?? code
  return redirectWithToast(
    pagePath(orderId),
    { type: 'success', text: t('payment.promo.applied', { code: applied }) },
    { request, headers: api.headers, status: 303 },
  )
}

async function removePromo(api: ApiSession, t: TFunction, request: Request, orderId: string) {
  const res = await attempt(
    api.client.POST('/api/orders/{id}/deactivate_promo_code/', { params: { path: { id: orderId } } }),
  )
  if (!res.ok) {
    return data<PayActionData>(
      { intent: 'promo', error: res.error.message, code: '' },
      { status: res.error.status, headers: api.headers },
    )
  }
  return redirectWithToast(
    pagePath(orderId),
    { type: 'success', text: t('payment.promo.removed') },
    { request, headers: api.headers, status: 303 },
  )
}

async function selectCountry(api: ApiSession, request: Request, orderId: string, raw: string) {
  const countryId = Number(raw)
  if (!Number.isSafeInteger(countryId) || countryId <= 0) {
    const { t } = await getServerT(request)
    return data<PayActionData>(
      { intent: 'country', error: t('errors.generic_error') },
      { status: 400, headers: api.headers },
    )
  }
  const result = await api.client.POST('/api/payments/countries/active/select/', {
    body: { country_id: countryId },
  })
  const headers = new Headers(api.headers)
  if (!result.response.ok) {
    const error = await attempt(Promise.resolve(result))
    const message = error.ok ? '' : error.error.message
    return data<PayActionData>(
      { intent: 'country', error: message },
      { status: result.response.status, headers },
    )
  }
  forwardCountryCookie(result.response, headers)
  return redirect(pagePath(orderId), { status: 303, headers })
}

async function startPayment(
  api: ApiSession,
  t: TFunction,
  request: Request,
  orderId: string,
  form: FormData,
) {
  const values = { method: field(form, 'method'), email: field(form, 'email'), phone: field(form, 'phone') }
  const fail = (error: string | null, status: number, fieldErrors: { email?: string; phone?: string } = {}) =>
    data<PayActionData>({ intent: 'pay', error, fieldErrors, values }, { status, headers: api.headers })
  if (!values.method) return fail(t('payment.errors.choose_method'), 400)

  // the method as the visitor's country offers it: its currency and the fields it needs
  const cookie = countryCookieHeaders(request)
  const active = await attempt(
    api.client.GET('/api/payments/countries/active/', { params: { query: {} }, headers: cookie }),
  )
  if (!active.ok) return fail(active.error.message, active.error.status)
  const method = findMethod(toActiveCountry(active.data), values.method)
  if (!method?.isActive) return fail(t('payment.errors.method_unavailable'), 400)
  const fieldErrors: { email?: string; phone?: string } = {}
  if (method.needsEmail && !values.email) fieldErrors.email = t('payment.errors.email_required')
  if (method.needsPhone && !values.phone) fieldErrors.phone = t('payment.errors.phone_required')
  if (fieldErrors.email || fieldErrors.phone) return fail(null, 400, fieldErrors)

  const started = await attempt(
    api.client.POST('/api/payments/{name}/', {
      params: { path: { name: method.name } },
      body: {
        order_id: orderId,
        currency: method.currency,
        email: method.needsEmail ? values.email : null,
        phone: method.needsPhone ? values.phone : null,
      },
      headers: cookie,
    }),
  )
  if (!started.ok) {
    const body = started.error.body
    const errors = { email: firstFieldError(body, 'email'), phone: firstFieldError(body, 'phone') }
    // a field error shows at its field; anything else (already paid, below minimum…) above the form
    const general = errors.email || errors.phone ? null : started.error.message
    return fail(general, started.error.status, errors)
  }
  const scenario = toScenario(started.data as unknown as { type: unknown } & Record<string, unknown>)
  const paymentId = started.data.payment_id
  // redirect scenarios: straight to the provider (with JavaScript Remix follows it with window.location)
  if (scenario.type === 'redirect' || scenario.type === 'p2p_redirect') {
    return redirectDocument(scenario.url, { headers: api.headers })
  }
  // with JavaScript the page re-reads its data and acts on the new payment (e.g. submits the form)
  if (field(form, 'js') === '1') {
    return data<PayActionData>({ intent: 'pay_started', paymentId }, { headers: api.headers })
  }
  // without: post/redirect/get, so a reload shows the payment instead of paying again
  return redirect(`${pagePath(orderId)}?payment=${encodeURIComponent(paymentId)}#payment`, {
    status: 303,
    headers: api.headers,
  })
}

/** «Проверить оплату»: the API asks the provider now; the page then shows what it answered. */
async function checkPayment(api: ApiSession, orderId: string) {
  // a refusal (unknown order) shows as the page itself would: the loader reports it
  await attempt(api.client.POST('/api/orders/status/{id}/check/', { params: { path: { id: orderId } } }))
  return redirect(pagePath(orderId), { status: 303, headers: api.headers })
}
