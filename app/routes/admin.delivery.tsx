// /admin/delivery — the delivery desk: paid orders waiting for a person, oldest first, each with
// everything needed to deliver it (Standoff: account, avatar, skin and the exact listing price;
// Steam: login, amount, currency; supply: user id and server), and the three actions as post
// forms that work without JavaScript. Support and owners.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit } from '#app/components/admin/admin-form'
import { useWhen } from '#app/lib/shop-time'
import { formatWireAmount, formatWireDecimal, formatWireMoney } from '#app/lib/money'
import { useWaitText, Waited } from '#app/components/admin/waited'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, read, readForm, settle, staffApi } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { formatOrderNumber } from '../../shared/order-number'

export const meta = adminMeta('delivery.title')

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const REASONS = ['not_listed', 'bad_account', 'cannot', 'buyer_cancelled', 'other'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, me } = await staffApi(request, context)
  const raw = Number(new URL(request.url).searchParams.get('page') ?? '1')
  const page = Number.isInteger(raw) && raw > 0 && raw < 100_000 ? raw : 1
  const filter = new URL(request.url).searchParams.get('filter') === 'escalated' ? 'escalated' : 'all'
  const desk = await read(
    request,
    api,
    api.client.GET('/api/admin/delivery/', { params: { query: { page, page_size: 50, filter } } }),
  )
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'no-store')
  return data({ desk, page, me, filter }, { headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await staffApi(request, context)
  const posted = await readForm(request)
  const id = String(posted.form.get('order') ?? '')
  if (!UUID.test(id)) badIntent()
  const path = { params: { path: { id } } }
  if (posted.intent === 'take')
    return settle(
      request,
      api,
      posted,
      api.client.POST('/api/admin/orders/{id}/take/', path),
      adminT('admin.delivery.done_take'),
    )
  if (posted.intent === 'delivered')
    return settle(
      request,
      api,
      posted,
      api.client.POST('/api/admin/orders/{id}/delivered/', path),
      adminT('admin.delivery.done_delivered'),
    )
  if (posted.intent === 'not_delivered') {
    const code = String(posted.form.get('reason') ?? '')
    const preset = (REASONS as readonly string[]).includes(code)
      ? adminT(`admin.delivery.reasons.${code}`)
      : adminT('admin.delivery.reasons.other')
    const comment = String(posted.form.get('comment') ?? '').trim()
    const reason = comment ? `${preset}: ${comment}`.slice(0, 500) : preset
    return settle(
      request,
      api,
      posted,
      api.client.POST('/api/admin/orders/{id}/not_delivered/', { ...path, body: { reason } }),
      adminT('admin.delivery.done_not_delivered'),
    )
  }
  badIntent()
}

type DeskOrder = ReturnType<typeof useLoaderData<typeof loader>>['desk']['results'][number]

function Facts({ rows }: { rows: Array<[string, React.ReactNode]> }) {
  return (
    <dl className="admin-dl">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd className="admin-break">{v}</dd>
        </div>
      ))}
    </dl>
  )
}

function KindFacts({ o }: { o: DeskOrder }) {
  const t = useT()
  const k = (key: string) => t(`admin.delivery.${key}`)
  if (o.standoff) {
    const s = o.standoff
    return (
      <>
        <Facts
          rows={[
            [
              k('standoff_account'),
              <span key="a" className="admin-mono">
                {s.game_account_id}
              </span>,
            ],
            [k('skin'), s.skin_name],
            [
              k('listing_price'),
              <strong key="p" className="admin-mono">
                {s.listing_price ? formatWireDecimal(s.listing_price) : '—'} G
              </strong>,
            ],
          ]}
        />
        <div className="desk-images">
          {s.game_avatar ? (
            <img src={s.game_avatar} alt={k('avatar')} width={96} height={96} loading="lazy" />
          ) : null}
          {s.skin_picture ? (
            <img src={s.skin_picture} alt={s.skin_name} width={96} height={64} loading="lazy" />
          ) : null}
        </div>
        <p className={s.skin_listed ? 'desk-listed' : 'field__hint'}>
          {k(s.skin_listed ? 'skin_listed_yes' : 'skin_listed_no')}
        </p>
      </>
    )
  }
  if (o.steam)
    return (
      <Facts
        rows={[
          [
            k('steam_login'),
            <span key="l" className="admin-mono">
              {o.steam.login}
            </span>,
          ],
          [k('steam_amount'), <strong key="m">{formatWireAmount(o.steam.amount, o.steam.currency)}</strong>],
          [k('steam_commission'), formatWireMoney(o.steam.commission)],
        ]}
      />
    )
  if (o.supply)
    return (
      <Facts
        rows={[
          [
            k('supply_user'),
            <span key="u" className="admin-mono">
              {o.supply.user_id}
            </span>,
          ],
          [
            k('supply_server'),
            o.supply.server
              ? `${o.supply.server.name} (${o.supply.server.code || o.supply.server.id})`
              : (o.supply.server_custom_id ?? '—'),
          ],
        ]}
      />
    )
  return null
}

/**
 * The automatic refund (decision 125): an order nobody took shows the time left before the money
 * goes back by itself; a taken one never goes back by itself, and past the deadline waits for the owner.
 */
function RefundClock({ o }: { o: DeskOrder }) {
  const t = useT()
  const wait = useWaitText()
  const k = (key: string, p?: Record<string, string | number>) => t(`admin.delivery.${key}`, p)
  if (o.escalated)
    return (
      <p className="desk-overdue" role="note">
        ⚠ {k('escalated')}
      </p>
    )
  if (!o.auto_refund) return <p className="field__hint">{k('auto_refund_off')}</p>
  if (o.assignee)
    return <p className="field__hint">{k('auto_refund_taken', { time: wait(o.auto_refund.seconds_left) })}</p>
  return (
    <p className={o.auto_refund.seconds_left < 2 * 3600 ? 'desk-overdue' : undefined}>
      {k('auto_refund_in', { time: wait(o.auto_refund.seconds_left) })}
    </p>
  )
}

