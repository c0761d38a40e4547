// The contract (openapi/schema.json) as a checker of real traffic (issue 44): which operation a
// request is, whether the request is one the contract allows (path and query parameters, the body's
// media type and JSON schema), and whether the answer is one it promises (a declared status, a
// declared content type, a body valid against its schema). Used by the fuzz, the property run,
// every call of the API test helper (tests/helpers/contract-recorder.ts) and, in the e2e run only,
// the shop's own contract watch (api/src/lib/contract-watch.ts). Never loaded in production: ajv is
// a development dependency, and only a demo process with E2E=1 imports this module.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { listOperations, type OpenApiDocument, type Operation } from './openapi-operations'
import { projectRoot } from './project-root'

export const contractDoc = JSON.parse(
  readFileSync(path.join(projectRoot, 'openapi/schema.json'), 'utf8'),
) as OpenApiDocument

export const contractOperations = listOperations(contractDoc)

// biome-ignore lint/suspicious/noExplicitAny: ajv's CJS default export under ESM
const ajv = new (Ajv2020 as any)({
  strict: false,
  allErrors: false,
  validateFormats: true,
})
// biome-ignore lint/suspicious/noExplicitAny: same
;(addFormats as any)(ajv)
ajv.addSchema(contractDoc, 'openapi')
const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')
type Validate = ((v: unknown) => boolean) & { errors?: unknown }
const validators = new Map<string, Validate>()
function validatorAt(ref: string): Validate {
  let v = validators.get(ref)
  if (!v) {
    v = ajv.compile({ $ref: `openapi#${ref}` }) as Validate
    validators.set(ref, v)
  }
  return v
}
const opRef = (op: Operation) => `/paths/${pointer(op.path)}/${op.method.toLowerCase()}`

