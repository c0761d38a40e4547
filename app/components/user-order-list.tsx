import { Link } from '@remix-run/react'
import { ReceiptNotes } from '#app/components/receipt-notes'
import { useT } from '#app/i18n/i18n-context'
import { formatWireMoney } from '#app/lib/money'
import { type OrderHistoryView, repeatOrderHref } from '#app/lib/order-history'

const dateFormat = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
})

const PAID = new Set(['paid', 'sending', 'sent', 'done'])
/** «К оплате» while a payment can be made, «Оплачено» once paid, «Сумма» otherwise. */
const amountLabel = (o: OrderHistoryView) =>
  o.isPaymentActive ? 'to_pay' : PAID.has(o.status) ? 'charged' : 'total'

/** Orders of the history and of the last-orders popup: status, totals, items, codes, actions. */
export function UserOrderList({
  orders,
  headingLevel = 3,
  open,
}: {
  orders: OrderHistoryView[]
  headingLevel?: 2 | 3
  /** A link to each order's page (the guest order look-up), with a note where there is none. */
  open?: { label: string; href: (o: OrderHistoryView) => string | null; none: string }
}) {
  const t = useT()
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const money = (v: string) => formatWireMoney(v, t('common.currency'))
  return (
    <ul className="order-list">
      {orders.map((o) => {
        const repeat = repeatOrderHref(o)
        const openHref = open?.href(o) ?? null
        return (
          <li key={o.id} className="order-card card">
            <div className="order-card__head">
              <Heading className="order-card__title">
                {o.game?.title ??
                  o.gift?.title ??
                  t('account.history.number', { id: o.number ?? o.id.slice(0, 8) })}
              </Heading>
              <span className={`badge order-status order-status--${o.status}`}>
                {t(`account.statuses.${o.status}`)}
              </span>
            </div>
            <p className="order-card__meta">
              {t('account.history.order', { date: dateFormat.format(new Date(o.created)) })}
              <span className="order-card__id">
                {' '}
                {t('account.history.number', { id: o.number ?? o.id.slice(0, 8) })}
              </span>
            </p>
            <dl className="order-card__facts">
              {/* the amount as charged (after the discount and the balance), never the list price */}
              <div>
                <dt>{t(`account.history.${amountLabel(o)}`)}</dt>
                <dd>{money(o.totalToPay)}</dd>
              </div>
              {o.gameAccountId ? (
                <div>
                  <dt>{t('account.history.game_account')}</dt>
                  <dd>{o.gameAccountId}</dd>
                </div>
              ) : null}
              {o.steamAccountId ? (
                <div>
                  <dt>{t('account.history.steam_account')}</dt>
                  <dd>{o.steamAccountId}</dd>
                </div>
              ) : null}
              {o.amount ? (
                <div>
                  <dt>{t('account.history.amount')}</dt>
                  <dd>{money(o.amount)}</dd>
                </div>
              ) : null}
              {o.moogoldUserId ? (
                <div>
                  <dt>{t('account.history.supply_user')}</dt>
                  <dd>{o.moogoldUserId}</dd>
                </div>
              ) : null}
              {o.playerNickname ? (
                <div>
                  <dt>{t('account.history.player_nickname')}</dt>
                  <dd>{o.playerNickname}</dd>
                </div>
              ) : null}
            </dl>
            {o.orderProducts.length > 0 ? (
              <ul className="order-card__items" aria-label={t('account.history.items')}>
                {o.orderProducts.map((l) => (
                  <li key={l.product}>
                    <span>{l.title}</span> <span>{t('account.history.quantity', { count: l.quantity })}</span>
                    {l.codes.length > 0 ? (
                      <ul className="order-card__codes" aria-label={t('account.history.codes')}>
                        {l.codes.map((c) => (
                          <li key={c.code}>
                            <code>{c.code}</code> <span>{c.amountUc} UC</span>
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
            {o.giftCode ? (
              <p className="order-card__gift-code">
                {t('account.history.gift_code')}: <code>{o.giftCode}</code>
              </p>
            ) : null}
            {o.rejectReason ? (
              <p className="order-card__reject">
                {t('account.history.reject_reason')}: {o.rejectReason}
              </p>
            ) : null}
            <ReceiptNotes receipts={o.receipts} className="order-card__receipts" />
            {open && !openHref ? <p className="order-card__meta">{open.none}</p> : null}
            <div className="order-card__actions">
              {open && openHref ? (
                <Link className="button button--primary" to={openHref}>
                  {open.label}
                </Link>
              ) : null}
              {/* with an order link, paying is on the order's page */}
              {o.isPaymentActive && !open ? (
                <Link className="button button--primary" to={`/orders/${o.id}/pay`}>
                  {t('account.history.pay')}
                </Link>
              ) : null}
              {repeat ? (
                <Link className="button" to={repeat}>
                  {t('account.history.repeat')}
                </Link>
              ) : null}
            </div>
          </li>
        )
      })}
    </ul>
  )
}
