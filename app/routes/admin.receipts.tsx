// /admin/receipts (owner): every fiscal receipt as a receipt — filter by status, kind and the shop's
// days, find by the order's number; newest first, paged. The filters are a GET form: no script needed.
import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react'
import { Pager, pageFrom } from '#app/components/admin/pager'
import { ReceiptCard } from '#app/components/admin/receipt-card'
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
        <div className="field admin-filters__wide">
          <label htmlFor="receipts-q">{t('admin.receipts.q')}</label>
          <input
            id="receipts-q"
            name="q"
            type="search"
            defaultValue={filters.q ?? ''}
            maxLength={64}
            aria-describedby="receipts-q-hint"
          />
          <span className="field__hint" id="receipts-q-hint">
            {t('admin.receipts.q_hint')}
          </span>
        </div>
        <div className="field">
          <label htmlFor="receipts-status">{t('admin.receipts.status')}</label>
          <select id="receipts-status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">{t('admin.receipts.any_status')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`admin.receipts.statuses.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="receipts-kind">{t('admin.receipts.kind')}</label>
          <select id="receipts-kind" name="kind" defaultValue={filters.kind ?? ''}>
            <option value="">{t('admin.receipts.any_kind')}</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`admin.receipts.kinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="receipts-from">{t('admin.receipts.from')}</label>
          <input id="receipts-from" name="from" type="date" defaultValue={filters.from ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="receipts-to">{t('admin.receipts.to')}</label>
          <input id="receipts-to" name="to" type="date" defaultValue={filters.to ?? ''} />
        </div>
        <div className="admin-filters__buttons">
          <button type="submit" className="button button--primary">
            {t('admin.receipts.find')}
          </button>
          <Link to="/admin/receipts" className="button">
            {t('admin.receipts.reset')}
          </Link>
        </div>
      </Form>

      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : (
        <p role="status">{t('admin.receipts.found', { count })}</p>
      )}
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
