// The page of the confirmation mail's link. Opening it changes nothing (mail scanners open links);
// the button posts the token, and the email is confirmed.
import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { ErrorList } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { hasAccessCookie } from '#app/lib/account.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { redirectWithToast } from '#app/lib/toast.server'
import accountCss from '#app/styles/account.css?url'
import { metaT } from '#app/components/catalogue/meta-t'

export const links = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('account.confirm.title') },
  { name: 'robots', content: 'noindex' },
]

export const headers: HeadersFunction = () => ({
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
})

const tokenOf = (value: unknown) =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : ''

export function loader({ request }: LoaderFunctionArgs) {
  return { token: tokenOf(new URL(request.url).searchParams.get('token')) }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const token = tokenOf((await request.formData()).get('token'))
  const api = apiFor(request, context)
  const { data: ok, error, response } = await api.client.POST('/api/auth/email/confirm/', { body: { token } })
  if (!ok)
    return data(
      { error: errorText(error) ?? t('account.confirm.invalid') },
      { status: response.status === 429 ? 429 : 400, headers: api.headers },
    )
  return redirectWithToast(
    hasAccessCookie(request) ? '/profile/security' : '/auth',
    { type: 'success', text: ok.detail },
    { request, headers: api.headers },
  )
}

export default function ConfirmEmailPage() {
  const t = useT()
  const { token } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state !== 'idle'
  return (
    <section className="auth-page card">
      <h1>{t('account.confirm.title')}</h1>
      {token ? (
        <Form method="post">
          <p>{t('account.confirm.intro')}</p>
          <ErrorList errors={result?.error} />
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('account.confirm.submit')}
          </button>
        </Form>
      ) : (
        <p role="alert">{t('account.confirm.invalid')}</p>
      )}
    </section>
  )
}
