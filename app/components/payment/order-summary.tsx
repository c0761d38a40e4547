import { useT } from '#app/i18n/i18n-context'
import type { Order, StatusResult } from '#app/lib/view-models/order'
import { formatAmount } from '#app/lib/money'
import { PROMO_TARGET } from '#app/lib/order-form/promo-target'

/**
 * What was ordered: the products (or the gift), the account it goes to and the totals (a done
 * order's codes lead the page instead, see DeliveredCodes). `charged`: what the payment under way
 * will charge, or charged (the method's fee included), so the totals reach it line by line.
 */
export function OrderSummary({ order, charged }: { order: Order; charged?: StatusResult['charged'] }) {
  const t = useT()
  const item = order.gift ?? order.game
  return (
    <section className="card pay-order" aria-labelledby="order-summary-heading">
      <h2 id="order-summary-heading">
        {order.gift ? t('payment.gift_heading') : t('payment.summary_heading')}
      </h2>
      {item ? (
        <p className="pay-order__item">
          {item.logo ? <img src={item.logo} alt="" width={48} height={48} /> : null}
          <strong>{item.title}</strong>
        </p>
      ) : null}
      {order.lines.length > 0 ? <OrderLines order={order} /> : null}
      {order.steam ? (
        <dl className="pay-dl">
          <div className="pay-dl__row">
            <dt>{t('payment.steam_amount')}</dt>
            <dd>{formatAmount(order.steam.amount)}</dd>
          </div>
          <div className="pay-dl__row">
            <dt>{t('payment.steam_commission')}</dt>
            <dd>{formatAmount(order.steam.commission)}</dd>
          </div>
        </dl>
      ) : null}
      <AccountData order={order} />
      <Totals order={order} charged={charged ?? null} />
    </section>
  )
}

function OrderLines({ order }: { order: Order }) {
  const t = useT()
  return (
    <table className="pay-lines">
      <caption className="visually-hidden">{t('payment.summary_heading')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('payment.product')}</th>
          <th scope="col">{t('payment.quantity')}</th>
          <th scope="col" className="pay-lines__price">
            {t('payment.price')}
          </th>
          <th scope="col">{t('payment.line_total')}</th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line) => (
          <tr key={line.id}>
            <th scope="row">{line.title}</th>
            <td>{t('payment.line_quantity', { quantity: line.quantity })}</td>
            <td className="pay-lines__price">{formatAmount(line.price)}</td>
            <td>{formatAmount(line.total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function AccountData({ order }: { order: Order }) {
  const t = useT()
  const a = order.account
  const rows: Array<[string, string]> = []
  if (a.gameAccountId) rows.push([t('payment.account.game_account_id'), a.gameAccountId])
  if (a.steamAccountId) rows.push([t('payment.account.steam_account_id'), a.steamAccountId])
  if (a.supplyUserId) rows.push([t('payment.account.supply_user_id'), a.supplyUserId])
  if (a.supplyServer) rows.push([t('payment.account.supply_server'), a.supplyServer])
  if (a.playerNickname) rows.push([t('payment.account.player_nickname'), a.playerNickname])
  if (a.email) rows.push([t('payment.account.email'), a.email])
  if (rows.length === 0 && !a.gameAvatar) return null
  return (
    <>
      <h3>{t('payment.account_heading')}</h3>
      <dl className="pay-dl">
        {rows.map(([label, value]) => (
          <div key={label} className="pay-dl__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {a.gameAvatar ? (
          <div className="pay-dl__row">
            <dt>{t('payment.account.game_avatar')}</dt>
            <dd>
              <img
                className="pay-avatar"
                src={a.gameAvatar}
                alt={t('payment.account.game_avatar')}
                width={64}
                height={64}
              />
            </dd>
          </div>
        ) : null}
      </dl>
    </>
  )
}

function Totals({ order, charged }: { order: Order; charged: StatusResult['charged'] }) {
  const t = useT()
  const discount = order.totalWithoutPromo - order.totalWithPromo
  return (
    <>
      <h3>{t('payment.totals_heading')}</h3>
      <dl className="pay-dl pay-totals" aria-live="polite">
        <div className="pay-dl__row">
          <dt>{t('payment.total_without_promo')}</dt>
          <dd data-testid="total-without-promo">{formatAmount(order.totalWithoutPromo)}</dd>
        </div>
        {discount > 0 ? (
          <>
            <div className="pay-dl__row">
              <dt>
                {order.promoPercent
                  ? t(
                      PROMO_TARGET[order.kind] === 'commission'
                        ? 'payment.promo_discount_commission'
                        : 'payment.promo_discount_percent',
                      { percent: order.promoPercent },
                    )
                  : t('payment.promo_discount')}
              </dt>
              <dd>−{formatAmount(discount)}</dd>
            </div>
            <div className="pay-dl__row">
              <dt>{t('payment.total_with_promo')}</dt>
              <dd data-testid="total-with-promo">{formatAmount(order.totalWithPromo)}</dd>
            </div>
          </>
        ) : null}
        {order.balanceUsed > 0 ? (
          <div className="pay-dl__row">
            <dt>{t('payment.balance_used')}</dt>
            <dd>−{formatAmount(order.balanceUsed)}</dd>
          </div>
        ) : null}
        <div className="pay-dl__row pay-totals__to-pay">
          <dt>{t('payment.total_to_pay')}</dt>
          <dd data-testid="total-to-pay">{formatAmount(order.totalToPay)}</dd>
        </div>
        {charged && charged.fee > 0 ? (
          // the payment method's fee is its own line, so the lines reach what is charged (issue 43)
          <>
            <div className="pay-dl__row">
              <dt>{t('payment.method_fee')}</dt>
              <dd data-testid="method-fee">+{formatAmount(charged.fee)}</dd>
            </div>
            <div className="pay-dl__row pay-totals__to-pay">
              <dt>{t(charged.paid ? 'payment.total_charged_paid' : 'payment.total_charged')}</dt>
              <dd data-testid="total-charged">{formatAmount(charged.amount)}</dd>
            </div>
          </>
        ) : null}
      </dl>
    </>
  )
}
