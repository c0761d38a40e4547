import { PassThrough } from 'node:stream'
import {
  type AppLoadContext,
  createReadableStreamFromReadable,
  type EntryContext,
  type HandleErrorFunction,
} from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { NonceProvider } from '#app/components/nonce'
import { rewriteAppScripts } from '#app/lib/csp-stream.server'
import { stripNulBytes } from '#app/lib/strip-nul.server'
import { i18nServer, localeFromCookie, serializeLocaleCookie } from '#app/i18n/i18n.server'
import { captureServerError } from '#app/lib/sentry.server'

export const streamTimeout = 5000

/** Remembers the detected locale in `i18n_redirected` on the first visit (§1). */
async function rememberLocale(request: Request, headers: Headers) {
  if (localeFromCookie(request)) return
  headers.append('set-cookie', serializeLocaleCookie(await i18nServer.getLocale(request)))
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  await rememberLocale(request, responseHeaders)
  const nonce = loadContext.cspNonce
  // A popup URL (?auth=1, ?last-orders=1) renders its lazily loaded popup in place: without
  // JavaScript, a streamed Suspense block would stay hidden.
  const waitForAll =
    isbot(request.headers.get('user-agent') ?? '') ||
    remixContext.isSpaMode ||
    /[?&](auth|last-orders)=1(&|$)/.test(new URL(request.url).search)
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ''}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? 'onAllReady' : 'onShellReady']() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('content-type', 'text/html; charset=utf-8')
          // the page carries this response's nonce: no shared cache may keep it
          if (!responseHeaders.has('cache-control')) responseHeaders.set('cache-control', 'private, no-cache')
          const clean = body.pipe(stripNulBytes())
          const stream = nonce ? clean.pipe(rewriteAppScripts(nonce)) : clean
          // A browser that goes away mid-page destroys these streams with an error; `.pipe` adds
          // no listener, and an unheard 'error' would end the process.
          for (const s of new Set([body, clean, stream])) s.on('error', ignoreDisconnect)
          resolve(
            new Response(createReadableStreamFromReadable(stream), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          )
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // too late for the status once the shell went out: at least never keep this page
          loadContext.spoilPage?.()
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, streamTimeout + 1000)
  })
}

function ignoreDisconnect() {}

/**
 * A client navigation's data (`*.data`) can hold the visitor's own account and orders: like the
 * pages, no shared cache (a CDN, a proxy) may keep it.
 */
export function handleDataRequest(response: Response): Response {
  if (response.headers.has('cache-control')) return response
  const headers = new Headers(response.headers)
  headers.set('cache-control', 'private, no-cache')
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}

/** Unexpected loader, action and render errors: logged, and reported when a DSN is set (§9). */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return
  console.error(error)
  captureServerError(error, request)
}
