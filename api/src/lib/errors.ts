import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/faults'
import apiMessages from '../../../locales/ru/api.json' with { type: 'json' }
import { log } from './log'

export type MessageCode = keyof typeof apiMessages
export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 408
  | 409
  | 410
  | 413
  | 415
  | 422
  | 429
  | 502
  | 503

/** The one error body of the API: `detail` is the message a client shows, `code` a stable key. */
export interface ErrorBody {
  detail: string
  code: string
  fields?: Record<string, string[]>
}

/** Russian message for an API error code, with `{name}` placeholders filled. */
export function message(code: MessageCode, params: Record<string, string | number> = {}): string {
  return apiMessages[code].replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`))
}

export class ApiError extends Error {
  /** Seconds the client should wait, sent as Retry-After (a refusal over a rate limit). */
  retryAfter?: number

  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    detail: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(detail)
  }

  get body(): ErrorBody {
    return { detail: this.message, code: this.code, ...(this.fields ? { fields: this.fields } : {}) }
  }
}

/** Throws-ready error with a catalogued Russian message. */
export function fail(
  status: ErrorStatus,
  code: MessageCode,
  params?: Record<string, string | number>,
): ApiError {
  return new ApiError(status, code, message(code, params))
}

/** Field error: the message names what is wrong, `fields` says where. */
export function fieldError(
  field: string,
  code: MessageCode,
  params?: Record<string, string | number>,
): ApiError {
  const detail = message(code, params)
  return new ApiError(400, code, detail, { [field]: [detail] })
}

export function errorResponse(c: Context, err: unknown): Response {
  if (err instanceof ApiError) {
    if (err.retryAfter !== undefined) c.header('Retry-After', String(err.retryAfter))
    return c.json(err.body, err.status)
  }
  if (err instanceof HTTPException) {
    const status = err.status
    if (status === 400) return c.json({ detail: message('malformed_body'), code: 'malformed_body' }, 400)
    if (status === 413) return c.json({ detail: message('body_too_large'), code: 'body_too_large' }, 413)
    if (status === 415)
      return c.json({ detail: message('unsupported_media_type'), code: 'unsupported_media_type' }, 415)
    if (status === 401)
      return c.json({ detail: message('not_authenticated'), code: 'not_authenticated' }, 401)
    return c.json({ detail: err.message || message('bad_request'), code: 'http_error' }, status)
  }
  if (err instanceof SyntaxError)
    return c.json({ detail: message('malformed_body'), code: 'malformed_body' }, 400)
  if (hasSqlState(err, '22021', '22P05'))
    return c.json({ detail: message('invalid_characters'), code: 'invalid_characters' }, 400)
  if (hasSqlState(err, '22003'))
    return c.json({ detail: message('value_out_of_range'), code: 'value_out_of_range' }, 400)
  if (isDatabaseUnavailable(err)) {
    c.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
    return c.json({ detail: message('database_unavailable'), code: 'database_unavailable' }, 503)
  }
  log.error({ err }, 'unhandled API error')
  return c.json({ detail: message('internal_error'), code: 'internal_error' }, 500)
}

/**
 * PostgreSQL refuses some values outright: text with a NUL byte or an invalid byte sequence
 * (SQLSTATE 22021 / 22P05), a number too large for its column (22003). Such a value can only come
 * from the request, so it is a bad request, not a crash.
 */
function hasSqlState(err: unknown, ...codes: string[]): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && codes.includes(e.code)) return true
    e = e.cause as typeof e
  }
  return false
}
