// The fetch under the typed client: one instance per ApiSession (one storefront request).
// Every behaviour of §4, §7 and §8 that concerns the wire lives here:
// - bearer from the session's access token (the `access` cookie, or a refreshed one);
// - timeout (30 s by default) → a synthetic 408 'Request Timeout'; network failure → a synthetic
//   503 'Service Unavailable'; both with a `{detail, code}` body so callers see a normal API error;
// - 503 on GET (a real one or a network failure) retried after 1 s, then 2 s; nothing else retried;
// - 401 while a refresh token exists → one POST /api/auth/jwt/refresh/ shared by every concurrent
//   call of the session, then the failed call is retried once; at most 5 refreshes per session;
//   a refresh answered 400/401 logs the shopper out and the call is retried as a guest;
// - an error body `{code: "no_access", detail: "<text>"}` logs out and queues the detail as an
//   error notification.
// Responses are read whole inside the timeout, so a stalled body also ends as a 408.
import { serverT } from '#app/i18n/i18n.server'
import { logoutCookies, type Tokens, tokenCookies } from '#app/lib/session.server'

export const REFRESH_PATH = '/api/auth/jwt/refresh/'
const CLIENT_IP_HEADER = 'x-shop-client-ip'
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

export interface TransportOptions {
  timeoutMs: number
  /** Waits before each retry of a 503 GET; the retry count is the list's length. */
  retryDelays: readonly number[]
  sleep: (ms: number) => Promise<void>
  maxRefreshes: number
}

export interface ApiNotification {
  type: 'error'
  text: string
}

interface Upstream {
  baseUrl: string
  fetch: (req: Request) => Promise<Response>
  clientAddress: string
}

/** A request whose body is buffered, so it can be sent again (retries, the retry after refresh). */
interface Replayable {
  url: string
  method: string
  headers: Headers
  body: ArrayBuffer | null
  redirect: RequestRedirect
}

/** The shop's messages in the default locale (these texts are made before a page knows its own). */
const t = (key: string) => serverT()(key)

/** A client-side answer in the API's error shape, for failures that never reached the API. */
export function syntheticResponse(status: 408 | 503): Response {
  const [statusText, code, key] =
    status === 408
      ? ['Request Timeout', 'request_timeout', 'errors.request_timeout']
      : ['Service Unavailable', 'service_unavailable', 'errors.service_unavailable']
  return new Response(JSON.stringify({ detail: t(key), code }), {
    status,
    statusText,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-shop-client-error': code },
  })
}

async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => {})
}

function isJson(res: Response): boolean {
  return /[/+]json\b/i.test(res.headers.get('content-type') ?? '')
}

export class SessionTransport {
  access: string | null
  refresh: string | null
  /** Set-Cookie headers for the storefront's response. */
  readonly headers = new Headers()
  readonly notifications: ApiNotification[] = []
  refreshAttempts = 0
  /**
   * Reads shared by the loaders of this one storefront request (ApiSession.once), emptied by any
   * call that may change something (anything but GET and HEAD).
   */
  readonly reads = new Map<string, Promise<unknown>>()
  private readonly cookies = new Map<string, string>()
  private refreshing: Promise<void> | null = null

  constructor(
    private readonly request: Request,
    tokens: Tokens,
    private readonly upstream: Upstream,
    private readonly options: TransportOptions,
  ) {
    this.access = tokens.access
    this.refresh = tokens.refresh
  }

  /** The fetch handed to openapi-fetch. */
  readonly fetch = async (incoming: Request): Promise<Response> => {
    if (incoming.method !== 'GET' && incoming.method !== 'HEAD') this.reads.clear()
    const request: Replayable = {
      url: incoming.url,
      method: incoming.method,
      headers: new Headers(incoming.headers),
      body: incoming.body ? await incoming.arrayBuffer() : null,
      redirect: incoming.redirect,
    }
    const used = this.access
    let res = await this.sendWithRetries(request, used)
    if (res.status === 401 && (await this.renewAfter401(used))) {
      await discard(res)
      res = await this.sendWithRetries(request, this.access)
    }
    await this.checkNoAccess(res)
    return res
  }

  /** Stores new tokens in the session and in Set-Cookie (sign-in, refresh). */
  signIn(tokens: { access: string; refresh: string }): void {
    this.access = tokens.access
    this.refresh = tokens.refresh
    for (const cookie of tokenCookies(tokens, this.request)) this.setCookie(cookie)
  }

  /** Forgets the tokens; Set-Cookie expires both and signals the browser to clear its cart. */
  logout(): void {
    this.access = null
    this.refresh = null
    for (const cookie of logoutCookies(this.request)) this.setCookie(cookie)
  }

