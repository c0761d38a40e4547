// /orders/{orderId}/pay: the order (recalculated), its promo code, the country and payment method,
// the started payment's next step, and the order's progress up to its delivered codes.
// Every step is a server-rendered form; JavaScript only polls the status and sends provider forms.
import { PROMO_TARGET } from '#app/lib/order-form/promo-target'
import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useActionData, useLoaderData, useLocation } from '@remix-run/react'
import { useEffect } from 'react'
import { metaT } from '#app/components/catalogue/meta-t'
import { CountryForm } from '#app/components/payment/country-form'
import { useTelegramFollow } from '#app/components/payment/telegram-follow-switch'
import { Deferred, deferredComponent } from '#app/components/payment/deferred'
import { MethodForm } from '#app/components/payment/method-form'
import { OrderSummary } from '#app/components/payment/order-summary'
import { handlePayAction, loadPayPage, orderIdParam } from '#app/components/payment/pay-page.server'
import { PromoForm } from '#app/components/payment/promo-form'
import type { PayActionData, PayPageData } from '#app/components/payment/types'
import { useT } from '#app/i18n/i18n-context'
import { forgetPaidPicks } from '#app/lib/cart'
import { formatAmount } from '#app/lib/money'
import { markPersonal, sharedPageHeaders } from '#app/lib/shared-page.server'
import { loadUser } from '#app/lib/account.server'
import paymentCss from '#app/styles/payment.css?url'

// Parts most visits never show (a started payment, delivered codes, status polling) load on demand,
// keeping the page's first-load JavaScript within budget; the server renders them all the same.
const scenarioView = deferredComponent(() =>
  import('#app/components/payment/scenario-view').then((m) => m.ScenarioView),
)
const deliveredCodes = deferredComponent(() =>
  import('#app/components/payment/delivered-codes').then((m) => m.DeliveredCodes),
)
// a declined payment's note with its retry: rare, so on demand too
const declinedNote = deferredComponent(() =>
  import('#app/components/payment/declined-note').then((m) => m.DeclinedNote),
)
const refundNote = deferredComponent(() =>
  import('#app/components/payment/refund-note').then((m) => m.RefundNote),
)
// the order editor: only unpaid orders show it, and few shoppers open it
const orderEdit = deferredComponent(() =>
  import('#app/components/payment/order-edit').then((m) => m.OrderEdit),
)
// a Standoff order's listing price, and the receipts once paid
const listingNote = deferredComponent(() =>
  import('#app/components/payment/listing-note').then((m) => m.ListingNote),
)
const receiptNotes = deferredComponent(() =>
  import('#app/components/receipt-notes').then((m) => m.ReceiptNotes),
)
// «Следить в Telegram»: only shops with a bot show it
const telegramFollow = deferredComponent(() =>
  import('#app/components/payment/telegram-follow').then((m) => m.TelegramFollow),
)
const statusPoller = deferredComponent(() =>
  import('#app/components/payment/status-poller').then((m) => m.StatusPoller),
)

export const headers = sharedPageHeaders

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: paymentCss }]

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('payment.meta_title') },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const orderId = orderIdParam(request, params.orderId)
  const [{ page, api, complete }, user] = await Promise.all([
    loadPayPage(request, context, orderId),
    // the header's account: read once per request with the root's (api.once)
    loadUser(request, context),
    // rendered on the server without waiting: their code is there before the page renders
    scenarioView.preload(),
    deliveredCodes.preload(),
    declinedNote.preload(),
    refundNote.preload(),
    orderEdit.preload(),
    listingNote.preload(),
    receiptNotes.preload(),
    telegramFollow.preload(),
  ])
  // the buyer's own page, kept for them until their data changes (decision 103): not when a read
  // failed, and not while it shows delivered codes, since each showing of those is logged
  // (code_views) and a kept copy would show them unlogged
  if (complete && user && !showsCodes(page.order)) markPersonal(api)
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'private, no-store')
  return data({ ...page, notifications: api.notifications }, { headers })
}

/** Whether the page shows the order's delivered codes or its gift code. */
function showsCodes(order: PayPageData['order']): boolean {
  return order.giftCode !== null || order.lines.some((l) => l.codes.length > 0)
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const orderId = orderIdParam(request, params.orderId)
  return handlePayAction(request, context, orderId)
}

