import { type LoaderFunctionArgs, redirect } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { safeReturnTo, socialRedirectUri } from '#app/lib/account.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { pageNotFound } from '#app/lib/http-errors.server'
import { isSocialProvider, socialFlowCookie } from '#app/lib/social-flow.server'
import { redirectWithToast } from '#app/lib/toast.server'

/**
 * "Sign in with X" (and "bind X" with `?mode=bind`): asks the API for the provider's address with
 * a fresh state and sends the browser there. A plain link, so it works without JavaScript.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const provider = params.social
  if (!isSocialProvider(provider)) return pageNotFound(request)
  const { t } = await getServerT(request)
  const url = new URL(request.url)
  const mode = url.searchParams.get('mode') === 'bind' ? 'bind' : 'auth'
  const returnTo = safeReturnTo(url.searchParams.get('returnTo'), mode === 'bind' ? '/profile' : '/')
  const api = apiFor(request, context)
  const { data, error } = await api.client.GET('/api/auth/social/{provider}/url/', {
    params: { path: { provider }, query: { redirect_uri: socialRedirectUri(request, provider) } },
  })
  if (!data) {
    const text =
      errorText(error) ?? t('account.errors.social_failed', { provider: t(`account.providers.${provider}`) })
    const back = mode === 'bind' ? '/profile' : `${returnTo}${returnTo.includes('?') ? '&' : '?'}auth=1`
    return redirectWithToast(back, { type: 'error', text }, { request, headers: api.headers })
  }
  const headers = new Headers(api.headers)
  headers.append('set-cookie', socialFlowCookie({ provider, mode, returnTo }, request))
  return redirect(data.url, { headers })
}
