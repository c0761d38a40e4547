// The e2e run's contract watch (issue 44): in a demo process started with E2E=1 only
// (config.contractWatchFile), every exchange of the API — the browser's and the e2e specs' calls
// over HTTP and the storefront's loaders and actions in process alike — is judged against
// openapi/schema.json by the same checker the API tests use (shared/contract-check.ts). What is off
// the contract is appended to the file at once; the counts (requests, operations) every second.
// e2e/global-teardown.ts fails the run on any problem. Never mounted in production: the config is
// null there, and production refuses E2E=1 (env.ts); the checker (and ajv, a development
// dependency) is imported only by a process that mounts this.
import { appendFileSync } from 'node:fs'
import type { MiddlewareHandler } from 'hono'
import type { WatchLine } from '../../../shared/contract-watch'
import type { AppEnv } from '../context'

type Checker = typeof import('../../../shared/contract-check')

const FLUSH_MS = 1000
/** A request body read for the check: JSON and forms; an upload is judged by its media type only. */
const TEXT_BODY = /json|x-www-form-urlencoded|^text\//i

export function contractWatch(file: string): MiddlewareHandler<AppEnv> {
  let checker: Promise<Checker> | null = null
  const counts = { requests: 0, offContract: 0, operations: new Set<string>() }
  let written = -1
  const write = (line: WatchLine) => appendFileSync(file, `${JSON.stringify(line)}\n`)
  const flush = () => {
    if (written === counts.requests) return
    written = counts.requests
    write({
      kind: 'counts',
      pid: process.pid,
      requests: counts.requests,
      offContract: counts.offContract,
      operations: [...counts.operations],
    })
  }
  setInterval(flush, FLUSH_MS).unref()
  process.once('beforeExit', flush)

  return async (c, next) => {
    checker ??= import('../../../shared/contract-check')
    const req = c.req.raw
    const type = req.headers.get('content-type') ?? ''
    const body = req.body && TEXT_BODY.test(type) ? await req.clone().text() : undefined
    await next()
    const check = await checker
    const res = c.res
    const resType = res.headers.get('content-type') ?? ''
    const url = new URL(req.url)
    const method = req.method.toUpperCase()
    const text = /json/i.test(resType) && method !== 'HEAD' ? await res.clone().text() : ''
    const headers: Record<string, string> = {}
    req.headers.forEach((v, k) => {
      headers[k] = v
    })
    const sent = {
      method,
      url: url.pathname + url.search,
      headers,
      body,
      // a POST with no content (Content-Length: 0, no type) carries no body, as the contract means it
      binaryBody: req.body !== null && body === undefined && carriesContent(req.headers),
    }
    const verdict = check.judgeExchange(sent, { status: res.status, contentType: resType, text })
    counts.requests++
    if (verdict.operation) counts.operations.add(verdict.operation)
    if (verdict.requestProblems.length > 0) counts.offContract++
    const problem = (p: 'answer' | 'refused' | 'accepted', detail: string) =>
      write({ kind: 'problem', problem: p, method, url: sent.url, status: res.status, detail })
    if (verdict.responseProblem) problem('answer', verdict.responseProblem)
    if (verdict.refusedValid) problem('refused', text.slice(0, 300))
    // a request the contract does not allow, answered with success: the server takes more than it
    // publishes (an answer of 4xx to such a request is the server refusing bad input, as it should)
    if (verdict.requestProblems.length > 0 && res.status < 300)
      problem('accepted', verdict.requestProblems.join('; ').slice(0, 500))
  }
}

/** Whether a request announces content: a media type, a length above zero, or a chunked body. */
function carriesContent(headers: Headers): boolean {
  if (headers.get('content-type')) return true
  const length = headers.get('content-length')
  if (length !== null) return Number(length) > 0
  return headers.has('transfer-encoding')
}