export default function OrderPayPage() {
  const page: PayPageData = useLoaderData<typeof loader>()
  const actionData: PayActionData | undefined = useActionData<typeof action>()
  const t = useT()
  const location = useLocation()
  const { order } = page
  const telegram = useTelegramFollow()
  const followInTelegram = telegram && order.status !== 'done' && order.status !== 'failed'

  // arriving here after placing an order: no popup is open any more, so nothing may lock scrolling
  useEffect(() => {
    document.body.style.removeProperty('overflow')
  }, [])

  // a paid order's picks leave the stored cart, so the game page does not offer them again
  const paid = !order.isPaymentActive && order.status !== 'failed'
  const gameId = order.game?.id
  const productIds = order.lines.map((l) => l.productId).join()
  useEffect(() => {
    if (paid && gameId !== undefined && productIds) forgetPaidPicks(gameId, productIds.split(',').map(Number))
  }, [paid, gameId, productIds])

  const promoState = actionData?.intent === 'promo' ? actionData : null
  const payState = actionData?.intent === 'pay' ? actionData : null
  const countryError = actionData?.intent === 'country' ? actionData.error : null
  const justStarted = actionData?.intent === 'pay_started' && actionData.paymentId === page.payment?.id
  const qrRefresh = page.waiting || actionData ? null : qrRefreshUrl(page, location.pathname, location.search)
  // the success screen leads with «Готово»; a paid order on its way says it is paid
  const heading =
    order.status === 'done'
      ? 'payment.done_heading'
      : order.status === 'paid' || order.status === 'sending' || order.status === 'sent'
        ? 'payment.paid_heading'
        : 'payment.heading'

  return (
    <div className="pay-page">
      {page.waiting ? (
        // without JavaScript the page reloads itself while the order is on its way; the url is
        // explicit because a refresh to the same url with a #fragment would only scroll
        <noscript>
          <meta
            httpEquiv="refresh"
            content={`${order.awaitingMinutes === null && !order.onReview ? 3 : 30};url=${location.pathname}${location.search}`}
          />
        </noscript>
      ) : qrRefresh ? (
        // a QR paid in the bank app: without JavaScript the page reloads itself (a GET, never a
        // post) while the payment waits, counting its reloads in the url to stop after ten minutes
        <noscript>
          <meta httpEquiv="refresh" content={`${QR_REFRESH_SECONDS};url=${qrRefresh}`} />
        </noscript>
      ) : null}
      {page.poll ? (
        <Deferred
          of={statusPoller}
          props={{
            orderId: order.id,
            status: order.status,
            paymentStatus: page.status?.paymentStatus ?? page.payment?.status ?? null,
          }}
        />
      ) : null}
      <header className="pay-page__head">
        <h1>{t(heading)}</h1>
        <p className="pay-muted">{t('payment.order_number', { id: order.number ?? order.id })}</p>
        {order.isPaymentActive ? <PayBrief order={order} /> : null}
        <p className="pay-status">
          {t('payment.status_label')}:{' '}
          <span
            className={`badge pay-status__badge pay-status__badge--${order.status}`}
            data-testid="order-status"
          >
            {order.onReview ? t('review.status') : t(`payment.status.${order.status}`)}
          </span>
        </p>
      </header>
      {order.status === 'done' ? (
        // the codes and how to activate them on the first screen, above the order's details
        <Deferred of={deliveredCodes} props={{ order, texts: page.done }} />
      ) : null}
      {page.declined ? (
        <Deferred of={declinedNote} props={{ declined: page.declined, email: order.account.email }} />
      ) : null}
      <div className={`pay-page__grid${order.isPaymentActive ? ' pay-page__grid--paying' : ''}`}>
        <OrderSummary order={order} charged={page.status?.charged ?? null} />
        <div className="pay-page__side">
          {page.order.listing && page.skin ? <Deferred of={listingNote} props={{ page }} /> : null}
          {page.receipts.length > 0 ? (
            <Deferred of={receiptNotes} props={{ receipts: page.receipts, className: 'card pay-receipts' }} />
          ) : null}
          <StatusNote page={page} />
          {/* while the order waits for payment the methods come first and the offer to follow it in
              Telegram after them: above them it pushed the pay bar's form below the first screen */}
          {followInTelegram && !order.isPaymentActive ? (
            <Deferred of={telegramFollow} props={{ orderId: order.id }} />
          ) : null}
          <ChargedNote page={page} />
          {payState?.error && !order.isPaymentActive ? (
            <p className="form-error card" role="alert">
              {payState.error}
            </p>
          ) : null}
          {page.paymentMessage ? (
            // «Платёж не засчитан — возвращаем деньги» (texts made by the loader)
            <p className="card pay-declined" role="alert">
              {page.paymentMessage}
            </p>
          ) : null}
          {order.isPaymentActive ? (
            <>
              {page.payment ? (
                <Deferred of={scenarioView} props={{ payment: page.payment, justStarted }} />
              ) : null}
              {page.noPayments ? (
                <p className="card form-error" role="alert">
                  {t('payment.country.no_payments')}
                </p>
              ) : page.methodsUnavailable ? (
                <p className="card form-error" role="alert">
                  {t('payment.country.unavailable')}
                </p>
              ) : (
                <MethodForm
                  groups={page.groups}
                  defaultMethod={page.defaultMethod}
                  email={order.account.email}
                  state={{
                    error: payState?.error ?? null,
                    fieldErrors: payState?.fieldErrors ?? {},
                    values: payState?.values ?? null,
                  }}
                />
              )}
              <Deferred of={orderEdit} props={{ order, edit: page.edit }} />
              <PromoForm
                promo={page.promo}
                error={promoState?.error ?? null}
                code={promoState?.code ?? ''}
                target={PROMO_TARGET[order.kind]}
              />
              {page.country ? (
                <CountryForm countries={page.countries} country={page.country} error={countryError} />
              ) : null}
              {followInTelegram ? <Deferred of={telegramFollow} props={{ orderId: order.id }} /> : null}
            </>
          ) : null}
        </div>
      </div>
    </div>
  )
}

