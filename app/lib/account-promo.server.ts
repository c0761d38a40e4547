// The account's promo code (§7 /api/promo_codes/activate/ and /deactivate/), set and removed on
// the profile's settings tab: saved, it applies to the user's unpaid and new orders of its game
// or gift. A refusal comes back to the form (works without JavaScript).
import { data } from '@remix-run/node'
import type { AccountPromoState } from '#app/components/account-promo'
import type { TFunction } from '#app/i18n/translate'
import { type ApiSession, errorText } from '#app/lib/api/client.server'
import { redirectWithToast } from '#app/lib/toast.server'

const BACK = '/profile/settings'

export async function accountPromoAction(request: Request, api: ApiSession, t: TFunction, form: FormData) {
  const refuse = (promo: AccountPromoState, status: number) =>
    data({ promo }, { status: Math.max(status, 400), headers: api.headers })
  if (form.get('intent') === 'promo_remove') {
    const { response, error } = await api.client.POST('/api/promo_codes/deactivate/')
    if (!response.ok)
      return refuse({ error: errorText(error) ?? t('errors.generic_error'), code: '' }, response.status)
    return redirectWithToast(
      BACK,
      { type: 'success', text: t('account.promo_code.removed') },
      { request, headers: api.headers },
    )
  }
  const code = String(form.get('code') ?? '').trim()
  if (!code) return refuse({ error: t('account.promo_code.required'), code }, 400)
  const {
    data: saved,
    error,
    response,
  } = await api.client.POST('/api/promo_codes/activate/', { body: { code } })
  const active = saved?.active_promo_code
  if (!active) return refuse({ error: errorText(error) ?? t('errors.generic_error'), code }, response.status)
  return redirectWithToast(
    BACK,
    { type: 'success', text: t('account.promo_code.saved', { code: active.code, percent: active.percent }) },
    { request, headers: api.headers },
  )
}
