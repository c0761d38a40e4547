// /orders/find «Найти заказ»: a guest enters the email of their orders and gets a mail with a link
// to the list. The answer is the same whatever the email (the API decides whether to mail).
import { type ActionFunctionArgs, data, type LinksFunction, type MetaFunction } from '@remix-run/node'
import { Link, useActionData } from '@remix-run/react'
import { metaT } from '#app/components/catalogue/meta-t'
import { EmailLinkForm, type EmailLinkResult } from '#app/components/form/email-link-form'
import { useT } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { apiFor } from '#app/lib/api/client.server'
import { apiRefusal, isEmail, retryAfterHeaders } from '#app/lib/email-link.server'
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

export const headers = retryAfterHeaders

export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const email = String(form.get('email') ?? '').trim()
  if (!isEmail(email))
    return data<EmailLinkResult>(
      { sent: false, email, errors: { email: t('order_lookup.email_invalid') } },
      { status: 400 },
    )
  const api = apiFor(request, context)
  const { data: ok, error, response } = await api.client.POST('/api/orders/lookup/', { body: { email } })
  if (!ok) {
    const { status, headers, errors } = apiRefusal(api, error, response, ['email'], t('errors.generic_error'))
    return data<EmailLinkResult>({ sent: false, email, errors }, { status, headers })
  }
  return data<EmailLinkResult>({ sent: true, email, detail: ok.detail }, { headers: api.headers })
}

export default function FindOrderPage() {
  const t = useT()
  return (
    <EmailLinkForm
      texts="order_lookup"
      idPrefix="order-find"
      action="/orders/find"
      result={useActionData<typeof action>()}
      footer={
        <p className="field__hint">
          <Link to="/profile">{t('order_lookup.profile_hint')}</Link>
        </p>
      }
    />
  )
}