/** How often a waiting QR payment's page reloads itself without JavaScript (issue 50), in seconds. */
const QR_REFRESH_SECONDS = 10
/** How many times at most: ten minutes, so a tab left open does not reload forever. */
const QR_REFRESH_TIMES = 60
/** The url parameter counting those reloads. */
const QR_REFRESH_PARAM = 'waited'

/**
 * Where a page showing a QR (`qr`, `invoice_qr`) that waits for the bank app reloads to without
 * JavaScript, its reload count one up; null when it should not (no such payment, the QR expired, or
 * it reloaded QR_REFRESH_TIMES times). With JavaScript the status poller follows the payment instead.
 */
function qrRefreshUrl(page: PayPageData, pathname: string, search: string): string | null {
  const { payment } = page
  if (!payment || !page.order.isPaymentActive) return null
  if (payment.scenario.type !== 'qr' && payment.scenario.type !== 'invoice_qr') return null
  if (payment.qrExpiry?.expired) return null
  const query = new URLSearchParams(search)
  const done = Number.parseInt(query.get(QR_REFRESH_PARAM) ?? '0', 10)
  const count = Number.isFinite(done) && done > 0 ? done : 0
  if (count >= QR_REFRESH_TIMES) return null
  query.set(QR_REFRESH_PARAM, String(count + 1))
  return `${pathname}?${query}`
}

/**
 * On a phone the methods come first (issue 50): one line says what is being paid for and its sum
 * before any method's fee, with a link down to the order's details.
 */
function PayBrief({ order }: { order: PayPageData['order'] }) {
  const t = useT()
  const item = order.gift ?? order.game
  const what = [
    item?.title,
    order.lines.map((l) => t('payment.brief_line', { title: l.title, quantity: l.quantity })).join(', '),
  ]
    .filter(Boolean)
    .join(': ')
  return (
    <p className="pay-brief">
      {t('payment.brief', { what, total: formatAmount(order.totalToPay) })}{' '}
      <a href="#order-summary-heading">{t('payment.brief_details')}</a>
    </p>
  )
}

/** What the payment under way will charge, or what was charged, the method's fee included. */
function ChargedNote({ page }: { page: PayPageData }) {
  const t = useT()
  const charged = page.status?.charged
  if (!charged) return null
  const amount = formatAmount(charged.amount)
  const fee = formatAmount(charged.fee)
  const key = `payment.charged.${charged.paid ? 'paid' : 'to_pay'}${charged.fee > 0 ? '_with_fee' : ''}`
  return (
    <p className="card pay-charged" data-testid="charged">
      {t(key, { amount, fee })}
    </p>
  )
}

/** What is happening with the order once it no longer waits for payment. */
function StatusNote({ page }: { page: PayPageData }) {
  const t = useT()
  const { order } = page
  if (order.isPaymentActive) return null
  // an unpaid order that can no longer be paid (its payment went through elsewhere)
  const note = order.onReview
    ? t('review.note')
    : order.awaitingMinutes !== null
      ? t('payment.delivery.awaiting', { minutes: order.awaitingMinutes })
      : t(
          order.status === 'created' || order.status === 'waiting_for_payment'
            ? 'payment.not_payable.paid'
            : `payment.status_note.${order.status}`,
        )
  return (
    <section className={`card pay-note pay-note--${order.status}`} aria-labelledby="pay-note-heading">
      <h2 id="pay-note-heading">
        {order.onReview ? t('review.status') : t(`payment.status.${order.status}`)}
      </h2>
      <p role="status">{note}</p>
      {order.status === 'failed' && order.rejectReason && !order.refund ? (
        <p className="form-error">{t('payment.reject_reason', { reason: order.rejectReason })}</p>
      ) : null}
      {(order.status === 'failed' || order.status === 'done') && order.refund ? (
        <Deferred of={refundNote} props={{ refund: order.refund }} />
      ) : null}
      {order.status === 'done' || order.status === 'failed' ? (
        <p>
          <Link to="/">{t('payment.back_to_catalogue')}</Link>
        </p>
      ) : null}
    </section>
  )
}
