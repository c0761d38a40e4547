// One JSON access line per request (method, path with its query, status, duration, client address
// as TRUST_PROXY decided it, request id), the request id sent back as X-Request-Id and attached to
// every log line written while the request runs; console output becomes JSON lines too.
import { randomUUID } from 'node:crypto'
import { format } from 'node:util'
import type { MiddlewareHandler } from 'hono'
import { accessLogger, log, requestContext, scrubUrlPath } from '#api/lib/log'
import { observeRequest } from './metrics'

/** An incoming X-Request-Id (from a balancer) is kept when it is short and plain. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/

export interface AccessLine {
  reqId: string
  method: string
  /** path with its query, as received (scrubbed here) */
  path: string
  status: number
  durationMs: number
  client: string
}

/** The request id of a request: the balancer's X-Request-Id when plain, else a new one. */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
}

/**
 * The longest path an access line keeps (a request line may be about 16 KB): lines stay under the
 * 4 KiB a pipe writes in one piece (api/src/lib/log-output.ts), and a client cannot grow the log
 * by kilobytes a request.
 */
export const LOGGED_PATH_MAX = 1024

/** The path with its query as the access line names it: scrubbed, and cut at LOGGED_PATH_MAX. */
export function loggedPath(pathAndQuery: string): string {
  const scrubbed = scrubUrlPath(pathAndQuery)
  return scrubbed.length > LOGGED_PATH_MAX ? `${scrubbed.slice(0, LOGGED_PATH_MAX)}…` : scrubbed
}

/** Writes one access line and counts the request in the metrics (every answer, cached or not). */
export function writeAccessLine(line: AccessLine, err?: unknown): void {
  const pathname = line.path.split('?', 1)[0]!
  const entry = { ...line, path: loggedPath(line.path) }
  observeRequest(line.method, pathname, line.status, line.durationMs / 1000)
  if (err) log.error({ ...entry, err }, 'request failed')
  else accessLogger[line.status >= 500 ? 'warn' : 'info'](entry, 'request')
}

/** Milliseconds since `started` (a performance.now() reading), to a tenth. */
export const elapsedMs = (started: number) => Math.round((performance.now() - started) * 10) / 10

export function accessLog(): MiddlewareHandler<{ Variables: { clientAddress: string } }> {
  return async (c, next) => {
    const started = performance.now()
    const reqId = requestIdOf(c.req.header('x-request-id'))
    let failed: unknown
    try {
      await requestContext.run({ reqId }, () => next())
    } catch (err) {
      failed = err
    }
    const url = new URL(c.req.url)
    writeAccessLine(
      {
        reqId,
        method: c.req.method,
        path: url.pathname + url.search,
        status: failed ? 500 : c.res.status,
        durationMs: elapsedMs(started),
        client: c.get('clientAddress'),
      },
      failed,
    )
    if (failed) throw failed
    try {
      c.res.headers.set('x-request-id', reqId)
    } catch {
      c.res = new Response(c.res.body, c.res)
      c.res.headers.set('x-request-id', reqId)
    }
  }
}

/** console.log/info/warn/error/debug of any module (Remix, libraries) as JSON log lines. */
export function routeConsoleToLog(): void {
  const write =
    (level: 'info' | 'warn' | 'error' | 'debug') =>
    (...args: unknown[]) => {
      const err = args.find((a) => a instanceof Error)
      const text = format(...args.filter((a) => a !== err))
      if (err) log[level]({ err }, text || (err as Error).message)
      else log[level](text)
    }
  console.log = write('info')
  console.info = write('info')
  console.warn = write('warn')
  console.error = write('error')
  console.debug = write('debug')
}