  private setCookie(serialized: string): void {
    // one Set-Cookie per name: a later refresh or logout replaces an earlier one
    this.cookies.set(serialized.slice(0, serialized.indexOf('=')), serialized)
    this.headers.delete('set-cookie')
    for (const value of this.cookies.values()) this.headers.append('set-cookie', value)
  }

  /**
   * After a 401 for a call made with `used`: true when the call should be repeated because the
   * session's access token changed (refreshed, or logged out → guest). Concurrent calls share
   * one refresh; a call whose 401 arrives after another call already refreshed just retries.
   */
  private async renewAfter401(used: string | null): Promise<boolean> {
    if (this.access !== used) return true
    if (!this.refresh) return false
    if (!this.refreshing) {
      if (this.refreshAttempts >= this.options.maxRefreshes) return false
      this.refreshAttempts++
      this.refreshing = this.refreshTokens().finally(() => {
        this.refreshing = null
      })
    }
    await this.refreshing
    return this.access !== used
  }

  private async refreshTokens(): Promise<void> {
    const refresh = this.refresh
    const res = await this.sendOnce(
      {
        url: `${this.upstream.baseUrl.replace(/\/$/, '')}${REFRESH_PATH}`,
        method: 'POST',
        headers: new Headers({ 'content-type': 'application/json', accept: 'application/json' }),
        body: new TextEncoder().encode(JSON.stringify({ refresh })).buffer as ArrayBuffer,
        redirect: 'follow',
      },
      null,
    )
    if (res.status === 400 || res.status === 401) {
      this.logout()
      return
    }
    if (!res.ok) return // the API is unwell, not the tokens: keep them
    const body = (await res.json().catch(() => null)) as { access?: unknown; refresh?: unknown } | null
    if (typeof body?.access !== 'string' || !body.access) return
    this.signIn({ access: body.access, refresh: typeof body.refresh === 'string' ? body.refresh : refresh! })
  }

  private async sendWithRetries(request: Replayable, access: string | null): Promise<Response> {
    let res = await this.sendOnce(request, access)
    if (request.method !== 'GET') return res
    for (const delay of this.options.retryDelays) {
      if (res.status !== 503) break
      await discard(res)
      await this.options.sleep(delay)
      res = await this.sendOnce(request, access)
    }
    return res
  }

  /** One exchange, read whole within the timeout; never throws. */
  private async sendOnce(request: Replayable, access: string | null): Promise<Response> {
    const headers = new Headers(request.headers)
    if (access) headers.set('authorization', `Bearer ${access}`)
    else headers.delete('authorization')
    headers.set(CLIENT_IP_HEADER, this.upstream.clientAddress)
    // the shopper's browser, for the API's code-view log (evidence for disputes, issue 34)
    const userAgent = this.request.headers.get('user-agent')
    if (userAgent) headers.set('user-agent', userAgent.slice(0, 400))
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => {
        controller.abort()
        resolve(null)
      }, this.options.timeoutMs)
    })
    const exchange = (async () => {
      const res = await this.upstream.fetch(
        new Request(request.url, {
          method: request.method,
          headers,
          body: request.body,
          redirect: request.redirect,
          signal: controller.signal,
        }),
      )
      const body = NULL_BODY_STATUSES.has(res.status) ? null : await res.arrayBuffer()
      // the body is now whole and decoded: its wire length and encoding no longer apply
      const resHeaders = new Headers(res.headers)
      resHeaders.delete('content-encoding')
      resHeaders.delete('content-length')
      if (body) resHeaders.set('content-length', String(body.byteLength))
      return new Response(body, { status: res.status, statusText: res.statusText, headers: resHeaders })
    })()
    exchange.catch(() => {}) // it may lose the race and fail later
    try {
      return (await Promise.race([exchange, timedOut])) ?? syntheticResponse(408)
    } catch {
      return syntheticResponse(controller.signal.aborted ? 408 : 503)
    } finally {
      clearTimeout(timer)
    }
  }

  private async checkNoAccess(res: Response): Promise<void> {
    if (res.ok || !isJson(res)) return
    const body = (await res
      .clone()
      .json()
      .catch(() => null)) as { code?: unknown; detail?: unknown } | null
    if (body?.code !== 'no_access' || typeof body.detail !== 'string') return
    // a guest has nothing to log out of (and keeps the cart)
    if (this.access || this.refresh) this.logout()
    this.notifications.push({ type: 'error', text: body.detail })
  }
}
