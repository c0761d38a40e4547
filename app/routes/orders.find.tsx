// /orders/find «Найти заказ»: a guest enters the email of their orders and gets a mail with a link
// to the list. The answer is the same whatever the email (the API decides whether to mail).
import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LinksFunction,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { metaT } from '#app/components/catalogue/meta-t'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import accountCss from '#app/styles/account.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches)
  return [
    { title: t('order_lookup.title') },
    { name: 'description', content: t('order_lookup.meta_description') },
    { name: 'robots', content: 'noindex' },
  ]
}

/** A limited request tells the client when to try again, as the API did. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('retry-after')
  return retryAfter ? { 'retry-after': retryAfter } : new Headers()
}

type FindResult =
  | { sent: true; email: string; detail: string }
  | { sent: false; email: string; errors: { email?: string; form?: string } }

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const email = String(form.get('email') ?? '').trim()
  if (!EMAIL_RE.test(email) || email.length > 254)
    return data<FindResult>(
      { sent: false, email, errors: { email: t('order_lookup.email_invalid') } },
      { status: 400 },
    )
  const api = apiFor(request, context)
  const { data: ok, error, response } = await api.client.POST('/api/orders/lookup/', { body: { email } })
  if (!ok) {
    const headers = new Headers(api.headers)
    const retryAfter = response.headers.get('retry-after')
    if (retryAfter) headers.set('retry-after', retryAfter)
    const field = (error as { fields?: Record<string, string[]> } | undefined)?.fields?.email?.[0]
    const status = response.status === 429 ? 429 : response.status >= 500 ? 503 : 400
    return data<FindResult>(
      {
        sent: false,
        email,
        errors: field ? { email: field } : { form: errorText(error) ?? t('errors.generic_error') },
      },
      { status, headers },
    )
  }
  return data<FindResult>({ sent: true, email, detail: ok.detail }, { headers: api.headers })
}

export default function FindOrderPage() {
  const t = useT()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const errors = result && !result.sent ? result.errors : {}
  return (
    <section className="auth-page card order-find" aria-labelledby="order-find-title">
      <h1 id="order-find-title">{t('order_lookup.title')}</h1>
      {result?.sent ? (
        <div role="status">
          <h2>{t('order_lookup.sent_title')}</h2>
          <p>{result.detail}</p>
          <p className="field__hint">{t('order_lookup.sent_to', { email: result.email })}</p>
          <p className="field__hint">{t('order_lookup.sent_hint')}</p>
        </div>
      ) : (
        <>
          <p className="auth-form__intro">{t('order_lookup.intro')}</p>
          <Form method="post" action="/orders/find" aria-labelledby="order-find-title" noValidate>
            {errors.form ? (
              <p className="form-error" role="alert">
                {errors.form}
              </p>
            ) : null}
            <div className="field">
              <label htmlFor="order-find-email">{t('order_lookup.email')}</label>
              <input
                id="order-find-email"
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                required
                maxLength={254}
                defaultValue={result?.email ?? ''}
                aria-describedby={errors.email ? 'order-find-email-error' : 'order-find-email-hint'}
                aria-invalid={errors.email ? true : undefined}
              />
              {errors.email ? (
                <span className="field__error" id="order-find-email-error">
                  {errors.email}
                </span>
              ) : (
                <span className="field__hint" id="order-find-email-hint">
                  {t('order_lookup.email_hint')}
                </span>
              )}
            </div>
            <button type="submit" className="button button--primary auth-form__submit" disabled={busy}>
              {busy ? t('order_lookup.sending') : t('order_lookup.submit')}
            </button>
          </Form>
        </>
      )}
      <p className="field__hint">
        <Link to="/profile">{t('order_lookup.profile_hint')}</Link>
      </p>
    </section>
  )
}
