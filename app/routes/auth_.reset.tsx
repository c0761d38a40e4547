// The page of the reset mail's link: a new password for the account (the link works once and for
// 30 minutes); then every sign-in ends and the shopper signs in with the new password.
import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { ErrorList, Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { redirectWithToast } from '#app/lib/toast.server'
import accountCss from '#app/styles/account.css?url'
import { metaT } from '#app/components/catalogue/meta-t'

export const links = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('account.reset.title') },
  { name: 'robots', content: 'noindex' },
]

/** The token stays out of other sites' Referer headers. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const h = new Headers({ 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' })
  const retryAfter = actionHeaders.get('retry-after')
  if (retryAfter) h.set('retry-after', retryAfter)
  return h
}

const tokenOf = (value: unknown) =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : ''

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = tokenOf(new URL(request.url).searchParams.get('token'))
  if (!token) return data({ token, works: false })
  const api = apiFor(request, context)
  const { response } = await api.client.POST('/api/auth/password/reset/check/', { body: { token } })
  return data({ token, works: response.ok }, { headers: api.headers })
}

type ResetResult = { errors: { password?: string; form?: string } }

export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const token = tokenOf(form.get('token'))
  const password = String(form.get('password') ?? '')
  if (password.length < 8)
    return data<ResetResult>({ errors: { password: t('account.errors.password_short') } }, { status: 400 })
  const api = apiFor(request, context)
  const {
    data: ok,
    error,
    response,
  } = await api.client.POST('/api/auth/password/reset/confirm/', {
    body: { token, password },
  })
  if (!ok) {
    const headers = new Headers(api.headers)
    const retryAfter = response.headers.get('retry-after')
    if (retryAfter) headers.set('retry-after', retryAfter)
    const fields = (error as { fields?: Record<string, string[]> } | undefined)?.fields
    const password = fields?.password?.[0]
    return data<ResetResult>(
      { errors: { password, form: password ? undefined : (errorText(error) ?? t('errors.generic_error')) } },
      { status: response.status === 429 ? 429 : 400, headers },
    )
  }
  // every sign-in ended, this browser's too
  api.logout()
  return redirectWithToast('/auth', { type: 'success', text: ok.detail }, { request, headers: api.headers })
}

export default function ResetPasswordPage() {
  const t = useT()
  const { token, works } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state !== 'idle'
  return (
    <section className="auth-page card">
      <h1>{t('account.reset.title')}</h1>
      {works ? (
        <Form method="post" noValidate>
          <p>{t('account.reset.intro')}</p>
          <input type="hidden" name="token" value={token} />
          <ErrorList errors={result?.errors.form} />
          <Field
            required
            name="password"
            type="password"
            autoComplete="new-password"
            label={t('account.reset.password')}
            hint={t('account.reset.password_hint')}
            error={result?.errors.password}
          />
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('account.reset.submit')}
          </button>
        </Form>
      ) : (
        <>
          <p role="alert">{t('account.reset.invalid')}</p>
          <p>
            <Link to="/auth/forgot" className="button">
              {t('account.reset.request_new')}
            </Link>
          </p>
        </>
      )}
    </section>
  )
}
