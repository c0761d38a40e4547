// The storefront's typed client for the shop API; the only importer of openapi-fetch.
//
// Use it in a loader or action (the action and every loader of one request get the same session):
//
//   const api = apiFor(request, context)
//   const game = await must(api.client.GET('/api/games/{id}/', { params: { path: { id } } }))
//   return data({ game, notifications: api.notifications }, { headers: api.headers })
//
// - `api.headers` holds Set-Cookie headers (refreshed tokens, or the expired tokens and the
//   `cart_clear` signal of a logout). Return them on the response, also on redirects and thrown
//   responses, or the browser keeps stale tokens.
// - `api.notifications` collects messages for the toast area, `{type: 'error', text}`: today the
//   detail of a `no_access` answer (§8). Loaders forward them to the page.
// - `must()` unwraps a result or throws ApiResponseError(status, text) with the §8 error text.
//   A timeout arrives as status 408 and a network failure as 503, like any API error.
// - A call with a required path or body parameter that is null/undefined rejects with
//   RequiredParameterError before anything is sent (§5).
// - After sign-in call `api.signIn({access, refresh})` (later calls use it, cookies are set); the
//   logout action calls `api.logout()`; `api.signedIn` tells whether a token is held now.
// - Unknown `resourcetype` or payment scenario types: see ./resourcetypes.
// - POST /api/auth/jwt/refresh/ is sent by the transport itself, not through the typed client, so a
//   refresh never triggers another refresh.
// The wire behaviours (bearer, refresh, retries, timeout) live in ./transport.server.
import type { AppLoadContext } from '@remix-run/node'
import createClient, { type Client } from 'openapi-fetch'
import { storefrontEnv } from '#app/env.server'
import { serverT } from '#app/i18n/i18n.server'
import { readTokens } from '#app/lib/session.server'
import type { paths } from '#openapi/schema'
import { errorText } from './error-text'
import { assertRequiredParams, type CallInit, contractRequiresBody } from './required-params.server'
import { type ApiNotification, SessionTransport } from './transport.server'

export { errorText } from './error-text'
export { RequiredParameterError } from './required-params.server'
export type { ApiNotification } from './transport.server'

export type ShopClient<P extends {} = paths> = Client<P>

/** One storefront request's view of the shop API. */
export interface ApiSession<P extends {} = paths> {
  client: ShopClient<P>
  /** Set-Cookie headers for the storefront's response (refreshed or cleared tokens). */
  headers: Headers
  /** Toasts to show, e.g. the detail of a `no_access` answer. */
  notifications: ApiNotification[]
  /** Whether the session holds an access token now (after any refresh or logout). */
  readonly signedIn: boolean
  /** A personal fill's template render (server/personal-fill.ts): signed in as nobody. */
  readonly template: boolean
  /** After sign-in: use these tokens for later calls and store them in cookies. */
  signIn(tokens: { access: string; refresh: string }): void
  /** Logout (§4): forget the tokens, expire both cookies, clear the stored cart. */
  logout(): void
  /**
   * One read for every loader of this storefront request that asks for `key` (the root and a page
   * both show the profile), as the account that holds the session now; a write through this
   * session (anything but GET) forgets every such read.
   */
  once<T>(key: string, load: () => Promise<T>): Promise<T>
}

