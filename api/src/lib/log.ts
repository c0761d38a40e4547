// The one logger of the shop: JSON lines (time, level, msg, request id, fields) through pino.
// Personal data never goes into a log: pass ids, not emails, tokens, codes or SQL parameters. What
// slips through anyway (an email in an error message, a failed query's parameters, a token in a
// URL) is scrubbed here: by field name (redact) and by shape in every string (scrubText).
import { AsyncLocalStorage } from 'node:async_hooks'
import pino from 'pino'
import { stdoutLineSink } from './log-output'

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

function levelFromEnv(): string {
  const wanted = process.env.LOG_LEVEL
  if (wanted && (LEVELS as readonly string[]).includes(wanted)) return wanted
  return process.env.NODE_ENV === 'test' ? 'warn' : 'info'
}

/** The request a log line belongs to (set by the server for each request, see server/access-log.ts). */
export const requestContext = new AsyncLocalStorage<{ reqId: string }>()

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g
/** A JWT or any other long opaque token (40+ URL-safe characters; UUIDs are 36 and stay). */
const TOKEN =
  /\b(?:eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|[A-Za-z0-9_-]{40,}(?:\.[A-Za-z0-9_-]+)*)/g
/** drizzle's "Failed query: … params: a@b.c,…" and pg's "DETAIL: Key (email)=(…)": values dropped. */
const SQL_PARAMS = /(params:|\bKey \([^)]*\)=)[\s\S]*?(?=\n|$)/g

/** Removes emails, tokens and SQL parameters from any text bound for the log. */
export function scrubText(text: string): string {
  return text.replace(SQL_PARAMS, '$1 [redacted]').replace(EMAIL, '[email]').replace(TOKEN, '[token]')
}

/** Query parameters whose values are secrets or personal data, whatever their shape. */
const SECRET_PARAMS =
  /^(email|e?mail_?\w*|token|access|refresh|code|state|password|secret|signature|sig|hash|id_token)$/i

/** A path with its query for the access line: secret parameter values and token-like parts gone. */
export function scrubUrlPath(pathAndQuery: string): string {
  const q = pathAndQuery.indexOf('?')
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q)
  if (q < 0) return scrubText(path)
  const params = pathAndQuery
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=')
      const key = eq < 0 ? pair : pair.slice(0, eq)
      let name = key
      try {
        name = decodeURIComponent(key)
      } catch {}
      return eq >= 0 && SECRET_PARAMS.test(name) ? `${key}=[redacted]` : pair
    })
  let query = params.join('&')
  try {
    // scrub the decoded form too, so "a%40b.c" is caught as an email
    if (scrubText(decodeURIComponent(query)) !== decodeURIComponent(query))
      query = scrubText(decodeURIComponent(query))
  } catch {}
  return `${scrubText(path)}?${scrubText(query)}`
}

interface SerializedError {
  type: string
  message: string
  stack?: string
  /** SQLSTATE or errno name (not `code`: that name is redacted as a secret). */
  errorCode?: string
  cause?: SerializedError
}

/** An error as one JSON value: type, message, stack, SQLSTATE code, cause; nothing else of it. */
export function serializeError(err: unknown, depth = 0): SerializedError {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubText(String(err)) }
  const out: SerializedError = { type: err.name, message: scrubText(err.message) }
  if (err.stack) out.stack = scrubText(err.stack)
  const code = (err as { code?: unknown }).code
  if (typeof code === 'string') out.errorCode = code
  if (err.cause !== undefined && depth < 3) out.cause = serializeError(err.cause, depth + 1)
  return out
}

let stampedAt = 0
let stamp = ''
/** pino's ISO time field, formatted once per millisecond (a busy shop writes many lines in one). */
export function isoTime(): string {
  const now = Date.now()
  if (now !== stampedAt) {
    stampedAt = now
    stamp = `,"time":"${new Date(now).toISOString()}"`
  }
  return stamp
}

const sink = stdoutLineSink()

/** The shape of every line: level name, ISO time, pid, message under `msg`. */
const lineFormat = {
  level: levelFromEnv(),
  base: { pid: process.pid },
  timestamp: isoTime,
  messageKey: 'msg',
  formatters: { level: (label: string) => ({ level: label }) },
}

export const log = pino(
  {
    ...lineFormat,
    mixin() {
      const store = requestContext.getStore()
      return store ? { reqId: store.reqId } : {}
    },
    serializers: { err: serializeError, error: serializeError },
    hooks: {
      // the message itself may quote an email (e.g. a console.error of a provider's answer)
      logMethod(args, method) {
        const scrubbed = args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as Parameters<
          typeof method
        >
        return method.apply(this, scrubbed)
      },
    },
    redact: {
      paths: [
        'email',
        '*.email',
        'password',
        '*.password',
        'token',
        '*.token',
        'access',
        'refresh',
        'code',
        '*.code',
        'params',
        '*.params',
        'headers.authorization',
        'headers.cookie',
      ],
      censor: '[redacted]',
    },
  },
  sink,
)

/**
 * The access line's own logger, on the same sink and in the same format. Its fields are built and
 * scrubbed by the server (server/access-log.ts), so it skips the redaction and message scrubbing
 * meant for arbitrary objects: they were a sixth of a cached API answer's time (issue 15).
 */
export const accessLogger = pino(lineFormat, sink)
