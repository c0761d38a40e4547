// /admin: the owner's overview — revenue (chart and per currency), orders by status, paid share,
// top products, low stock, orders that need a person (how many wait for delivery and the oldest,
// linking to the desk). Support members go to the orders.
import { data, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { fillDays, RevenueChart } from '#app/components/admin/revenue-chart'
import { StatusBadge } from '#app/components/admin/status-badge'
import { useWhen } from '#app/lib/shop-time'
import { useWaitText } from '#app/components/admin/waited'
import { useT } from '#app/i18n/i18n-context'
import { read, staffApi } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { setupLines } from '#app/lib/admin/overview-setup'
import { currencySign, formatWireAmount } from '#app/lib/money'
import { nodeEndOfLife } from '../../shared/node-support'
import { formatOrderNumber } from '../../shared/order-number'

export const meta = adminMeta('overview.title')

const PERIODS = ['1', '7', '30'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, me } = await staffApi(request, context)
  if (me.role !== 'owner') throw redirect('/admin/orders', { headers: api.headers })
  const raw = new URL(request.url).searchParams.get('days')
  const days = (PERIODS as readonly string[]).includes(raw ?? '') ? (raw as (typeof PERIODS)[number]) : '7'
  const overview = await read(
    request,
    api,
    api.client.GET('/api/admin/overview/', { params: { query: { days } } }),
  )
  // the Node.js rendering this page (in split mode the API's own start logs its own)
  const node = nodeEndOfLife()
  return data({ overview, today: new Date().toISOString().slice(0, 10), node }, { headers: api.headers })
}

const money = formatWireAmount

/** "2026-12-01" (a shop day) → «01.12.2026». */
const dayText = (day: string) => day.split('-').reverse().join('.')

