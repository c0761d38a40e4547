// /admin/reconciliation — «Сверка» (issue 43): the differences between the shop's books and the
// payment providers' (found hourly, or now by «Сверить сейчас»), each with its order and the two
// sides' amounts, and «Объяснено» with a note (audited). Owner only; every action is a post form
// that works without JavaScript; one column on a phone.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit } from '#app/components/admin/admin-form'
import { Pager } from '#app/components/admin/pager'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, idFrom, ownerApi, read, readForm, settle } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'
import { useWhen } from '#app/lib/shop-time'
import { formatAmount, parseMoney } from '#app/lib/money'
import { formatOrderNumber } from '../../shared/order-number'

export const meta = adminMeta('reconciliation.title')

const PAGE_SIZE = 20
const STATUSES = ['open', 'explained', 'resolved'] as const
type Status = (typeof STATUSES)[number]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const q = new URL(request.url).searchParams
  const status: Status = STATUSES.find((s) => s === q.get('status')) ?? 'open'
  const page = Math.max(1, Math.min(10_000, Number.parseInt(q.get('page') ?? '1', 10) || 1))
  const list = await read(
    request,
    api,
    api.client.GET('/api/admin/reconciliation/', {
      params: { query: { status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } },
    }),
  )
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'no-store')
  return data({ list, status, page, search: q.toString() }, { headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await ownerApi(request, context)
  const posted = await readForm(request)
  if (posted.intent === 'run')
    return settle(
      request,
      api,
      posted,
      api.client.POST('/api/admin/reconciliation/run/', { body: { hours: 24 } }),
      adminT('admin.reconciliation.ran'),
    )
  if (posted.intent !== 'explain') badIntent()
  const id = idFrom(posted.form.get('difference'))
  return settle(
    request,
    api,
    posted,
    api.client.POST('/api/admin/reconciliation/{id}/explain/', {
      params: { path: { id } },
      body: { note: String(posted.form.get('note') ?? '').trim() },
    }),
    adminT('admin.reconciliation.explained_done'),
  )
}

/** «1 101,60 ₽» from the wire's amount, «—» for the side that has nothing. */
function Money({ side }: { side: { amount: string; currency: string } | null }) {
  const t = useT()
  const minor = side ? parseMoney(side.amount) : null
  return <>{side && minor !== null ? formatAmount(minor, side.currency) : t('admin.reconciliation.none')}</>
}

type Row = ReturnType<typeof useLoaderData<typeof loader>>['list']['results'][number]

export default function AdminReconciliation() {
  const t = useT()
  const { list, status, page, search } = useLoaderData<typeof loader>()
  const formatWhen = useWhen()
  const facts = (d: Row): Array<[string, React.ReactNode]> => [
    [
      t('admin.reconciliation.order'),
      d.order_id ? (
        <Link key="o" to={`/admin/orders/${d.order_id}`}>
          {t('admin.reconciliation.open_order', {
            number: d.order_number ? formatOrderNumber(d.order_number) : d.order_id,
          })}
        </Link>
      ) : (
        t('admin.reconciliation.no_order')
      ),
    ],
    [
      t('admin.reconciliation.at_provider', { provider: t(`admin.reconciliation.providers.${d.provider}`) }),
      <Money key="p" side={d.provider_amount} />,
    ],
    [t('admin.reconciliation.in_shop'), <Money key="s" side={d.shop_amount} />],
    [t('admin.reconciliation.when'), formatWhen(d.occurred_at)],
    ...(d.external_id ? [[t('admin.reconciliation.external_id'), d.external_id] as [string, string]] : []),
  ]
  return (
    <section className="admin-page" aria-labelledby="rec-heading">
      <h1 id="rec-heading">{t('admin.reconciliation.title')}</h1>
      <p className="field__hint">{t('admin.reconciliation.intro')}</p>
      <AdminForm formKey="run" intent="run" label={t('admin.reconciliation.run')}>
        <Submit>{t('admin.reconciliation.run')}</Submit>
      </AdminForm>
      <nav className="admin-tabs" aria-label={t('admin.reconciliation.tabs')}>
        {STATUSES.map((s) => (
          <Link key={s} to={`?status=${s}`} aria-current={status === s ? 'page' : undefined}>
            {t(`admin.reconciliation.statuses.${s}`)}
          </Link>
        ))}
      </nav>
      {list.results.length === 0 ? (
        <p>{t(`admin.reconciliation.empty.${status}`)}</p>
      ) : (
        <ul className="admin-cards">
          {list.results.map((d) => (
            <li key={d.id} className="card" data-testid={`difference-${d.id}`}>
              <h2>{t(`admin.reconciliation.kinds.${d.kind}`)}</h2>
              <dl className="admin-dl">
                {facts(d).map(([k, v]) => (
                  <div key={k}>
                    <dt>{k}</dt>
                    <dd className="admin-break">{v}</dd>
                  </div>
                ))}
              </dl>
              {d.status === 'explained' ? (
                <p>
                  {t('admin.reconciliation.explained_by', {
                    who: d.explained_by ?? '—',
                    when: d.explained_at ? formatWhen(d.explained_at) : '',
                  })}
                  {d.note ? ` — ${d.note}` : null}
                </p>
              ) : null}
              {d.status === 'resolved' ? (
                <p>
                  {t('admin.reconciliation.resolved_at', {
                    when: d.resolved_at ? formatWhen(d.resolved_at) : '',
                  })}
                </p>
              ) : null}
              {d.status === 'open' ? (
                <AdminForm
                  formKey={`explain-${d.id}`}
                  intent="explain"
                  label={t('admin.reconciliation.explain')}
                  hidden={{ difference: String(d.id) }}
                >
                  <Field
                    name="note"
                    label={t('admin.reconciliation.note')}
                    type="textarea"
                    rows={2}
                    required
                  />
                  <Submit>{t('admin.reconciliation.explain')}</Submit>
                </AdminForm>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} count={list.count} pageSize={PAGE_SIZE} search={search} />
    </section>
  )
}
