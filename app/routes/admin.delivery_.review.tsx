// /admin/delivery/review — the delivery desk's «Проверка» tab (issue 34): paid orders the fraud
// rules held, oldest first, each with the rules that tripped, the buyer's other orders and the
// card's and address's history, and approve / reject as post forms that work without JavaScript.
// Support and owners.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit } from '#app/components/admin/admin-form'
import { useWhen } from '#app/lib/shop-time'
import { formatWireMoney } from '#app/lib/money'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, read, readForm, settle, staffApi } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { formatOrderNumber } from '../../shared/order-number'

export const meta = adminMeta('review.title')

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, me } = await staffApi(request, context)
  const held = await read(request, api, api.client.GET('/api/admin/reviews/'))
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'no-store')
  return data({ held, owner: me.role === 'owner' }, { headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await staffApi(request, context)
  const posted = await readForm(request)
  const id = String(posted.form.get('order') ?? '')
  if (!UUID.test(id)) badIntent()
  const path = { params: { path: { id } } }
  if (posted.intent === 'approve')
    return settle(
      request,
      api,
      posted,
      api.client.POST('/api/admin/orders/{id}/approve/', path),
      adminT('admin.review.done_approve'),
    )
  if (posted.intent === 'reject') {
    const reason = String(posted.form.get('reason') ?? '')
      .trim()
      .slice(0, 500)
    return settle(
      request,
      api,
      posted,
      api.client.POST('/api/admin/orders/{id}/reject/', { ...path, body: { reason } }),
      adminT('admin.review.done_reject'),
    )
  }
  badIntent()
}

type Held = ReturnType<typeof useLoaderData<typeof loader>>['held']['results'][number]

function Row({ k, children }: { k: string; children: React.ReactNode }) {
  return (
    <div>
      <dt>{k}</dt>
      <dd className="admin-break">{children}</dd>
    </div>
  )
}

function HeldCard({ o, owner }: { o: Held; owner: boolean }) {
  const formatWhen = useWhen()
  const t = useT()
  const k = (key: string, p?: Record<string, string | number>) => t(`admin.review.${key}`, p)
  const history = (h: { paid_orders_30d: number; emails_30d: number } | null) =>
    h ? k('history', { orders: h.paid_orders_30d, emails: h.emails_30d }) : '—'
  return (
    <li className="card desk-card" aria-labelledby={`review-${o.id}`}>
      <h2 id={`review-${o.id}`} className="desk-card__title">
        {o.game || '—'} · {formatOrderNumber(o.number)}
      </h2>
      <p>
        <strong>{k('rules_tripped')}:</strong> {o.rules.map((r) => k(`rules.${r}`)).join('; ')}
      </p>
      <dl className="admin-dl">
        <Row k={k('buyer')}>{o.email ?? '—'}</Row>
        <Row k={k('paid')}>{`${formatWhen(o.paid_at)} · ${formatWireMoney(o.total_to_pay)}`}</Row>
        <Row k={k('address')}>
          <span className="admin-mono">{o.client_address ?? '—'}</span> · {history(o.address_history)}
        </Row>
        <Row k={k('card')}>
          {o.card ? (
            <>
              <span className="admin-mono">{o.card.ref}</span>
              {o.card.issuer_country ? ` (${o.card.issuer_country})` : ''} · {history(o.card)}
            </>
          ) : (
            k('no_card')
          )}
        </Row>
        <Row k={k('country')}>{o.payment_country ?? '—'}</Row>
        {o.codes_hold === 'held' || o.codes_hold === 'lapsed' ? (
          <Row k={k('codes')}>
            {k(o.codes_hold === 'held' ? 'codes_held' : 'codes_lapsed', {
              until: o.codes_held_until ? formatWhen(o.codes_held_until) : '—',
            })}
          </Row>
        ) : null}
      </dl>
      <h3>{k('other_orders')}</h3>
      {o.other_orders.length === 0 ? (
        <p>{k('no_other_orders')}</p>
      ) : (
        <ul>
          {o.other_orders.map((x) => (
            <li key={x.id}>
              <Link to={`/admin/orders/${x.id}`}>{formatOrderNumber(x.number)}</Link> ·{' '}
              {t(`admin.status.${x.status}`)} · {formatWireMoney(x.total_to_pay)} · {formatWhen(x.created)}
            </li>
          ))}
        </ul>
      )}
      <div className="desk-actions">
        <AdminForm formKey={`approve-${o.id}`} intent="approve" label={k('approve')} hidden={{ order: o.id }}>
          <Submit>{k('approve')}</Submit>
        </AdminForm>
        <details>
          <summary>{k('reject')}</summary>
          <AdminForm formKey={`reject-${o.id}`} intent="reject" label={k('reject')} hidden={{ order: o.id }}>
            <Field name="reason" type="textarea" rows={2} label={k('reason')} hint={k('reason_hint')} />
            <Submit danger>{k('reject')}</Submit>
          </AdminForm>
        </details>
        <Link to={`/admin/orders/${o.id}`}>{k('open_order')}</Link>
      </div>
      {owner ? (
        <AdminForm
          formKey={`block-${o.id}`}
          intent="block_order"
          action="/admin/blocks"
          label={t('admin.blocks.block_order')}
          hidden={{ order: o.id }}
        >
          <p className="field__hint">{t('admin.blocks.block_order_hint')}</p>
          <Submit danger>{t('admin.blocks.block_order')}</Submit>
        </AdminForm>
      ) : null}
    </li>
  )
}

export default function AdminReview() {
  const t = useT()
  const { held, owner } = useLoaderData<typeof loader>()
  return (
    <section aria-labelledby="admin-h1">
      <nav className="admin-tabs" aria-label={t('admin.review.tabs')}>
        <Link to="/admin/delivery">{t('admin.delivery.title')}</Link> ·{' '}
        <strong aria-current="page">{t('admin.review.title')}</strong>
      </nav>
      <h1 id="admin-h1">{t('admin.review.title')}</h1>
      <p className="field__hint">{t('admin.review.intro')}</p>
      {held.results.length === 0 ? (
        <p>{t('admin.review.empty')}</p>
      ) : (
        <ol className="desk-list">
          {held.results.map((o) => (
            <HeldCard key={o.id} o={o} owner={owner} />
          ))}
        </ol>
      )}
    </section>
  )
}
