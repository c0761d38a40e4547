// The back-office's door for the owner-to-be: signed in with an ADMIN_EMAILS address that is not
// confirmed yet. Says why the back-office is closed and sends the confirmation mail again (issue
// 37). Anyone else who opens it gets the unknown-address 404, as /admin gives them.
import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { ErrorList } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { hasAccessCookie } from '#app/lib/account.server'
import { type ApiSession, apiFor, errorText } from '#app/lib/api/client.server'
import accountCss from '#app/styles/account.css?url'
import { metaT } from '#app/components/catalogue/meta-t'

export const links = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('account.owner_pending.title') },
  { name: 'robots', content: 'noindex' },
]

export const headers: HeadersFunction = () => ({ 'cache-control': 'no-store' })

function notFound(request: Request, headers?: Headers): never {
  throw data({ message: `Page not found: ${new URL(request.url).pathname}` }, { status: 404, headers })
}

/** The caller's email when they are the owner-to-be; staff go to /admin, others to the 404. */
async function pendingOwnerEmail(request: Request, api: ApiSession): Promise<string> {
  const { data: me, error } = await api.client.GET('/api/admin/me/')
  if (me) throw redirect('/admin', { headers: api.headers })
  if ((error as { code?: string } | undefined)?.code !== 'owner_email_unconfirmed')
    notFound(request, api.headers)
  const { data: profile } = await api.client.GET('/api/auth/profile/')
  return profile?.email ?? ''
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!hasAccessCookie(request)) notFound(request)
  const api = apiFor(request, context)
  const email = await pendingOwnerEmail(request, api)
  return data({ email }, { headers: api.headers })
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (!hasAccessCookie(request)) notFound(request)
  const { t } = await getServerT(request)
  const api = apiFor(request, context)
  const email = await pendingOwnerEmail(request, api)
  const { data: ok, error, response } = await api.client.POST('/api/auth/email/confirm/resend/')
  if (!ok)
    return data(
      { sent: false, error: errorText(error) ?? t('errors.generic_error') },
      { status: response.status === 429 ? 429 : 400, headers: api.headers },
    )
  return data({ sent: true, error: undefined, email }, { headers: api.headers })
}

export default function OwnerPendingPage() {
  const t = useT()
  const { email } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state !== 'idle'
  return (
    <section className="auth-page card">
      <h1>{t('account.owner_pending.title')}</h1>
      <p>{t('account.owner_pending.intro', { email })}</p>
      <p>{t('account.owner_pending.why')}</p>
      {result?.sent ? (
        <p role="status">{t('account.owner_pending.sent', { email })}</p>
      ) : (
        <Form method="post">
          <ErrorList errors={result?.error} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('account.owner_pending.resend')}
          </button>
        </Form>
      )}
    </section>
  )
}
