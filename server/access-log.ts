// One JSON access line per request (method, path with its query, status, duration, client address
// as TRUST_PROXY decided it, request id), the request id sent back as X-Request-Id and attached to
// every log line written while the request runs; console output becomes JSON lines too.
import { randomUUID } from 'node:crypto'
import { format } from 'node:util'
import type { MiddlewareHandler } from 'hono'
import { log, requestContext, scrubUrlPath } from '#api/lib/log'
import { observeRequest } from './metrics'

/** An incoming X-Request-Id (from a balancer) is kept when it is short and plain. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/

export function accessLog(): MiddlewareHandler<{ Variables: { clientAddress: string } }> {
  return async (c, next) => {
    const started = performance.now()
    const incoming = c.req.header('x-request-id')
    const reqId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID()
    let failed: unknown
    try {
      await requestContext.run({ reqId }, () => next())
    } catch (err) {
      failed = err
    }
    const status = failed ? 500 : c.res.status
    const url = new URL(c.req.url)
    const line = {
      reqId,
      method: c.req.method,
      path: scrubUrlPath(url.pathname + url.search),
      status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      client: c.get('clientAddress'),
    }
    observeRequest(line.method, url.pathname, status, line.durationMs / 1000)
    if (failed) log.error({ ...line, err: failed }, 'request failed')
    else log[status >= 500 ? 'warn' : 'info'](line, 'request')
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
