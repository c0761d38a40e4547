// «Пароль и почта»: whether the email is confirmed (and a new confirmation mail), and the password
// change with the current password (other sign-ins end). Plain forms: work without JavaScript.
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
import { requireAccessCookie } from '#app/lib/account.server'
import { apiFor, errorText, must } from '#app/lib/api/client.server'
import { redirectWithToast } from '#app/lib/toast.server'
import { metaT } from '#app/components/catalogue/meta-t'

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('account.security.title') },
  { name: 'robots', content: 'noindex' },
]

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('retry-after')
  return retryAfter ? { 'retry-after': retryAfter } : new Headers()
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireAccessCookie(request)
  const api = apiFor(request, context)
  const profile = await must(api.client.GET('/api/auth/profile/'))
  return data({ email: profile.email, confirmed: profile.email_confirmed }, { headers: api.headers })
}

type SecurityResult = {
  intent: 'change' | 'resend'
  errors: { current?: string; next?: string; form?: string }
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireAccessCookie(request)
  const { t } = await getServerT(request)
  const form = await request.formData()
  const api = apiFor(request, context)
  const fail = (result: SecurityResult, response: Response) => {
    const headers = new Headers(api.headers)
    const retryAfter = response.headers.get('retry-after')
    if (retryAfter) headers.set('retry-after', retryAfter)
    return data(result, { status: response.status === 429 ? 429 : 400, headers })
  }
  if (form.get('intent') === 'resend') {
    const { data: ok, error, response } = await api.client.POST('/api/auth/email/confirm/resend/')
    if (!ok)
      return fail(
        { intent: 'resend', errors: { form: errorText(error) ?? t('errors.generic_error') } },
        response,
      )
    return redirectWithToast(
      '/profile/security',
      { type: 'success', text: ok.detail },
      { request, headers: api.headers },
    )
  }
  const current = String(form.get('current_password') ?? '')
  const next = String(form.get('new_password') ?? '')
  const errors: SecurityResult['errors'] = {}
  if (!current) errors.current = t('account.security.required')
  if (next.length < 8) errors.next = t('account.errors.password_short')
  if (errors.current || errors.next)
    return data<SecurityResult>({ intent: 'change', errors }, { status: 400 })
  const {
    data: ok,
    error,
    response,
  } = await api.client.POST('/api/auth/password/change/', {
    body: { current_password: current, new_password: next },
  })
  if (!ok) {
    const fields = (error as { fields?: Record<string, string[]> } | undefined)?.fields
    const fieldErrors = { current: fields?.current_password?.[0], next: fields?.new_password?.[0] }
    return fail(
      {
        intent: 'change',
        errors: {
          ...fieldErrors,
          form:
            fieldErrors.current || fieldErrors.next
              ? undefined
              : (errorText(error) ?? t('errors.generic_error')),
        },
      },
      response,
    )
  }
  return redirectWithToast(
    '/profile/security',
    { type: 'success', text: ok.detail },
    { request, headers: api.headers },
  )
}

export default function ProfileSecurity() {
  const t = useT()
  const { email, confirmed } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state !== 'idle'
  const change = result?.intent === 'change' ? result.errors : undefined
  return (
    <section className="profile-settings card" aria-labelledby="security-title">
      <h2 id="security-title">{t('account.security.title')}</h2>
      {email ? (
        confirmed ? (
          <p>{t('account.security.email_confirmed', { email })}</p>
        ) : (
          <Form method="post">
            <p>{t('account.security.email_unconfirmed', { email })}</p>
            <ErrorList errors={result?.intent === 'resend' ? result.errors.form : undefined} />
            <input type="hidden" name="intent" value="resend" />
            <button type="submit" className="button" disabled={busy}>
              {t('account.security.resend')}
            </button>
          </Form>
        )
      ) : null}
      <h3>{t('account.security.change_title')}</h3>
      <Form method="post" noValidate>
        <input type="hidden" name="intent" value="change" />
        <ErrorList errors={change?.form} />
        <Field
          required
          name="current_password"
          type="password"
          autoComplete="current-password"
          label={t('account.security.current')}
          error={change?.current}
        />
        <Field
          required
          name="new_password"
          type="password"
          autoComplete="new-password"
          label={t('account.security.new')}
          hint={t('account.reset.password_hint')}
          error={change?.next}
        />
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('account.security.submit')}
        </button>
      </Form>
      <p>
        <Link to="/auth/forgot">{t('account.security.no_password')}</Link>
      </p>
    </section>
  )
}
