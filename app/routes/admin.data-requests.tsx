// /admin/data-requests — personal data requests (152-ФЗ) confirmed by their mailed link: staff
// tasks with the legal deadline (10 working days), open soonest first, each with «Отметить
// выполненным» (audited) as a post form that works without JavaScript. Support and owners.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AdminForm, Field, Submit } from '#app/components/admin/admin-form'
import { useWhen } from '#app/lib/shop-time'
import { useT } from '#app/i18n/i18n-context'
import { adminT, badIntent, read, readForm, settle, staffApi } from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'

export const meta = adminMeta('data_requests.title')

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await staffApi(request, context)
  const status = new URL(request.url).searchParams.get('status') === 'done' ? 'done' : 'open'
  const list = await read(
    request,
    api,
    api.client.GET('/api/admin/data-requests/', { params: { query: { status } } }),
  )
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'no-store')
  return data({ list, status, today: new Date().toISOString().slice(0, 10) }, { headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await staffApi(request, context)
  const posted = await readForm(request)
  const id = String(posted.form.get('request') ?? '')
  if (posted.intent !== 'done' || !UUID.test(id)) badIntent()
  return settle(
    request,
    api,
    posted,
    api.client.POST('/api/admin/data-requests/{id}/done/', {
      params: { path: { id } },
      body: { note: String(posted.form.get('note') ?? '').trim() },
    }),
    adminT('admin.data_requests.marked'),
  )
}

/** «7 декабря 2026» from a calendar date. */
const formatDay = (day: string) =>
  new Intl.DateTimeFormat('ru-RU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`))

export default function AdminDataRequests() {
  const formatWhen = useWhen()
  const t = useT()
  const { list, status, today } = useLoaderData<typeof loader>()
  return (
    <section className="admin-page" aria-labelledby="dr-heading">
      <h1 id="dr-heading">{t('admin.data_requests.title')}</h1>
      <p className="field__hint">{t('admin.data_requests.intro')}</p>
      <nav className="admin-tabs" aria-label={t('admin.data_requests.title')}>
        <Link to="?status=open" aria-current={status === 'open' ? 'page' : undefined}>
          {t('admin.data_requests.open')}
        </Link>
        <Link to="?status=done" aria-current={status === 'done' ? 'page' : undefined}>
          {t('admin.data_requests.done')}
        </Link>
      </nav>
      {list.length === 0 ? (
        <p>{t(status === 'open' ? 'admin.data_requests.none_open' : 'admin.data_requests.none_done')}</p>
      ) : (
        <ul className="admin-cards">
          {list.map((r) => (
            <li key={r.id} className="card" data-testid={`data-request-${r.id}`}>
              <h2>{t(`admin.data_requests.kinds.${r.kind}`)}</h2>
              <p>
                <strong>{r.email}</strong>
                <br />
                <span className="field__hint">
                  {t('admin.data_requests.received', { when: formatWhen(r.received) })}
                </span>
              </p>
              {r.status === 'open' ? (
                <p className={r.due_date < today ? 'form-error' : undefined}>
                  <strong>{t('admin.data_requests.due', { date: formatDay(r.due_date) })}</strong>
                  {r.due_date < today ? ` — ${t('admin.data_requests.overdue')}` : null}
                </p>
              ) : (
                <p>
                  {t('admin.data_requests.done_at', { when: r.done_at ? formatWhen(r.done_at) : '' })}
                  {r.note ? ` — ${r.note}` : null}
                </p>
              )}
              <p className="admin-wrap">
                <span className="field__hint">{t('admin.data_requests.text')}: </span>
                {r.text || t('admin.data_requests.no_text')}
              </p>
              {r.status === 'open' ? (
                <AdminForm
                  formKey={`done-${r.id}`}
                  intent="done"
                  label={t('admin.data_requests.mark_done')}
                  hidden={{ request: r.id }}
                >
                  <Field name="note" label={t('admin.data_requests.note')} type="textarea" rows={2} />
                  <Submit>{t('admin.data_requests.mark_done')}</Submit>
                </AdminForm>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
