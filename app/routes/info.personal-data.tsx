// /info/personal-data: a request about one's personal data (152-ФЗ) — access, correction, deletion,
// withdrawal of consent. The API mails a confirmation link to the email; only the link makes it a
// staff task. A plain post form: works without JavaScript (CSRF: server/csrf.ts checks the origin).
import { type ActionFunctionArgs, data, type LinksFunction, type MetaFunction } from '@remix-run/node'
import { useActionData } from '@remix-run/react'
import { metaT } from '#app/components/catalogue/meta-t'
import { EmailLinkForm } from '#app/components/form/email-link-form'
import { Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { apiFor } from '#app/lib/api/client.server'
import { apiRefusal, isEmail, retryAfterHeaders } from '#app/lib/email-link.server'
import accountCss from '#app/styles/account.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => {
  const t = metaT(matches)
  return [
    { title: t('personal_data.title') },
    { name: 'description', content: t('personal_data.meta_description') },
  ]
}

export const headers = retryAfterHeaders

const KINDS = ['access', 'correction', 'deletion', 'withdraw'] as const
type Kind = (typeof KINDS)[number]
const TEXT_MAX = 2000

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
  if (!isEmail(email)) errors.email = t('personal_data.email_invalid')
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
    const refusal = apiRefusal(api, error, response, ['email', 'kind', 'text'], t('errors.generic_error'))
    return data<Result>(
      { sent: false, email, kind, text, errors: refusal.errors },
      { status: refusal.status, headers: refusal.headers },
    )
  }
  return data<Result>({ sent: true, email, detail: ok.detail }, { headers: api.headers })
}

export default function PersonalDataRequestPage() {
  const t = useT()
  const result = useActionData<typeof action>()
  const failed = result && !result.sent ? result : null
  const errors = failed?.errors ?? {}
  return (
    <EmailLinkForm texts="personal_data" idPrefix="pd" action="/info/personal-data" result={result}>
      <fieldset className="field" aria-describedby={errors.kind ? 'pd-kind-error' : undefined}>
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
      <Field
        id="pd-text"
        label={t('personal_data.text')}
        hint={t('personal_data.text_hint', { max: TEXT_MAX })}
        error={errors.text}
      >
        {(control) => (
          <textarea
            {...control}
            name="text"
            rows={4}
            maxLength={TEXT_MAX}
            defaultValue={failed?.text ?? ''}
          />
        )}
      </Field>
    </EmailLinkForm>
  )
}
