import type { LoaderFunctionArgs } from '@remix-run/node'
import { getServerT } from '#app/i18n/i18n.server'
import { hasAccessCookie, socialRedirectUri } from '#app/lib/account.server'
import { apiFor, errorText } from '#app/lib/api/client.server'
import { pageNotFound } from '#app/lib/http-errors.server'
import {
  clearSocialFlowCookie,
  readSocialFlow,
  socialProviderOf,
  returnBody,
} from '#app/lib/social-flow.server'
import { redirectWithToast } from '#app/lib/toast.server'

/**
 * The return point of social sign-in (§2: `/auth/{provider}/redirect/`, no layout: this route only
 * redirects). Hands the provider's answer to the API, then signs in (tokens into cookies) or binds
 * the account, and goes back where the shopper started.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const provider = socialProviderOf(request)
  if (!provider) return pageNotFound(request)
  const { t } = await getServerT(request)
  const url = new URL(request.url)
  const flow = readSocialFlow(request, provider)
  const api = apiFor(request, context)
  const headers = () => {
    const h = new Headers(api.headers)
    h.append('set-cookie', clearSocialFlowCookie(request))
    return h
  }
  const name = t(`account.providers.${provider}`)
  const bind = flow.mode === 'bind' && hasAccessCookie(request)
  const failTo = bind ? '/profile' : `${flow.returnTo}${flow.returnTo.includes('?') ? '&' : '?'}auth=1`
  const fail = (text: string) =>
    redirectWithToast(failTo, { type: 'error', text }, { request, headers: headers() })

  if (url.searchParams.has('error')) return fail(t('account.errors.social_cancelled', { provider: name }))
  if (provider === 'telegram' && !url.searchParams.has('hash') && !url.searchParams.has('tgAuthResult'))
    return telegramFragmentPage(t('account.errors.telegram_needs_js'), context.cspNonce)
  const body = { ...returnBody(provider, url, socialRedirectUri(request, provider)), nonce: flow.nonce }
  if (!body.code || body.code === '{}') return fail(t('account.errors.social_failed', { provider: name }))

  if (bind) {
    const { data, error } = await api.client.POST('/api/auth/social/{provider}/bind/', {
      params: { path: { provider: provider as 'vk_id' } },
      body,
    })
    if (!data) return fail(errorText(error) ?? t('account.errors.social_failed', { provider: name }))
    return redirectWithToast(
      '/profile',
      { type: 'success', text: t('account.bound_done', { provider: name }) },
      { request, headers: headers() },
    )
  }

  const { data: tokens, error } = await api.client.POST('/api/auth/social/{provider}/auth/', {
    params: { path: { provider } },
    body,
  })
  if (!tokens) return fail(errorText(error) ?? t('account.errors.social_failed', { provider: name }))
  api.signIn(tokens)
  return redirectWithToast(
    flow.returnTo === '/' ? '/profile' : flow.returnTo,
    { type: 'success', text: t(tokens.is_signed_up ? 'account.signed_up' : 'account.signed_in') },
    { request, headers: headers() },
  )
}

/**
 * Telegram's own login page answers in the URL fragment, which only the browser sees: a tiny
 * page (no layout, no inline script) hands it back to this route in the query. Its script carries
 * the response's CSP nonce, or the page's `script-src 'nonce-…' 'strict-dynamic'` blocks it.
 */
function telegramFragmentPage(noScript: string, cspNonce: string | undefined): Response {
  const nonce = cspNonce && /^[A-Za-z0-9+/=_-]+$/.test(cspNonce) ? ` nonce="${cspNonce}"` : ''
  const html =
    '<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Telegram</title>' +
    `<meta name="robots" content="noindex"><script src="/auth-telegram-return.js"${nonce} defer></script></head>` +
    `<body><noscript>${noScript}</noscript></body></html>`
  return new Response(html, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  })
}