export default function AdminOverview() {
  const formatWhen = useWhen()
  const t = useT()
  const { overview: o, today, node } = useLoaderData<typeof loader>()
  const waitText = useWaitText()
  const waiting = o.awaiting_delivery
  const currencies = [...new Set(o.revenue_by_day.map((r) => r.currency))]
  const setup = setupLines(o, t)
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.overview.title')}</h1>
      {node ? (
        <div className="admin-warning" role="alert" data-testid="node-end-of-life">
          <strong>
            {t('admin.overview.node_end_of_life', { version: node.version, date: node.endedOn })}
          </strong>{' '}
          {t('admin.overview.node_end_of_life_hint')}
        </div>
      ) : null}
      {o.payments_usable === 0 ? (
        <div className="admin-warning" role="alert" data-testid="no-payments-warning">
          <strong>{t('admin.payment_setup.overview_none')}</strong>{' '}
          <Link to="/admin/payments">{t('admin.payment_setup.overview_none_hint')}</Link>
        </div>
      ) : null}
      {o.mail.not_configured ? (
        <div className="admin-warning" role="alert">
          <strong>{t('admin.overview.mail_not_configured')}</strong>{' '}
          {t('admin.overview.mail_not_configured_hint')}
        </div>
      ) : null}
      {/* what a new shop still lacks (issue 37): shown until fixed, each line links to its screen */}
      {setup.length > 0 ? (
        <section className="admin-warning" role="alert" aria-labelledby="ov-setup">
          <h2 id="ov-setup">{t('admin.overview_alerts.setup')}</h2>
          <ul>
            {setup.map((l) => (
              <li key={l.key}>
                <Link to={l.to}>{l.text}</Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="card admin-section" aria-labelledby="ov-alerts">
        <h2 id="ov-alerts">{t('admin.overview_alerts.title')}</h2>
        {o.alerts.length === 0 ? (
          <p>{t('admin.overview_alerts.none')}</p>
        ) : (
          <ul className="admin-list">
            {o.alerts.map((a) => (
              <li key={a.cause} data-alert={a.cause}>
                <Link to={a.link}>{a.detail}</Link>{' '}
                <span className="field__hint">{formatWhen(a.opened_at)}</span>
              </li>
            ))}
          </ul>
        )}
        {o.reconciliation && o.reconciliation.open > 0 ? (
          <p>
            <Link to="/admin/reconciliation">
              {t('admin.reconciliation.overview', { n: o.reconciliation.open })}
            </Link>
          </p>
        ) : null}
        <p className="field__hint">{t('admin.overview_alerts.hint')}</p>
      </section>
      <nav className="admin-tabs" aria-label={t('admin.overview.period')}>
        {PERIODS.map((d) => (
          <Link key={d} to={`?days=${d}`} aria-current={String(o.days) === d ? 'page' : undefined}>
            {t(`admin.overview.days_${d}`)}
          </Link>
        ))}
      </nav>

      <div className="admin-grid">
        <section className="card" aria-labelledby="ov-revenue">
          <h2 id="ov-revenue">{t('admin.overview.revenue')}</h2>
          {o.revenue.length === 0 ? (
            <p>{t('admin.overview.no_revenue')}</p>
          ) : (
            <ul className="admin-figures" aria-label={t('admin.overview.revenue_money')}>
              {o.revenue.map((r) => (
                <li key={r.currency}>
                  <strong>{money(r.net, r.currency)}</strong>{' '}
                  <span className="field__hint">
                    ({t('admin.overview.gross')} {money(r.amount, r.currency)} −{' '}
                    {t('admin.overview.refunds').toLowerCase()} {money(r.refunds, r.currency)})
                  </span>
                </li>
              ))}
            </ul>
          )}
          {o.days > 1
            ? currencies.map((c) => (
                <RevenueChart
                  key={c}
                  currency={c}
                  total={money(o.revenue.find((r) => r.currency === c)?.amount ?? '0.00', c)}
                  rows={fillDays(
                    o.revenue_by_day.filter((r) => r.currency === c),
                    o.days,
                    today,
                  )}
                />
              ))
            : null}
          {o.revenue_by_day.length > 0 ? (
            <details>
              <summary>{t('admin.overview.revenue_table')}</summary>
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">{t('admin.overview.day')}</th>
                    <th scope="col">{t('admin.overview.currency')}</th>
                    <th scope="col">{t('admin.overview.amount')}</th>
                  </tr>
                </thead>
                <tbody>
                  {o.revenue_by_day.map((r) => (
                    <tr key={`${r.day}-${r.currency}`}>
                      <td>{dayText(r.day)}</td>
                      <td>{currencySign(r.currency)}</td>
                      <td>{money(r.amount, r.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          ) : null}
        </section>

        <section className="card" aria-labelledby="ov-orders">
          <h2 id="ov-orders">{t('admin.overview.orders')}</h2>
          <p>
            {t('admin.overview.created')}: <strong>{o.orders_created}</strong> · {t('admin.overview.paid')}:{' '}
            <strong>{o.orders_paid}</strong>
          </p>
          <p>{t('admin.overview.paid_share', { percent: o.paid_percent })}</p>
          <ul className="admin-figures">
            {Object.entries(o.orders_by_status).map(([status, n]) => (
              <li key={status}>
                <Link to={`/admin/orders?status=${status}`}>
                  <StatusBadge status={status} /> {n}
                </Link>
              </li>
            ))}
          </ul>
        </section>

        <section className="card" aria-labelledby="ov-attention">
          <h2 id="ov-attention">{t('admin.overview.attention')}</h2>
          <p data-testid="awaiting-delivery" className="admin-row">
            <Link to="/admin/delivery">
              {t('admin.overview.awaiting_delivery', { count: waiting.count })}
            </Link>
            {waiting.oldest_waiting_seconds !== null ? (
              <>
                {' '}
                · {t('admin.overview.awaiting_oldest', { time: waitText(waiting.oldest_waiting_seconds) })}
              </>
            ) : null}
          </p>
          {o.needs_attention.length === 0 ? (
            <p>{t('admin.overview.no_attention')}</p>
          ) : (
            <ul className="admin-list">
              {o.needs_attention.map((a) => (
                <li key={a.id}>
                  <Link to={`/admin/orders/${a.id}`}>{formatOrderNumber(a.number)}</Link>{' '}
                  <StatusBadge status={a.status} /> {formatWhen(a.created)}
                  {a.waiting ? (
                    <>
                      {' '}
                      <Link
                        to={
                          a.waiting === 'review'
                            ? '/admin/delivery/review'
                            : a.waiting === 'escalated'
                              ? '/admin/delivery?filter=escalated'
                              : '/admin/delivery'
                        }
                      >
                        {t(`admin.overview.waiting_${a.waiting}`)}
                      </Link>
                    </>
                  ) : null}
                  {a.reason ? <span className="field__hint"> — {a.reason}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </section>

        <section className="card" aria-labelledby="ov-mail">
          <h2 id="ov-mail">{t('admin.overview.mail')}</h2>
          <p>
            {t(`admin.overview.mail_transport_${o.mail.transport}`)} ·{' '}
            {o.mail.last_sent_at
              ? t('admin.overview.mail_last', { when: formatWhen(o.mail.last_sent_at) })
              : t('admin.overview.mail_never')}
          </p>
          {o.mail.retrying > 0 || o.mail.dead > 0 ? (
            <p className="admin-warning">
              {t('admin.overview.mail_failing', { retrying: o.mail.retrying, dead: o.mail.dead })}
            </p>
          ) : (
            <p>{t('admin.overview.mail_ok')}</p>
          )}
        </section>

        <section className="card" aria-labelledby="ov-top">
          <h2 id="ov-top">{t('admin.overview.top')}</h2>
          {o.top_products.length === 0 ? (
            <p>{t('admin.common.none')}</p>
          ) : (
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.overview.product')}</th>
                  <th scope="col">{t('admin.overview.quantity')}</th>
                  <th scope="col">{t('admin.overview.revenue')}</th>
                </tr>
              </thead>
              <tbody>
                {o.top_products.map((p) => (
                  <tr key={p.id}>
                    <td>{p.title}</td>
                    <td>{p.quantity}</td>
                    <td>{money(p.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>

        <section className="card" aria-labelledby="ov-stock">
          <h2 id="ov-stock">{t('admin.overview.low_stock')}</h2>
          {o.low_stock.length === 0 ? (
            <p>{t('admin.overview.no_low_stock')}</p>
          ) : (
            <ul className="admin-list">
              {o.low_stock.map((s) => (
                <li key={`${s.kind}-${s.id}`}>
                  <Link to={`/admin/stock/${s.kind === 'product' ? 'products' : 'gifts'}/${s.id}`}>
                    {s.title}
                  </Link>
                  : {t('admin.overview.free')} {s.free}, {t('admin.overview.sold')} {s.sold}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </section>
  )
}