export interface ApiOptions {
  /** Per attempt; default API_TIMEOUT_MS (30 000 ms). */
  timeoutMs?: number
  /** Waits before retrying a GET answered 503; default [1000, 2000]. */
  retryDelays?: readonly number[]
  sleep?: (ms: number) => Promise<void>
  /** Token refreshes allowed in one session; default 5. */
  maxRefreshes?: number
  /** Which operations need a body; default: the committed contract. */
  bodyRequired?: (method: string, path: string) => boolean
}

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'] as const
type Method = (typeof METHODS)[number]
type Call = (url: string, init?: CallInit) => Promise<unknown>

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** The typed API client for one storefront request, against any paths type (tests use their own). */
export function createApiSession<P extends {}>(
  request: Request,
  context: AppLoadContext,
  options: ApiOptions = {},
): ApiSession<P> {
  const transport = new SessionTransport(
    request,
    readTokens(request),
    { baseUrl: context.api.baseUrl, fetch: context.api.fetch, clientAddress: context.clientAddress },
    {
      timeoutMs: options.timeoutMs ?? storefrontEnv.API_TIMEOUT_MS,
      retryDelays: options.retryDelays ?? [1000, 2000],
      sleep: options.sleep ?? wait,
      maxRefreshes: options.maxRefreshes ?? 5,
    },
  )
  const raw = createClient<P>({ baseUrl: context.api.baseUrl, fetch: transport.fetch })
  const bodyRequired = options.bodyRequired ?? contractRequiresBody
  const calls = raw as unknown as Record<Method, Call>
  const guarded: Record<string, unknown> = { ...raw }
  for (const method of METHODS) {
    guarded[method] = async (url: string, init?: CallInit) => {
      assertRequiredParams(method, url, init, bodyRequired)
      return calls[method](url, init)
    }
  }
  guarded.request = async (method: string, url: string, init?: CallInit) => {
    const upper = method.toUpperCase() as Method
    assertRequiredParams(upper, url, init, bodyRequired)
    return calls[upper](url, init)
  }
  return {
    client: guarded as unknown as ShopClient<P>,
    headers: transport.headers,
    notifications: transport.notifications,
    get signedIn() {
      return transport.access !== null
    },
    template: context.personalTemplate === true,
    signIn: (tokens) => transport.signIn(tokens),
    logout: () => transport.logout(),
    once<T>(key: string, load: () => Promise<T>): Promise<T> {
      const k = `${transport.access ?? ''}\u0000${key}`
      let read = transport.reads.get(k) as Promise<T> | undefined
      if (!read) {
        read = load()
        transport.reads.set(k, read)
      }
      return read
    },
  }
}

const sessions = new WeakMap<AppLoadContext, ApiSession>()

/**
 * The typed API client for one storefront request (bearer from the `access` cookie). The action
 * and loaders of one HTTP request share one session, so they share one token refresh (the API
 * rotates refresh tokens: one page load sets one new pair of cookies), one set of Set-Cookie
 * headers and one notification list. The session is keyed by the load context, which the server
 * makes once per HTTP request: Remix hands every loader its own copy of the Request, so the
 * request object itself cannot be the key. With `options` (tests) a fresh session is made.
 */
export function apiFor(request: Request, context: AppLoadContext, options?: ApiOptions): ApiSession {
  if (options) return createApiSession<paths>(request, context, options)
  let session = sessions.get(context)
  if (!session) {
    session = createApiSession<paths>(request, context)
    sessions.set(context, session)
  }
  return session
}

/** The shop's messages in the default locale (these texts are made before a page knows its own). */
const t = (key: string) => serverT()(key)

/** An API answer that was not 2xx: the status and the text a shopper should see. */
export class ApiResponseError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message)
    this.name = 'ApiResponseError'
  }

  /** The API's stable error code, when the body has one (`request_timeout` etc. for client ones). */
  get code(): string | null {
    const code = (this.body as { code?: unknown } | null)?.code
    return typeof code === 'string' ? code : null
  }
}

/** Unwraps an openapi-fetch result: the data, or an ApiResponseError with the §8 error text. */
export async function must<T>(
  result: Promise<{ data?: T; error?: unknown; response: Response }>,
  fallbackMessage = t('errors.generic_error'),
): Promise<T> {
  const { data, error, response } = await result
  if (response.ok) return data as T
  // only a JSON body carries text for people (not a proxy's HTML error page)
  const json = /[/+]json\b/i.test(response.headers.get('content-type') ?? '')
  throw new ApiResponseError(response.status, (json ? errorText(error) : null) ?? fallbackMessage, error)
}
