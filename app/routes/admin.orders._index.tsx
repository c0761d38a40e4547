// /admin/orders: search by id, email, status, game and dates; newest first; paged.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { DateRangeFields, FilterButtons, SelectFilter } from '#app/components/admin/filter-fields'
import { Pager, pageFrom } from '#app/components/admin/pager'
import { StatusBadge } from '#app/components/admin/status-badge'
import { ErrorList, Field } from '#app/components/form/field'
import { useWhen } from '#app/lib/shop-time'
import { useT } from '#app/i18n/i18n-context'
import { adminT, staffApi } from '#app/lib/admin/admin.server'
import { errorText } from '#app/lib/api/client.server'
import { adminMeta } from '#app/lib/admin/meta'
import { formatWireMoney } from '#app/lib/money'
import { formatOrderNumber } from '../../shared/order-number'

export const meta = adminMeta('orders.title')

const STATUSES = ['created', 'waiting_for_payment', 'paid', 'sending', 'sent', 'done', 'failed'] as const
type Status = (typeof STATUSES)[number]
const PAGE_SIZE = 50
const REFUND_STATES = ['manual', 'pending', 'done'] as const
type RefundState = (typeof REFUND_STATES)[number]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await staffApi(request, context)
  const search = new URL(request.url).searchParams
  const get = (k: string) => search.get(k)?.trim() || undefined
  const status = get('status')
  const game = get('game')
  const refund = get('refund')
  const filters = {
    q: get('q'),
    status: (STATUSES as readonly string[]).includes(status ?? '') ? (status as Status) : undefined,
    game: game && /^\d{1,9}$/.test(game) ? Number(game) : undefined,
    from: get('from'),
    to: get('to'),
    refund: (REFUND_STATES as readonly string[]).includes(refund ?? '') ? (refund as RefundState) : undefined,
  }
  const page = pageFrom(search)
  const [found, games] = await Promise.all([
    api.client.GET('/api/admin/orders/', { params: { query: { ...filters, page, page_size: PAGE_SIZE } } }),
    api.client.GET('/api/games/', { params: { query: { limit: 100 } } }),
  ])
  const error = found.data ? null : (errorText(found.error) ?? adminT('errors.generic_error'))
  return data(
    {
      filters,
      page,
      count: found.data?.count ?? 0,
      results: found.data?.results ?? [],
      error,
      games: (games.data?.results ?? []).map((g) => ({ id: g.id, title: g.title })),
    },
    { status: found.data ? 200 : found.response.status === 400 ? 400 : 503, headers: api.headers },
  )
}

export default function AdminOrders() {
  const formatWhen = useWhen()
  const t = useT()
  const { filters, page, count, results, error, games } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.orders.title')}</h1>
      <Form method="get" className="admin-filters" role="search" aria-label={t('admin.orders.search')}>
        <Field
          id="orders-q"
          className="admin-filters__wide"
          label={t('admin.orders.q')}
          hint={t('admin.orders.q_hint')}
          name="q"
          type="search"
          defaultValue={filters.q ?? ''}
          maxLength={254}
        />
        <SelectFilter
          id="orders-status"
          name="status"
          label={t('admin.orders.status')}
          any={t('admin.orders.any_status')}
          options={STATUSES.map((s) => ({ value: s, label: t(`admin.status.${s}`) }))}
          value={filters.status}
        />
        <SelectFilter
          id="orders-refund"
          name="refund"
          label={t('admin.orders.refund_title')}
          any={t('admin.orders.any_refund')}
          options={REFUND_STATES.map((s) => ({ value: s, label: t(`admin.orders.refund_states.${s}`) }))}
          value={filters.refund}
        />
        <SelectFilter
          id="orders-game"
          name="game"
          label={t('admin.orders.game')}
          any={t('admin.orders.any_game')}
          options={games.map((g) => ({ value: g.id, label: g.title }))}
          value={filters.game}
        />
        <DateRangeFields
          idPrefix="orders"
          labels={{ from: t('admin.orders.from'), to: t('admin.orders.to') }}
          from={filters.from}
          to={filters.to}
        />
        <FilterButtons
          find={t('admin.orders.find')}
          reset={{ to: '/admin/orders', label: t('admin.orders.reset') }}
        />
      </Form>

      {error ? <ErrorList errors={error} /> : <p role="status">{t('admin.orders.found', { count })}</p>}
      {results.length === 0 ? (
        error ? null : (
          <p>{t('admin.orders.nothing')}</p>
        )
      ) : (
        <table className="admin-table admin-table--cards">
          <caption className="visually-hidden">{t('admin.orders.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.common.id')}</th>
              <th scope="col">{t('admin.orders.created')}</th>
              <th scope="col">{t('admin.orders.status')}</th>
              <th scope="col">{t('admin.orders.item')}</th>
              <th scope="col">{t('admin.orders.email')}</th>
              <th scope="col">{t('admin.orders.total')}</th>
            </tr>
          </thead>
          <tbody>
            {results.map((o) => (
              <tr key={o.id}>
                <th scope="row" data-label={t('admin.common.id')}>
                  <Link
                    to={`/admin/orders/${o.id}`}
                    aria-label={t('admin.orders.order', { number: o.number })}
                  >
                    {formatOrderNumber(o.number)}
                  </Link>
                </th>
                <td data-label={t('admin.orders.created')}>{formatWhen(o.created)}</td>
                <td data-label={t('admin.orders.status')}>
                  <StatusBadge status={o.status} />
                  {o.refund_status ? (
                    <span className="field__hint">
                      {' '}
                      · {t('admin.orders.refund_title')}: {t(`admin.orders.refund_states.${o.refund_status}`)}
                    </span>
                  ) : null}
                </td>
                <td data-label={t('admin.orders.item')}>{o.item}</td>
                <td data-label={t('admin.orders.email')} className="admin-break">
                  {o.email ?? '—'}{' '}
                  <span className="field__hint">
                    ({o.signed_in ? t('admin.orders.account') : t('admin.orders.guest')})
                  </span>
                </td>
                <td data-label={t('admin.orders.total')}>{formatWireMoney(o.total_to_pay)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} count={count} pageSize={PAGE_SIZE} search={search} />
    </section>
  )
}
