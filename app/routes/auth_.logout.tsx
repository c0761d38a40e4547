import { type ActionFunctionArgs, redirect } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { safeReturnTo } from '#app/lib/account.server'
import { apiFor } from '#app/lib/api/client.server'
import { readTokens } from '#app/lib/session.server'
import { redirectWithToast } from '#app/lib/toast.server'

export const loader = () => redirect('/')

/**
 * Sign-out (§4): the API revokes this sign-in, both token cookies expire and the stored cart is
 * cleared (the cart_clear signal). Protected pages send the shopper home.
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
  return redirectWithToast(
    returnTo,
    { type: 'success', text: t('account.signed_out') },
    { request, headers: api.headers },
  )
}
