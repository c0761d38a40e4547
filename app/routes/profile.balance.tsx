import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { requireAccessCookie } from '#app/lib/account.server'
import { apiFor, must } from '#app/lib/api/client.server'
import { PrevNextPages } from '#app/components/prev-next-pages'
import { formatWireMoney } from '#app/lib/money'

const PAGE_SIZE = 20
const KINDS = ['cashback', 'spend', 'refund', 'correction'] as const

const dateFormat = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
})

/** «История баланса»: every change of the balance, newest first, pages as plain links. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireAccessCookie(request)
  const rawPage = new URL(request.url).searchParams.get('page') ?? '1'
  const page = /^[1-9]\d{0,5}$/.test(rawPage) ? Number(rawPage) : 1
  const api = apiFor(request, context)
  const result = await must(
    api.client.GET('/api/profile/balance_history/', {
      params: { query: { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } },
    }),
  )
  return data(
    {
      entries: result.results.map((e) => ({
        id: e.id,
        kind: (KINDS as readonly string[]).includes(e.kind) ? e.kind : 'correction',
        amount: e.amount,
        credit: !e.amount.startsWith('-'),
        orderId: e.order_id,
        // the short number (decision 135); a backend without it falls back to the id's start
        orderLabel: e.order_id ? String(e.order_number ?? e.order_id.slice(0, 8)) : null,
        created: e.created,
      })),
      page,
      hasNext: result.next !== null,
      hasPrevious: result.previous !== null,
    },
    { headers: api.headers },
  )
}

export default function BalanceHistory() {
  const t = useT()
  const { entries, page, hasNext, hasPrevious } = useLoaderData<typeof loader>()
  const pageHref = (p: number) => (p > 1 ? `/profile/balance?page=${p}` : '/profile/balance')
  return (
    <section className="balance-history" aria-labelledby="balance-history-title">
      <h2 id="balance-history-title">{t('account.balance_history.title')}</h2>
      {entries.length === 0 ? (
        <p>{t('account.balance_history.empty')}</p>
      ) : (
        <ul className="balance-history__list">
          {entries.map((e) => (
            <li key={e.id} className="balance-history__item card">
              <div>
                <strong>{t(`account.balance_history.kinds.${e.kind}`)}</strong>
                <time dateTime={e.created}>{dateFormat.format(new Date(e.created))}</time>
                {e.orderId ? (
                  <Link to={`/orders/${e.orderId}/pay`}>
                    {t('account.balance_history.order', { id: e.orderLabel ?? '' })}
                  </Link>
                ) : null}
              </div>
              <span
                className={
                  e.credit
                    ? 'balance-history__amount balance-history__amount--credit'
                    : 'balance-history__amount'
                }
              >
                {e.credit ? '+' : ''}
                {formatWireMoney(e.amount, t('common.currency'))}
              </span>
            </li>
          ))}
        </ul>
      )}
      <PrevNextPages
        label={t('account.balance_history.pages')}
        page={page}
        hasPrevious={hasPrevious}
        hasNext={hasNext}
        href={pageHref}
      />
    </section>
  )
}