const matchers = contractOperations.map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/[.+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`),
  names: [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
}))

/** The operation a method and path are, with the path's parameters (as sent, decoded). */
export function operationOf(
  method: string,
  path: string,
): { op: Operation; params: Record<string, string> } | null {
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()
  // a literal path wins over a template (`/api/orders/pubg/` before `/api/orders/{id}/`)
  const candidates = matchers.filter((x) => x.op.method === m && x.pattern.test(path))
  candidates.sort((a, b) => a.names.length - b.names.length)
  const hit = candidates[0]
  if (!hit) return null
  const values = hit.pattern.exec(path)!.slice(1)
  const params: Record<string, string> = {}
  hit.names.forEach((n, i) => {
    try {
      params[n] = decodeURIComponent(values[i]!)
    } catch {
      params[n] = values[i]!
    }
  })
  return { op: hit.op, params }
}

/** A parameter's string as its schema's type reads it ("12" → 12 for an integer), or the string. */
function asTyped(value: string, schema: { type?: unknown } | undefined): unknown {
  const t = schema?.type
  const types = Array.isArray(t) ? t : [t]
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value))
    return Number(value)
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true'
  return value
}

export interface SentRequest {
  method: string
  /** Path and query string. */
  url: string
  headers: Record<string, string>
  /** The body as sent, when it was text (JSON or a form); undefined when none or binary. */
  body?: string
  /** True when a body was sent that is not text (FormData, a Blob). */
  binaryBody?: boolean
}

/** What is wrong with a request by the contract (empty: a request the contract allows). */
export function requestProblems(
  op: Operation,
  pathParams: Record<string, string>,
  req: SentRequest,
): string[] {
  const problems: string[] = []
  const url = new URL(req.url, 'http://contract.local')
  const ref = opRef(op)
  op.params.forEach((p, i) => {
    const raw =
      p.in === 'path'
        ? pathParams[p.name]
        : p.in === 'query'
          ? (url.searchParams.get(p.name) ?? undefined)
          : p.in === 'header'
            ? Object.entries(req.headers).find(([k]) => k.toLowerCase() === p.name.toLowerCase())?.[1]
            : undefined
    if (raw === undefined) {
      if (p.required) problems.push(`${p.in} ${p.name} missing`)
      return
    }
    if (!p.schema) return
    const v = validatorAt(`${ref}/parameters/${i}/schema`)
    if (!v(asTyped(raw, p.schema)))
      problems.push(
        `${p.in} ${p.name}=${JSON.stringify(raw).slice(0, 60)} ${JSON.stringify(v.errors).slice(0, 200)}`,
      )
  })
  const type = (Object.entries(req.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '')
    .split(';')[0]!
    .trim()
  const hasBody = req.body !== undefined || req.binaryBody
  if (!op.body) return problems
  if (!hasBody) {
    if (op.body.required) problems.push('body missing')
    return problems
  }
  const content = (opResponsesDoc(op).requestBody?.content ?? {}) as Record<string, unknown>
  if (!Object.keys(content).some((m) => m === type)) {
    problems.push(`body type ${type || 'none'} not declared (${Object.keys(content).join(', ')})`)
    return problems
  }
  if (type.includes('json') && req.body !== undefined) {
    let value: unknown
    try {
      value = JSON.parse(req.body)
    } catch {
      problems.push('body is not JSON')
      return problems
    }
    const v = validatorAt(`${ref}/requestBody/content/${pointer(type)}/schema`)
    if (!v(value)) problems.push(`body ${JSON.stringify(v.errors).slice(0, 300)}`)
  }
  return problems
}

function opResponsesDoc(op: Operation) {
  return contractDoc.paths[op.path]![op.method.toLowerCase()] as {
    requestBody?: { content?: Record<string, unknown> }
  }
}

export interface Answer {
  status: number
  contentType: string
  text: string
}

/** What is wrong with an answer by the contract, or null when it is one the operation promises. */
export function responseProblem(op: Operation, answer: Answer): string | null {
  const declared = op.responses[String(answer.status)]
  if (!declared) return `undeclared status ${answer.status}: ${answer.text.slice(0, 200)}`
  const content = declared.content ?? {}
  const mediaTypes = Object.keys(content)
  if (mediaTypes.length === 0) return null
  const type = answer.contentType.split(';')[0]!.trim()
  const declaredType = mediaTypes.find(
    (m) => m === type || (m.endsWith('/*') && type.startsWith(m.slice(0, -1))),
  )
  if (!declaredType)
    return `${answer.status} answered ${type || 'no content type'}, declared ${mediaTypes.join(', ')}`
  if (!declaredType.includes('json')) return null
  let value: unknown
  try {
    value = JSON.parse(answer.text)
  } catch {
    return `${answer.status} body is not JSON: ${answer.text.slice(0, 200)}`
  }
  const v = validatorAt(`${opRef(op)}/responses/${answer.status}/content/${pointer(declaredType)}/schema`)
  if (v(value)) return null
  return `${answer.status} body does not match: ${JSON.stringify(v.errors).slice(0, 300)} body=${answer.text.slice(0, 200)}`
}

/** The sandbox checkout page's stylesheet: a file the page links, not an operation. */
const CHECKOUT_CSS = /^\/api\/payments\/sandbox\/checkout\.css$/

/** What one exchange says about the contract (see judgeExchange). */
export interface Verdict {
  /** The operation's name ("GET /api/games/"), or null for a path no operation has. */
  operation: string | null
  /** Why the request is not one the contract allows (empty: it is). */
  requestProblems: string[]
  /** Why the answer is not one the contract promises, or null when it is. */
  responseProblem: string | null
  /** A request the contract allows, refused by the server's validation. */
  refusedValid: boolean
}

/**
 * Judges one exchange of the API: the operation, the request's problems, the answer's problem.
 * `answer.text` is the body when the answer is JSON (unread otherwise). Paths outside /api/ and the
 * sandbox checkout's stylesheet are no operation and no problem.
 */
export function judgeExchange(sent: SentRequest, answer: Answer): Verdict {
  const url = new URL(sent.url, 'http://contract.local')
  const none: Verdict = { operation: null, requestProblems: [], responseProblem: null, refusedValid: false }
  if (!url.pathname.startsWith('/api/') || CHECKOUT_CSS.test(url.pathname)) return none
  const hit = operationOf(sent.method, url.pathname)
  if (!hit) {
    // no such operation: the API answers 404 (unknown path) or 405 (another method), both its own
    if (answer.status === 404 || answer.status === 405) return none
    return {
      ...none,
      responseProblem: `${sent.method} ${url.pathname} is no operation of the contract, answered ${answer.status}`,
    }
  }
  const problems = requestProblems(hit.op, hit.params, sent)
  return {
    operation: hit.op.name,
    requestProblems: problems,
    responseProblem: sent.method === 'HEAD' ? null : responseProblem(hit.op, answer),
    refusedValid:
      problems.length === 0 && answer.status === 400 && /"code":"validation_error"/.test(answer.text),
  }
}
