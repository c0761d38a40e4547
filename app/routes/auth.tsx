import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { type AuthActionData, AuthForm } from '#app/components/auth-form'
import { CONSENT_FIELD, consentTicked } from '#app/components/consent-field'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { hasAccessCookie, loadSocialProviders, safeReturnTo } from '#app/lib/account.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { redirectWithToast } from '#app/lib/toast.server'
import accountCss from '#app/styles/account.css?url'
import { metaT } from '#app/components/catalogue/meta-t'

export const links = () => [{ rel: 'stylesheet', href: accountCss }]

/** A rate-limited sign-in (429) tells the client when to try again, as the API did. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('retry-after')
  return retryAfter ? { 'retry-after': retryAfter } : new Headers()
}

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('account.auth_title') },
  { name: 'robots', content: 'noindex' },
]

/** The sign-in page: the popup's form as a page of its own (the target of its no-JS posts). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const returnTo = safeReturnTo(url.searchParams.get('returnTo'))
  if (hasAccessCookie(request)) throw redirect(returnTo === '/' ? '/profile' : returnTo)
  const api = apiFor(request, context)
  const { providers } = await loadSocialProviders(api)
  return data({ providers, returnTo }, { headers: api.headers })
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Sign-in or sign-up (§7): tokens into cookies, then back to the page the shopper came from. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const email = String(form.get('email') ?? '').trim()
  const password = String(form.get('password') ?? '')
  const returnTo = safeReturnTo(form.get('returnTo'))
  // the consent box (152-ФЗ): the API refuses a new account without it, signs an existing one in
  const consent = consentTicked(form.get(CONSENT_FIELD))
  const errors: AuthActionData['errors'] = {}
  if (!EMAIL_RE.test(email) || email.length > 254) errors.email = t('account.errors.email_invalid')
  if (password.length < 8) errors.password = t('account.errors.password_short')
  if (errors.email || errors.password)
    return data<AuthActionData>({ errors, values: { email, consent } }, { status: 400 })

  const api = apiFor(request, context)
  const {
    data: tokens,
    error,
    response,
  } = await api.client.POST('/api/auth/jwt/create/', {
    body: { email, password, personal_data_consent: consent },
  })
  if (!response.ok || !tokens) {
    const fields = (error as { fields?: Record<string, string[]> } | undefined)?.fields
    const body: AuthActionData = {
      errors: {
        form: errorText(error) ?? t('errors.generic_error'),
        email: fields?.email?.[0],
        password: fields?.password?.[0],
        consent: fields?.personal_data_consent?.[0] ? t('legal.consent.required') : undefined,
      },
      values: { email, consent },
    }
    const headers = new Headers(api.headers)
    const retryAfter = response.headers.get('retry-after')
    if (retryAfter) headers.set('retry-after', retryAfter)
    const status = response.status === 429 ? 429 : response.status >= 500 ? 503 : 400
    return data(body, { status, headers })
  }
  api.signIn(tokens)
  return redirectWithToast(
    returnTo,
    { type: 'success', text: t(tokens.is_signed_up ? 'account.signed_up' : 'account.signed_in') },
    { request, headers: api.headers },
  )
}

export default function AuthPage() {
  const t = useT()
  const { providers, returnTo } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  return (
    <section className="auth-page card">
      <h1>{t('account.auth_title')}</h1>
      <AuthForm returnTo={returnTo} providers={providers} pageResult={result ?? undefined} />
    </section>
  )
}
