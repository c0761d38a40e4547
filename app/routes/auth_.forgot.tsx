// «Забыли пароль?»: an email in, the same answer whatever the email (the API mails a 30-minute link
// to an account that has it). A real form: works without JavaScript.
import { type ActionFunctionArgs, data, type HeadersFunction, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { ErrorList, Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import accountCss from '#app/styles/account.css?url'
import { metaT } from '#app/components/catalogue/meta-t'

export const links = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('account.forgot.title') },
  { name: 'robots', content: 'noindex' },
]

export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('retry-after')
  return retryAfter ? { 'retry-after': retryAfter } : new Headers()
}

type ForgotResult = { sent?: string; errors?: { email?: string; form?: string }; email: string }

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const email = String(form.get('email') ?? '').trim()
  if (!EMAIL_RE.test(email) || email.length > 254)
    return data<ForgotResult>(
      { errors: { email: t('account.errors.email_invalid') }, email },
      { status: 400 },
    )
  const api = apiFor(request, context)
  const {
    data: ok,
    error,
    response,
  } = await api.client.POST('/api/auth/password/reset/', { body: { email } })
  const headers = new Headers(api.headers)
  if (!ok) {
    const retryAfter = response.headers.get('retry-after')
    if (retryAfter) headers.set('retry-after', retryAfter)
    const fields = (error as { fields?: Record<string, string[]> } | undefined)?.fields
    return data<ForgotResult>(
      { errors: { form: errorText(error) ?? t('errors.generic_error'), email: fields?.email?.[0] }, email },
      { status: response.status === 429 ? 429 : 400, headers },
    )
  }
  return data<ForgotResult>({ sent: ok.detail, email }, { headers })
}

export default function ForgotPasswordPage() {
  const t = useT()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state !== 'idle'
  return (
    <section className="auth-page card">
      <h1>{t('account.forgot.title')}</h1>
      {result?.sent ? (
        <p role="status" className="auth-page__done">
          {result.sent}
        </p>
      ) : (
        <Form method="post" noValidate>
          <p>{t('account.forgot.intro')}</p>
          <ErrorList errors={result?.errors?.form} />
          <Field
            required
            inputMode="email"
            name="email"
            type="email"
            autoComplete="email"
            label={t('account.email')}
            error={result?.errors?.email}
            defaultValue={result?.email}
          />
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('account.forgot.submit')}
          </button>
        </Form>
      )}
      <p className="auth-form__forgot">
        <Link to="/auth">{t('account.forgot.back')}</Link>
      </p>
    </section>
  )
}
