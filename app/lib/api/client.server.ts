import type { AppLoadContext } from '@remix-run/node'
import createClient, { type Client } from 'openapi-fetch'
import type { paths } from '#openapi/schema'

export type ShopClient = Client<paths>

/** One request's view of the shop API: the typed client and the cookies the response must carry. */
export interface ApiSession {
  client: ShopClient
  /** Set-Cookie headers for the storefront's response (refreshed or cleared tokens). */
  headers: Headers
}

const ACCESS_COOKIE = 'access'

function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie') ?? ''
  for (const part of header.split(/;\s*/)) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1))
  }
  return undefined
}

/** The typed API client for one storefront request (bearer from the `access` cookie). */
export function apiFor(request: Request, context: AppLoadContext): ApiSession {
  const headers = new Headers()
  const access = readCookie(request, ACCESS_COOKIE)
  const client = createClient<paths>({
    baseUrl: context.api.baseUrl,
    fetch: async (req: Request) => {
      if (access) req.headers.set('authorization', `Bearer ${access}`)
      req.headers.set('x-shop-client-ip', context.clientAddress)
      return context.api.fetch(req)
    },
  })
  return { client, headers }
}

/** An API answer that was not 2xx: the status and the text a shopper should see. */
export class ApiResponseError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message)
  }
}

/** The error-text rule (§8): first string in the body, `detail` when the object has `code`. */
export function errorText(body: unknown): string | null {
  if (typeof body === 'string') return body || null
  if (Array.isArray(body)) {
    for (const v of body) {
      const t = errorText(v)
      if (t) return t
    }
    return null
  }
  if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>
    if ('code' in o && typeof o.detail === 'string') return o.detail
    for (const v of Object.values(o)) {
      const t = errorText(v)
      if (t) return t
    }
  }
  return null
}

/** Unwraps an openapi-fetch result: the data, or an ApiResponseError. */
export async function must<T>(
  result: Promise<{ data?: T; error?: unknown; response: Response }>,
  fallbackMessage = 'Произошла ошибка. Попробуйте ещё раз',
): Promise<T> {
  const { data, error, response } = await result
  if (response.ok && data !== undefined) return data
  throw new ApiResponseError(response.status, errorText(error) ?? fallbackMessage, error)
}
