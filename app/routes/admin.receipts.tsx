// /admin/receipts (owner): every fiscal receipt as a receipt — filter by status, kind and the shop's
// days, find by the order's number; newest first, paged. The filters are a GET form: no script needed.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData, useLocation } from '@remix-run/react'
import { DateRangeFields, FilterButtons, SelectFilter } from '#app/components/admin/filter-fields'
import { Pager, pageFrom } from '#app/components/admin/pager'
import { ReceiptCard } from '#app/components/admin/receipt-card'
import { ErrorList, Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import { adminT, ownerApi } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { errorText } from '#app/lib/api/client.server'

export const meta = adminMeta('receipts.title')

const STATUSES = ['pending', 'registered', 'failed'] as const
const KINDS = ['prepayment', 'payment', 'settlement', 'refund'] as const
const PAGE_SIZE = 20

const oneOf = <T extends string>(list: readonly T[], v: string | undefined): T | undefined =>
  (list as readonly string[]).includes(v ?? '') ? (v as T) : undefined

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const search = new URL(request.url).searchParams
  const get = (k: string) => search.get(k)?.trim() || undefined
  const filters = {
    q: get('q'),
    status: oneOf(STATUSES, get('status')),
    kind: oneOf(KINDS, get('kind')),
    from: get('from'),
    to: get('to'),
  }
  const page = pageFrom(search)
  const found = await api.client.GET('/api/admin/receipts/', {
    params: { query: { ...filters, page, page_size: PAGE_SIZE } },
  })
  const error = found.data ? null : (errorText(found.error) ?? adminT('errors.generic_error'))
  return data(
    { filters, page, count: found.data?.count ?? 0, results: found.data?.results ?? [], error },
    { status: found.data ? 200 : found.response.status === 400 ? 400 : 503, headers: api.headers },
  )
}

export default function AdminReceipts() {
  const t = useT()
  const { filters, page, count, results, error } = useLoaderData<typeof loader>()
  const { search } = useLocation()
  return (
    <section aria-labelledby="admin-h1">
      <h1 id="admin-h1">{t('admin.receipts.title')}</h1>
      <p className="field__hint">{t('admin.receipts.intro')}</p>
      <Form method="get" className="admin-filters" role="search" aria-label={t('admin.receipts.search')}>
        <Field
          id="receipts-q"
          className="admin-filters__wide"
          label={t('admin.receipts.q')}
          hint={t('admin.receipts.q_hint')}
          name="q"
          type="search"
          defaultValue={filters.q ?? ''}
          maxLength={64}
        />
        <SelectFilter
          id="receipts-status"
          name="status"
          label={t('admin.receipts.status')}
          any={t('admin.receipts.any_status')}
          options={STATUSES.map((s) => ({ value: s, label: t(`admin.receipts.statuses.${s}`) }))}
          value={filters.status}
        />
        <SelectFilter
          id="receipts-kind"
          name="kind"
          label={t('admin.receipts.kind')}
          any={t('admin.receipts.any_kind')}
          options={KINDS.map((k) => ({ value: k, label: t(`admin.receipts.kinds.${k}`) }))}
          value={filters.kind}
        />
        <DateRangeFields
          idPrefix="receipts"
          labels={{ from: t('admin.receipts.from'), to: t('admin.receipts.to') }}
          from={filters.from}
          to={filters.to}
        />
        <FilterButtons
          find={t('admin.receipts.find')}
          reset={{ to: '/admin/receipts', label: t('admin.receipts.reset') }}
        />
      </Form>

      {error ? <ErrorList errors={error} /> : <p role="status">{t('admin.receipts.found', { count })}</p>}
      {results.length === 0 && !error ? <p>{t('admin.receipts.nothing')}</p> : null}
      <div className="admin-receipts">
        {results.map((r) => (
          <ReceiptCard key={r.id} receipt={r} />
        ))}
      </div>
      <Pager page={page} count={count} pageSize={PAGE_SIZE} search={search} />
    </section>
  )
}
