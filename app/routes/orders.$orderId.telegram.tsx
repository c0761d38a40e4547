// /orders/{id}/telegram — «Следить в Telegram» (issue 49). GET (the «заказ оплачен» mail's link):
// a page with the button; POST: a one-time deep link from the API, answered as a redirect to t.me
// (the same with JavaScript off); a refusal is shown on the page.
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from '@remix-run/node'
import { useActionData, useParams } from '@remix-run/react'
import { orderIdParam } from '#app/components/payment/pay-page.server'
import { TelegramFollow } from '#app/components/payment/telegram-follow'
import { useT } from '#app/i18n/i18n-context'
import { apiFor } from '#app/lib/api/client.server'

export const meta: MetaFunction = () => [{ name: 'robots', content: 'noindex, nofollow' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  orderIdParam(request, params.orderId)
  return data(null, { headers: { 'cache-control': 'no-store' } })
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const id = orderIdParam(request, params.orderId)
  const api = apiFor(request, context)
  const { data: link, error } = await api.client.POST('/api/orders/{id}/telegram/', {
    params: { path: { id } },
  })
  if (link) return redirect(link.url, { headers: api.headers })
  const detail = (error as { detail?: string } | undefined)?.detail ?? null
  return data({ error: detail }, { status: 400, headers: api.headers })
}

export default function OrderTelegram() {
  const t = useT()
  const { orderId } = useParams()
  const result = useActionData<typeof action>()
  return (
    <div className="pay-page">
      <h1>{t('payment.telegram.heading')}</h1>
      <p>{t('payment.telegram.mail_intro')}</p>
      <TelegramFollow
        orderId={orderId ?? ''}
        error={result?.error ?? (result ? t('payment.telegram.error') : null)}
      />
    </div>
  )
}