function DeskCard({ o, myEmail }: { o: DeskOrder; myEmail: string }) {
  const formatWhen = useWhen()
  const t = useT()
  const k = (key: string, p?: Record<string, string | number>) => t(`admin.delivery.${key}`, p)
  const mine = o.assignee?.email === myEmail
  return (
    <li
      className={`card desk-card${o.overdue ? ' desk-card--overdue' : ''}`}
      aria-labelledby={`desk-${o.id}`}
    >
      <h2 id={`desk-${o.id}`} className="desk-card__title">
        {o.game.title} · {formatOrderNumber(o.number)}
      </h2>
      <p>
        <strong>
          <Waited seconds={o.waiting_seconds} />
        </strong>{' '}
        {o.overdue ? (
          <span className="desk-overdue">⚠ {k('overdue', { minutes: o.delivery_minutes })}</span>
        ) : (
          <span className="field__hint">{k('promised', { minutes: o.delivery_minutes })}</span>
        )}
      </p>
      <p>
        {o.assignee ? k('taken_by', { email: o.assignee.email }) : k('taken_free')}
        {o.assignee && !o.assignee.locked ? <span className="field__hint"> {k('lock_over')}</span> : null}
      </p>
      <RefundClock o={o} />
      <KindFacts o={o} />
      <Facts
        rows={[
          [k('lines'), o.lines.map((l) => `${l.title} × ${l.quantity}`).join(', ') || '—'],
          ...(o.player_nickname ? ([[k('player'), o.player_nickname]] as Array<[string, string]>) : []),
          [k('buyer'), o.email ?? '—'],
          [k('paid'), `${formatWhen(o.paid_at)} · ${formatWireMoney(o.total_to_pay)}`],
        ]}
      />
      <div className="desk-actions">
        {mine ? null : (
          <AdminForm formKey={`take-${o.id}`} intent="take" label={k('take')} hidden={{ order: o.id }}>
            <Submit>{k('take')}</Submit>
          </AdminForm>
        )}
        <AdminForm
          formKey={`delivered-${o.id}`}
          intent="delivered"
          label={k('delivered')}
          hidden={{ order: o.id }}
        >
          <Submit>{k('delivered')}</Submit>
        </AdminForm>
        <details>
          <summary>{k('not_delivered')}</summary>
          <AdminForm
            formKey={`not-delivered-${o.id}`}
            intent="not_delivered"
            label={k('not_delivered')}
            hidden={{ order: o.id }}
          >
            <Field
              name="reason"
              type="select"
              label={k('reason')}
              options={REASONS.map((r) => ({ value: r, label: k(`reasons.${r}`) }))}
            />
            <Field name="comment" type="textarea" rows={2} label={k('comment')} />
            <Submit danger>{k('not_delivered')}</Submit>
          </AdminForm>
        </details>
        <Link to={`/admin/orders/${o.id}`}>{k('open_order')}</Link>
      </div>
    </li>
  )
}

export default function AdminDelivery() {
  const t = useT()
  const { desk, page, me, filter } = useLoaderData<typeof loader>()
  const keep = filter === 'escalated' ? '&filter=escalated' : ''
  const pages = Math.max(1, Math.ceil(desk.count / 50))
  return (
    <section aria-labelledby="admin-h1">
      <nav className="admin-tabs" aria-label={t('admin.review.tabs')}>
        <strong aria-current="page">{t('admin.delivery.title')}</strong> ·{' '}
        <Link to="/admin/delivery/review">{t('admin.review.title')}</Link>
      </nav>
      <h1 id="admin-h1">{t('admin.delivery.title')}</h1>
      <p className="field__hint">{t('admin.delivery.intro')}</p>
      <p className="field__hint">{t('admin.delivery.auto_refund_rule')}</p>
      <nav className="admin-tabs" aria-label={t('admin.delivery.filter')}>
        {filter === 'all' ? (
          <strong aria-current="page">{t('admin.delivery.filter_all')}</strong>
        ) : (
          <Link to="/admin/delivery">{t('admin.delivery.filter_all')}</Link>
        )}{' '}
        ·{' '}
        {filter === 'escalated' ? (
          <strong aria-current="page">
            {t('admin.delivery.filter_escalated', { count: desk.escalated_count })}
          </strong>
        ) : (
          <Link to="/admin/delivery?filter=escalated">
            {t('admin.delivery.filter_escalated', { count: desk.escalated_count })}
          </Link>
        )}
      </nav>
      <p>
        <strong>
          {filter === 'escalated'
            ? t('admin.delivery.escalated_count', { count: desk.count })
            : t('admin.delivery.waiting', { count: desk.count })}
        </strong>
      </p>
      {desk.results.length === 0 ? (
        <p>{filter === 'escalated' ? t('admin.delivery.escalated_empty') : t('admin.delivery.empty')}</p>
      ) : (
        <ol className="desk-list">
          {desk.results.map((o) => (
            <DeskCard key={o.id} o={o} myEmail={me.email} />
          ))}
        </ol>
      )}
      {pages > 1 ? (
        <nav className="admin-pages" aria-label={t('admin.delivery.title')}>
          {page > 1 ? <Link to={`?page=${page - 1}${keep}`}>← {t('admin.delivery.previous')}</Link> : null}{' '}
          {page < pages ? <Link to={`?page=${page + 1}${keep}`}>{t('admin.delivery.next')} →</Link> : null}
        </nav>
      ) : null}
    </section>
  )
}
