import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Form, useLoaderData } from '@remix-run/react'
import { UserOrderList } from '#app/components/user-order-list'
import { Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import { HISTORY_PAGE_SIZE, loadUser, requireAccessCookie } from '#app/lib/account.server'
import { apiFor, must } from '#app/lib/api/client.server'
import { markPersonal, sharedPageHeaders } from '#app/lib/shared-page.server'
import { PrevNextPages } from '#app/components/prev-next-pages'
import { ORDER_STATUSES, type OrderStatus, toOrderHistoryView } from '#app/lib/order-history'

export const headers = sharedPageHeaders

/** Order history (§7): page size 50, a status filter as a GET form. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireAccessCookie(request)
  const url = new URL(request.url)
  const rawPage = url.searchParams.get('page') ?? '1'
  const page = /^[1-9]\d{0,5}$/.test(rawPage) ? Number(rawPage) : 1
  const rawStatus = url.searchParams.get('status') ?? ''
  const status = (ORDER_STATUSES as readonly string[]).includes(rawStatus)
    ? (rawStatus as OrderStatus)
    : undefined
  const api = apiFor(request, context)
  const result = await must(
    api.client.GET('/api/orders/', {
      params: { query: { page, page_size: HISTORY_PAGE_SIZE, ...(status ? { status } : {}) } },
    }),
  )
  const orders = result.results.map(toOrderHistoryView)
  // the buyer's own page, kept for them until their data changes (decision 103): not while it
  // shows delivered codes, since each showing of those is logged (code_views) and a kept copy
  // would show them unlogged; not without the header's account (its read failed)
  const showsCodes = orders.some(
    (o) => o.giftCode !== null || o.orderProducts.some((l) => l.codes.length > 0),
  )
  if (!showsCodes && (await loadUser(request, context))) markPersonal(api)
  return data(
    {
      orders,
      count: result.count,
      page,
      status: status ?? '',
      hasNext: result.next !== null,
      hasPrevious: result.previous !== null,
    },
    { headers: api.headers },
  )
}

export default function OrderHistory() {
  const t = useT()
  const { orders, page, status, hasNext, hasPrevious } = useLoaderData<typeof loader>()
  const pageHref = (p: number) => {
    const q = new URLSearchParams()
    if (status) q.set('status', status)
    if (p > 1) q.set('page', String(p))
    const s = q.toString()
    return s ? `/profile?${s}` : '/profile'
  }
  return (
    <section className="order-history" aria-labelledby="order-history-title">
      <h2 id="order-history-title">{t('account.history.title')}</h2>
      <Form method="get" action="/profile" className="order-history__filter">
        <Field id="order-status" label={t('account.history.status_filter')}>
          {(control) => (
            <select {...control} name="status" defaultValue={status}>
              <option value="">{t('account.history.all_statuses')}</option>
              {ORDER_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`account.statuses.${s}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="button">
          {t('account.history.apply')}
        </button>
      </Form>
      {orders.length === 0 ? <p>{t('account.history.empty')}</p> : <UserOrderList orders={orders} />}
      <PrevNextPages
        label={t('account.history.pages')}
        page={page}
        hasPrevious={hasPrevious}
        hasNext={hasNext}
        href={pageHref}
      />
    </section>
  )
}
