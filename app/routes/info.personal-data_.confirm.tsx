// /info/personal-data/confirm?token=…: the link of the confirmation mail. Opening it shows a button
// (a mail scanner that follows links confirms nothing); the button posts the token and the API makes
// the request a staff task, answered with the deadline. Works without JavaScript.
import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { metaT } from '#app/components/catalogue/meta-t'
import { useT } from '#app/i18n/i18n-context'
import { apiFor, errorText } from '#app/lib/api/client.server'
import accountCss from '#app/styles/account.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: accountCss }]

export const meta: MetaFunction = ({ matches }) => [
  { title: metaT(matches)('personal_data.confirm_title') },
  { name: 'robots', content: 'noindex' },
  // the token stays off other sites (no-referrer would make the form's Origin «null», refused as cross-site)
  { name: 'referrer', content: 'same-origin' },
]

const tokenOf = (raw: unknown) => String(raw ?? '').slice(0, 100)

export function loader({ request }: LoaderFunctionArgs) {
  return data(
    { token: tokenOf(new URL(request.url).searchParams.get('token')) },
    {
      headers: { 'cache-control': 'private, no-store' },
    },
  )
}

type Result =
  | { ok: true; kind: string; status: 'open' | 'done'; dueDate: string }
  | { ok: false; detail: string }

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const api = apiFor(request, context)
  const {
    data: ok,
    error,
    response,
  } = await api.client.POST('/api/personal-data/requests/confirm/', {
    body: { token: tokenOf(form.get('token')) },
  })
  if (!ok)
    return data<Result>(
      { ok: false, detail: errorText(error) ?? '' },
      { status: response.status === 429 ? 429 : 400, headers: api.headers },
    )
  return data<Result>(
    { ok: true, kind: ok.kind, status: ok.status, dueDate: ok.due_date },
    { headers: api.headers },
  )
}

const formatDay = (day: string) =>
  new Intl.DateTimeFormat('ru-RU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`))

export default function ConfirmDataRequestPage() {
  const t = useT()
  const { token } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  if (result?.ok)
    return (
      <section className="auth-page card order-find" aria-labelledby="pd-confirm-title">
        <h1 id="pd-confirm-title">{t('personal_data.confirmed_title')}</h1>
        <div role="status">
          <p>{t('personal_data.confirmed_kind', { kind: t(`personal_data.kinds.${result.kind}`) })}</p>
          <p data-testid="data-request-due">
            {result.status === 'done'
              ? t('personal_data.confirmed_done')
              : t('personal_data.confirmed_due', { date: formatDay(result.dueDate) })}
          </p>
        </div>
      </section>
    )
  if (result && !result.ok)
    return (
      <section className="auth-page card order-find" aria-labelledby="pd-confirm-title">
        <h1 id="pd-confirm-title">{t('personal_data.invalid_title')}</h1>
        <p role="alert">{result.detail}</p>
        <p>
          <Link to="/info/personal-data">{t('personal_data.ask_again')}</Link>
        </p>
      </section>
    )
  return (
    <section className="auth-page card order-find" aria-labelledby="pd-confirm-title">
      <h1 id="pd-confirm-title">{t('personal_data.confirm_title')}</h1>
      <p className="auth-form__intro">{t('personal_data.confirm_intro')}</p>
      <Form method="post" aria-labelledby="pd-confirm-title">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className="button button--primary auth-form__submit" disabled={busy}>
          {t('personal_data.confirm_submit')}
        </button>
      </Form>
    </section>
  )
}
