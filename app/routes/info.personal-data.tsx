// /info/personal-data: a request about one's personal data (152-ФЗ) — access, correction, deletion,
// withdrawal of consent. The API mails a confirmation link to the email; only the link makes it a
// staff task. A plain post form: works without JavaScript (CSRF: server/csrf.ts checks the origin).
import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LinksFunction,
  type MetaFunction,
} from '@remix-run/node'
import { Form, useActionData, useNavigation } from '@remix-run/react'
import { metaT } from '#app/components/catalogue/meta-t'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import accountCss from '#app/styles/account.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches)
  return [
    { title: t('personal_data.title') },
    { name: 'description', content: t('personal_data.meta_description') },
  ]
}

/** A limited request tells the client when to try again, as the API did. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('retry-after')
  return retryAfter ? { 'retry-after': retryAfter } : new Headers()
}

const KINDS = ['access', 'correction', 'deletion', 'withdraw'] as const
type Kind = (typeof KINDS)[number]
const TEXT_MAX = 2000
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

type Errors = { email?: string; kind?: string; text?: string; form?: string }
type Result =
  | { sent: true; email: string; detail: string }
  | { sent: false; email: string; kind: string; text: string; errors: Errors }

export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const email = String(form.get('email') ?? '').trim()
  const kind = String(form.get('kind') ?? '')
  const text = String(form.get('text') ?? '').trim()
  const errors: Errors = {}
  if (!EMAIL_RE.test(email) || email.length > 254) errors.email = t('personal_data.email_invalid')
  if (!(KINDS as readonly string[]).includes(kind)) errors.kind = t('personal_data.kind_required')
  if (text.length > TEXT_MAX) errors.text = t('personal_data.text_too_long', { max: TEXT_MAX })
  if (Object.keys(errors).length > 0)
    return data<Result>({ sent: false, email, kind, text, errors }, { status: 400 })
  const api = apiFor(request, context)
  const {
    data: ok,
    error,
    response,
  } = await api.client.POST('/api/personal-data/requests/', {
    body: { email, kind: kind as Kind, text },
  })
  if (!ok) {
    const headers = new Headers(api.headers)
    const retryAfter = response.headers.get('retry-after')
    if (retryAfter) headers.set('retry-after', retryAfter)
    const fields = (error as { fields?: Record<string, string[]> } | undefined)?.fields ?? {}
    const status = response.status === 429 ? 429 : response.status >= 500 ? 503 : 400
    const fieldErrors: Errors = {
      ...(fields.email?.[0] ? { email: fields.email[0] } : {}),
      ...(fields.kind?.[0] ? { kind: fields.kind[0] } : {}),
      ...(fields.text?.[0] ? { text: fields.text[0] } : {}),
    }
    return data<Result>(
      {
        sent: false,
        email,
        kind,
        text,
        errors: Object.keys(fieldErrors).length
          ? fieldErrors
          : { form: errorText(error) ?? t('errors.generic_error') },
      },
      { status, headers },
    )
  }
  return data<Result>({ sent: true, email, detail: ok.detail }, { headers: api.headers })
}

export default function PersonalDataRequestPage() {
  const t = useT()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const failed = result && !result.sent ? result : null
  const errors = failed?.errors ?? {}
  const described = (name: keyof Errors, hint?: string) =>
    errors[name] ? `pd-${name}-error` : hint ? `pd-${name}-hint` : undefined
  return (
    <section className="auth-page card order-find" aria-labelledby="pd-title">
      <h1 id="pd-title">{t('personal_data.title')}</h1>
      {result?.sent ? (
        <div role="status">
          <h2>{t('personal_data.sent_title')}</h2>
          <p>{result.detail}</p>
          <p className="field__hint">{t('personal_data.sent_to', { email: result.email })}</p>
          <p className="field__hint">{t('personal_data.sent_hint')}</p>
        </div>
      ) : (
        <>
          <p className="auth-form__intro">{t('personal_data.intro')}</p>
          <Form method="post" action="/info/personal-data" aria-labelledby="pd-title" noValidate>
            {errors.form ? (
              <p className="form-error" role="alert">
                {errors.form}
              </p>
            ) : null}
            <div className="field">
              <label htmlFor="pd-email">{t('personal_data.email')}</label>
              <input
                id="pd-email"
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                required
                maxLength={254}
                defaultValue={failed?.email ?? ''}
                aria-describedby={described('email', 'hint')}
                aria-invalid={errors.email ? true : undefined}
              />
              {errors.email ? (
                <span className="field__error" id="pd-email-error">
                  {errors.email}
                </span>
              ) : (
                <span className="field__hint" id="pd-email-hint">
                  {t('personal_data.email_hint')}
                </span>
              )}
            </div>
            <fieldset className="field" aria-describedby={described('kind')}>
              <legend>{t('personal_data.kind')}</legend>
              {KINDS.map((k) => (
                <label key={k} className="pd-kind">
                  <input type="radio" name="kind" value={k} defaultChecked={failed?.kind === k} required />{' '}
                  {t(`personal_data.kinds.${k}`)}
                </label>
              ))}
              {errors.kind ? (
                <span className="field__error" id="pd-kind-error">
                  {errors.kind}
                </span>
              ) : null}
            </fieldset>
            <div className="field">
              <label htmlFor="pd-text">{t('personal_data.text')}</label>
              <textarea
                id="pd-text"
                name="text"
                rows={4}
                maxLength={TEXT_MAX}
                defaultValue={failed?.text ?? ''}
                aria-describedby={described('text', 'hint')}
                aria-invalid={errors.text ? true : undefined}
              />
              {errors.text ? (
                <span className="field__error" id="pd-text-error">
                  {errors.text}
                </span>
              ) : (
                <span className="field__hint" id="pd-text-hint">
                  {t('personal_data.text_hint', { max: TEXT_MAX })}
                </span>
              )}
            </div>
            <button type="submit" className="button button--primary auth-form__submit" disabled={busy}>
              {busy ? t('personal_data.sending') : t('personal_data.submit')}
            </button>
          </Form>
        </>
      )}
    </section>
  )
}
