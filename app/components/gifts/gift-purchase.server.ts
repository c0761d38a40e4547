// The purchase form's action: create the gift order, then go to its payment page.
import { type ActionFunctionArgs, data, redirect } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { CONSENT_FIELD, consentTicked } from '#app/components/consent-field'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { rememberGiftCookie } from '#app/lib/remembered-buyer.server'
import { giftIdParam } from './gift-loaders.server'

export interface PurchaseActionData {
  /** The API's message, shown as the form's error text (§8). */
  formError: string
  /** Which field the error is about, when the API said so. */
  field: 'email' | 'gift' | 'consent' | null
  email: string
  /** The consent box was ticked (kept when the form comes back). */
  consent: boolean
}

export async function purchaseGift({ request, context, params }: ActionFunctionArgs) {
  const gift = giftIdParam(request, params.id)
  const form = await request.formData()
  const email = String(form.get('email') ?? '').trim()
  const key = String(form.get('idempotency_key') ?? '')
  const api = apiFor(request, context)
  const consent = consentTicked(form.get(CONSENT_FIELD))
  // a guest's email is collected for the first time here: not without the consent (152-ФЗ)
  if (!api.signedIn && !consent) {
    const { t } = await getServerT(request)
    return data<PurchaseActionData>(
      { formError: t('legal.consent.required'), field: 'consent', email, consent },
      { status: 400, headers: api.headers },
    )
  }
  const {
    data: order,
    error,
    response,
  } = await api.client.POST('/api/orders/rokky/', {
    body: { gift, ...(email ? { email } : {}), ...(consent ? { personal_data_consent: true } : {}) },
    headers: key ? { 'Idempotency-Key': key } : {},
  })
  if (response.ok && order) {
    const headers = new Headers(api.headers)
    // a guest's email is remembered on this device for the next gift, as a game order's is (issue 50)
    const remember = api.signedIn ? null : rememberGiftCookie(request, email)
    if (remember) headers.append('set-cookie', remember)
    throw redirect(`/orders/${order.id}/pay`, { headers })
  }
  const { t } = await getServerT(request)
  const fields = (error as { fields?: Record<string, unknown> } | undefined)?.fields ?? {}
  const field = 'email' in fields ? 'email' : 'gift' in fields ? 'gift' : null
  return data<PurchaseActionData>(
    { formError: errorText(error) ?? t('errors.generic_error'), field, email, consent },
    { status: response.status >= 400 && response.status < 500 ? response.status : 502, headers: api.headers },
  )
}
