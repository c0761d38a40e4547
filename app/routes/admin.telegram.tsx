// /admin/telegram — staff in Telegram (issue 49): a staff member links their Telegram with a
// one-time deep link (the post answers a redirect to t.me, so it works without JavaScript); the
// owner chooses which alerts go to whom; a link is undone here. Support and owners.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { useWhen } from '#app/lib/shop-time'
import { AdminForm, Submit } from '#app/components/admin/admin-form'
import { CheckField } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import {
  adminT,
  badIntent,
  done,
  formFailure,
  idFrom,
  read,
  readForm,
  settle,
  staffApi,
} from '#app/lib/admin/admin.server'
import { adminMeta } from '#app/lib/admin/meta'

export const meta = adminMeta('telegram.title')

const ALERTS = ['waiting', 'review', 'staff_mail', 'alerts'] as const

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, me } = await staffApi(request, context)
  const status = await read(request, api, api.client.GET('/api/admin/telegram/'))
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'no-store')
  return data({ status, me }, { headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await staffApi(request, context)
  const posted = await readForm(request)
  if (posted.intent === 'link') {
    const { data: link, error, response } = await api.client.POST('/api/admin/telegram/link/')
    if (!link) return formFailure(posted.key, posted.form, error, response, api)
    // the one-time link opens Telegram; the code in it is the only copy
    return redirect(link.url, { headers: api.headers })
  }
  const userId = idFrom(posted.form.get('user'))
  const path = { params: { path: { user_id: userId } } }
  if (posted.intent === 'unlink')
    return settle(
      request,
      api,
      posted,
      api.client.DELETE('/api/admin/telegram/staff/{user_id}/', path),
      adminT('admin.telegram.unlinked'),
    )
  if (posted.intent === 'alerts') {
    const alerts = posted.form
      .getAll('alerts')
      .filter((a): a is (typeof ALERTS)[number] => (ALERTS as readonly unknown[]).includes(a))
    const { error, response } = await api.client.PUT('/api/admin/telegram/staff/{user_id}/', {
      ...path,
      body: { alerts },
    })
    if (!response.ok) return formFailure(posted.key, posted.form, error, response, api)
    return done(request, api, adminT('admin.telegram.saved'))
  }
  badIntent()
}

export default function AdminTelegram() {
  const formatWhen = useWhen()
  const { status, me } = useLoaderData<typeof loader>()
  const t = useT()
  const mine = status.me
  return (
    <section className="admin-page" aria-labelledby="telegram-title">
      <h1 id="telegram-title">{t('admin.telegram.title')}</h1>
      <p>{t('admin.telegram.intro')}</p>
      {!status.configured ? (
        <p role="status">{t('admin.telegram.not_configured')}</p>
      ) : (
        <>
          <p>
            {t(status.mode === 'webhook' ? 'admin.telegram.mode_webhook' : 'admin.telegram.mode_polling')}
          </p>
          {mine ? (
            <>
              <p role="status">
                {t('admin.telegram.linked', {
                  name: mine.telegram_name || '—',
                  when: formatWhen(mine.linked_at),
                })}
              </p>
              <AdminForm
                formKey="unlink-me"
                intent="unlink"
                label={t('admin.telegram.unlink_form', { email: me.email })}
                hidden={{ user: mine.user_id }}
              >
                <Submit danger>{t('admin.telegram.unlink')}</Submit>
              </AdminForm>
            </>
          ) : (
            <p role="status">{t('admin.telegram.not_linked')}</p>
          )}
          <AdminForm formKey="link" intent="link" label={t('admin.telegram.link_form')}>
            <p className="admin-hint">{t('admin.telegram.link_hint')}</p>
            <Submit>{t('admin.telegram.link')}</Submit>
          </AdminForm>
        </>
      )}
      {status.staff ? (
        <>
          <h2>{t('admin.telegram.staff_title')}</h2>
          {status.staff.length === 0 ? <p>{t('admin.telegram.staff_empty')}</p> : null}
          {status.staff.map((s) => (
            <AdminForm
              key={s.user_id}
              formKey={`alerts-${s.user_id}`}
              intent="alerts"
              label={t('admin.telegram.alerts_form', { email: s.email })}
              hidden={{ user: s.user_id }}
            >
              <fieldset>
                <legend>
                  {s.email} · {s.telegram_name || '—'}
                </legend>
                {ALERTS.map((a) => (
                  // the back-office's checkbox field: a phone-sized target (tests/e2e phone checks)
                  <CheckField
                    key={a}
                    id={`alert-${s.user_id}-${a}`}
                    name="alerts"
                    value={a}
                    defaultChecked={s.alerts.includes(a)}
                    label={t(`admin.telegram.alerts.${a}`)}
                  />
                ))}
              </fieldset>
              <Submit>{t('admin.telegram.save')}</Submit>
            </AdminForm>
          ))}
        </>
      ) : null}
    </section>
  )
}
