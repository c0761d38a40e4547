// The signed-in user as the storefront sees it: loaded only when the `access` cookie exists (§4),
// so guests' pages cost nothing extra. Also the small helpers every account route shares.
import { type AppLoadContext, redirect } from '@remix-run/node'
import { apiFor, type ApiSession } from '#app/lib/api/client.server'
import { siteOrigin } from '#app/lib/seo.server'
import { readTokens } from '#app/lib/session.server'
import { isRecent, type OrderHistoryView, toOrderHistoryView } from '#app/lib/order-history'
import { SOCIAL_PROVIDERS, type SocialProvider, type UserView } from '#app/lib/account'
import type { components } from '#openapi/schema'

export { SOCIAL_PROVIDERS, type SocialProvider, type UserView }
export { safeReturnTo } from '#app/lib/return-to'

export function toUserView(p: components['schemas']['Profile']): UserView {
  return {
    id: p.id,
    email: p.email,
    nickname: p.nickname,
    avatarImg: p.avatar_img,
    balance: p.balance,
    activePromoCode: p.active_promo_code,
    socialAccounts: p.social_accounts,
  }
}

export const hasAccessCookie = (request: Request) => readTokens(request).access !== null

/**
 * The profile when the shopper holds an access cookie, else null without calling the API. A
 * failed call counts as signed out for this page (the API client clears dead tokens itself).
 */
export async function loadUser(request: Request, context: AppLoadContext): Promise<UserView | null> {
  if (!hasAccessCookie(request)) return null
  const api = apiFor(request, context)
  // the root and a page's own loader (the profile's) both ask: one read per storefront request
  return api.once('profile', async () => {
    try {
      const { data, response } = await api.client.GET('/api/auth/profile/')
      return response.ok && data ? toUserView(data) : null
    } catch {
      return null
    }
  })
}

/** Protected pages (§5): without the access cookie the visitor goes to `/`. */
export function requireAccessCookie(request: Request): void {
  if (!hasAccessCookie(request)) throw redirect('/')
}

/** Which social providers the API has configured, with bind/unbind abilities. */
export async function loadSocialProviders(api: ApiSession) {
  try {
    const { data } = await api.client.GET('/api/auth/social/providers/')
    return data ?? { providers: [], bind: [], unbind: [] }
  } catch {
    return { providers: [], bind: [], unbind: [] }
  }
}

/** The social return address (§2): `{origin}/auth/{provider}/redirect/`. */
export function socialRedirectUri(request: Request, provider: string): string {
  return `${siteOrigin(request)}/auth/${provider}/redirect/`
}

/** The support chat widget's script, when CHAT_WIDGET_URL is set (an absolute http(s) URL). */
export function chatWidgetUrl(): string | null {
  const v = process.env.CHAT_WIDGET_URL
  return v && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol) ? v : null
}

/** Order history page size (§7, §9). */
export const HISTORY_PAGE_SIZE = 50

/** The signed-in user's orders of the last 24 hours (first history page, newest first). */
export async function loadLastOrders(api: ApiSession): Promise<OrderHistoryView[]> {
  const { data } = await api.client.GET('/api/orders/', {
    params: { query: { page: 1, page_size: HISTORY_PAGE_SIZE } },
  })
  return (data?.results ?? []).map(toOrderHistoryView).filter((o) => isRecent(o))
}

/**
 * Everything the shell (header, popups, chat widget) needs about the account, for the root
 * loader. Guests cost nothing; the popups' data is loaded only while their URL state is set.
 */
export async function loadAccountShell(request: Request, context: AppLoadContext) {
  const url = new URL(request.url)
  const user = await loadUser(request, context)
  const api = hasAccessCookie(request) || url.searchParams.has('auth') ? apiFor(request, context) : null
  const authProviders =
    api && !user && url.searchParams.get('auth') === '1' ? (await loadSocialProviders(api)).providers : null
  const lastOrders =
    api && user && url.searchParams.get('last-orders') === '1'
      ? await loadLastOrders(api).catch(() => [])
      : null
  return {
    account: { user, authProviders, lastOrders, chatWidgetUrl: chatWidgetUrl() },
    headers: api?.headers ?? new Headers(),
  }
}
