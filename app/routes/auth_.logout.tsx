import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { safeReturnTo } from '#app/lib/account.server'
import { apiFor } from '#app/lib/api/client.server'
import { CLEAR_STORAGE_HEADER, readTokens } from '#app/lib/session.server'
import { redirectWithToast } from '#app/lib/toast.server'

export const loader = () => redirect('/')

/**
 * Sign-out (§4): the API revokes this sign-in (its access token stops working at once), both token
 * cookies expire and the stored cart is cleared (Clear-Site-Data, and the cart_clear signal for
 * browsers without it). Protected pages send the shopper home.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await getServerT(request)
  const form = await request.formData()
  const back = safeReturnTo(form.get('returnTo'))
  const returnTo = back.startsWith('/profile') ? '/' : back
  const api = apiFor(request, context)
  const { refresh } = readTokens(request)
  if (refresh) {
    // best effort: the cookies go whatever the API says
    await api.client.POST('/api/auth/logout/', { body: { refresh } }).catch(() => undefined)
  }
  api.logout()
  const headers = new Headers(api.headers)
  headers.set(...CLEAR_STORAGE_HEADER)
  return redirectWithToast(returnTo, { type: 'success', text: t('account.signed_out') }, { request, headers })
}
