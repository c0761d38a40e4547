// /orders/lookup/{token}: the orders of the email a «Найти заказ» mail was sent to, with their
// statuses and delivered codes. The token is the whole credential: no-store, noindex.
import {
  data,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { metaT } from '#app/components/catalogue/meta-t'
import { UserOrderList } from '#app/components/user-order-list'
import { useT } from '#app/i18n/i18n-context'
import { ApiResponseError, apiFor, must } from '#app/lib/api/client.server'
import { toOrderHistoryView } from '#app/lib/order-history'
import accountCss from '#app/styles/account.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('order_lookup.list_title') },
  { name: 'robots', content: 'noindex' },
]

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders

const dateFormat = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
})

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const api = apiFor(request, context)
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'private, no-store')
  try {
    const found = await must(
      api.client.GET('/api/orders/lookup/{token}/', { params: { path: { token: params.token ?? '' } } }),
    )
    return data(
      {
        ok: true as const,
        email: found.email,
        expires: found.expires,
        orders: found.results.map(toOrderHistoryView),
        accountOrderIds: found.account_order_ids,
      },
      { headers },
    )
  } catch (error) {
    if (!(error instanceof ApiResponseError)) throw error
    return data(
      { ok: false as const, message: error.message },
      { status: error.status >= 500 ? 503 : error.status, headers },
    )
  }
}

export default function OrderLookupPage() {
  const t = useT()
  const page = useLoaderData<typeof loader>()
  if (!page.ok)
    return (
      <section className="auth-page card" aria-labelledby="lookup-title">
        <h1 id="lookup-title">{t('order_lookup.invalid_title')}</h1>
        <p role="alert">{page.message}</p>
        <p>
          <Link className="button button--primary" to="/orders/find">
            {t('order_lookup.find_again')}
          </Link>
        </p>
      </section>
    )
  const viaAccount = new Set(page.accountOrderIds)
  return (
    <section className="order-history" aria-labelledby="lookup-title">
      <h1 id="lookup-title">{t('order_lookup.list_title')}</h1>
      <p>{t('order_lookup.list_intro', { email: page.email })}</p>
      <p className="field__hint">
        {t('order_lookup.list_expires', { date: dateFormat.format(new Date(page.expires)) })}
      </p>
      {page.orders.length === 0 ? (
        <p className="card">{t('order_lookup.empty')}</p>
      ) : (
        <UserOrderList
          orders={page.orders}
          headingLevel={2}
          open={{
            label: t('order_lookup.open'),
            none: t('order_lookup.account_order'),
            // an order placed while signed in opens only for its account
            href: (o) => (viaAccount.has(o.id) ? null : `/orders/${o.id}/pay`),
          }}
        />
      )}
    </section>
  )
}
