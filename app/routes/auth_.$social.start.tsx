import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { hasAccessCookie, safeReturnTo, socialRedirectUri } from '#app/lib/account.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { pageNotFound } from '#app/lib/http-errors.server'
import { socialFlowCookie, socialProviderOf } from '#app/lib/social-flow.server'
import { redirectWithToast } from '#app/lib/toast.server'

/**
 * A GET starts nothing (a link or an attacker's page must not begin a sign-in or a bind in
 * someone's browser): it only leads to where the buttons are.
 */
export function loader({ request }: LoaderFunctionArgs) {
  if (!socialProviderOf(request)) return pageNotFound(request)
  const url = new URL(request.url)
  if (url.searchParams.get('mode') === 'bind') return redirect('/profile')
  return redirect(`/auth?returnTo=${encodeURIComponent(safeReturnTo(url.searchParams.get('returnTo')))}`)
}

/**
 * "Sign in with X" and "bind X" (`mode=bind`): a POST of our own form (the CSRF origin check
 * guards it; works without JavaScript). Asks the API for the provider's address with a fresh
 * state bound to this browser (the nonce goes into the flow cookie) and sends the browser there.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const provider = socialProviderOf(request)
  if (!provider) return pageNotFound(request)
  const { t } = await getServerT(request)
  const form = await request.formData()
  const mode = form.get('mode') === 'bind' ? 'bind' : 'auth'
  if (mode === 'bind' && !hasAccessCookie(request)) return redirect('/')
  const returnTo = safeReturnTo(form.get('returnTo'), mode === 'bind' ? '/profile' : '/')
  const api = apiFor(request, context)
  const { data, error } = await api.client.GET('/api/auth/social/{provider}/url/', {
    params: { path: { provider }, query: { redirect_uri: socialRedirectUri(request, provider), mode } },
  })
  if (!data) {
    const text =
      errorText(error) ?? t('account.errors.social_failed', { provider: t(`account.providers.${provider}`) })
    const back = mode === 'bind' ? '/profile' : `${returnTo}${returnTo.includes('?') ? '&' : '?'}auth=1`
    return redirectWithToast(back, { type: 'error', text }, { request, headers: api.headers })
  }
  const headers = new Headers(api.headers)
  headers.append('set-cookie', socialFlowCookie({ provider, mode, returnTo, nonce: data.nonce }, request))
  return redirect(data.url, { headers })
}
