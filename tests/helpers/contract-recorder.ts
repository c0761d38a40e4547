// Every request the API tests send through a test API (tests/helpers/test-api.ts: `call` and
// `app.request` alike) is checked against the contract as it happens (issue 44). An answer the
// contract does not promise (an undeclared status, another content type, a body off its schema)
// fails the test that got it. A request the contract would not allow is only counted (tests send
// bad input on purpose); one it allows but the server refused at validation is a finding. Each
// test process writes what it saw under .cache/contract/, which tests/helpers/contract-report.ts
// adds up after the run.
import { appendFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { judgeExchange, type SentRequest } from './contract'

const DIR = path.join(process.cwd(), '.cache', 'contract')

export interface Traffic {
  requests: number
  operations: Set<string>
  invalidRequests: number
  findings: string[]
}

export const traffic: Traffic = { requests: 0, operations: new Set(), invalidRequests: 0, findings: [] }

/** Appends this file's figures to .cache/contract/traffic-<database>.jsonl and starts afresh. */
export function writeTraffic(file = ''): void {
  if (traffic.requests === 0) return
  mkdirSync(DIR, { recursive: true })
  const line = {
    file,
    project: process.env.TEST_DB ?? 'pglite',
    requests: traffic.requests,
    invalidRequests: traffic.invalidRequests,
    operations: [...traffic.operations],
    findings: traffic.findings,
  }
  appendFileSync(path.join(DIR, `traffic-${line.project}.jsonl`), `${JSON.stringify(line)}\n`)
  traffic.requests = 0
  traffic.invalidRequests = 0
  traffic.operations.clear()
  traffic.findings = []
}

export class ContractViolation extends Error {}

function headersOf(init: RequestInit | undefined, input: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  const add = (h: HeadersInit | undefined) => {
    if (!h) return
    new Headers(h).forEach((v, k) => {
      out[k] = v
    })
  }
  if (input instanceof Request) add(input.headers)
  add(init?.headers)
  return out
}

/** Checks one exchange; throws ContractViolation when the answer is not one the contract promises. */
export async function checkExchange(sent: SentRequest, res: Response): Promise<void> {
  const url = new URL(sent.url, 'http://contract.local')
  if (!url.pathname.startsWith('/api/')) return
  traffic.requests++
  const type = res.headers.get('content-type') ?? ''
  const text = /json/.test(type) && sent.method !== 'HEAD' ? await res.clone().text() : ''
  const verdict = judgeExchange(sent, { status: res.status, contentType: type, text })
  if (verdict.operation) traffic.operations.add(verdict.operation)
  if (verdict.requestProblems.length > 0) traffic.invalidRequests++
  if (verdict.refusedValid)
    traffic.findings.push(`valid request refused: ${sent.method} ${sent.url} → ${text.slice(0, 200)}`)
  if (verdict.responseProblem)
    throw new ContractViolation(
      verdict.operation
        ? `contract: ${sent.method} ${sent.url}: ${verdict.responseProblem}`
        : verdict.responseProblem,
    )
}

/** Makes every `app.request` of a test API check its exchange against the contract. */
export function checkTrafficOf(app: { request: (...args: never[]) => unknown }): void {
  const original = app.request.bind(app) as (
    input: unknown,
    init?: RequestInit,
    ...rest: unknown[]
  ) => Promise<Response>
  const patched = async (input: unknown, init?: RequestInit, ...rest: unknown[]) => {
    const res = await original(input, init, ...rest)
    const url = input instanceof Request ? input.url : String(input)
    const body = init?.body
    const sent: SentRequest = {
      method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
      url,
      headers: headersOf(init, input),
      body: typeof body === 'string' ? body : body instanceof URLSearchParams ? body.toString() : undefined,
      binaryBody:
        (body !== undefined &&
          body !== null &&
          typeof body !== 'string' &&
          !(body instanceof URLSearchParams)) ||
        (input instanceof Request && input.body !== null),
    }
    await checkExchange(sent, res)
    return res
  }
  ;(app as { request: unknown }).request = patched
}
