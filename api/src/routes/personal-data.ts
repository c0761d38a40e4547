// Requests about personal data (152-ФЗ, /info/personal-data): the public request and its mailed
// confirmation link (services/personal-data/requests.ts).
import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { clientNetworkOf } from '../lib/client-address'
import { fail, message } from '../lib/errors'
import { ErrorSchema, errorResponses, jsonContent } from '../lib/schemas'
import {
  confirmDataRequest,
  createDataRequest,
  DATA_REQUEST_KINDS,
  DATA_REQUEST_LINK_HOURS,
} from '../services/personal-data/requests'
import { hitRateLimit } from '../services/rate-limit'

/** The longest request text (about a page). */
export const DATA_REQUEST_TEXT_MAX = 2000

const DataRequestIn = z
  .object({
    email: z.email(message('field_email_invalid')).max(254, message('field_email_long')),
    kind: z.enum(DATA_REQUEST_KINDS, message('field_data_request_kind')),
    text: z
      .string(message('field_data_request_text'))
      .trim()
      .max(DATA_REQUEST_TEXT_MAX, message('field_max_chars_sentence', { max: DATA_REQUEST_TEXT_MAX }))
      .default('')
      .openapi({ description: 'Details in the person’s words (may be empty for access and deletion)' }),
  })
  .openapi('DataRequestIn')

const tooMany = {
  description: 'Too many requests (Retry-After says when to retry)',
  headers: z.object({ 'Retry-After': z.string() }),
  content: { 'application/json': { schema: ErrorSchema } },
}

const create = createRoute({
  method: 'post',
  path: '/api/personal-data/requests/',
  tags: ['content'],
  summary: 'Ask about one’s personal data (152-ФЗ): access, correction, deletion, withdrawal of consent',
  description: `Our extension. Stores the request unconfirmed and mails a confirmation link (valid ${DATA_REQUEST_LINK_HOURS} hours) to the email: only the link makes it a task for staff. Limited per client address and per email (429 with Retry-After).`,
  request: { body: { content: { 'application/json': { schema: DataRequestIn } }, required: true } },
  responses: {
    202: jsonContent(z.object({ detail: z.string() }).openapi('DataRequestAccepted'), 'Accepted'),
    ...errorResponses(400),
    429: tooMany,
  },
})

const DataRequestConfirmed = z
  .object({
    kind: z.enum(DATA_REQUEST_KINDS),
    status: z.enum(['open', 'done']).openapi({ description: 'open: staff work on it; done: answered' }),
    due_date: z.string().openapi({ format: 'date', description: 'The answer is due by this Moscow date' }),
  })
  .openapi('DataRequestConfirmed')

const confirm = createRoute({
  method: 'post',
  path: '/api/personal-data/requests/confirm/',
  tags: ['content'],
  summary: 'Confirm a personal data request by the token of its mailed link',
  description:
    'Our extension. The first use makes the request a staff task due in 10 working days (Saturdays and Sundays skipped) and mails the deadline; later uses answer the same. An unknown, altered or expired token is a 400.',
  request: {
    body: {
      content: {
        'application/json': {
          schema: z
            .object({ token: z.string().max(100, message('field_link_invalid')) })
            .openapi('DataRequestConfirm'),
        },
      },
      required: true,
    },
  },
  responses: { 200: jsonContent(DataRequestConfirmed), ...errorResponses(400), 429: tooMany },
})

/** Link opens per client address per 10 minutes (tokens are unguessable; this bounds the work). */
const CONFIRMS_PER_ADDRESS = 60

export function registerPersonalData(app: ApiApp) {
  app.openapi(create, async (c) => {
    const refused = await createDataRequest(c.var.deps, c.req.valid('json'), clientNetworkOf(c))
    if (refused) {
      c.header('Retry-After', String(refused.retryAfter))
      return c.json(
        { detail: message('rate_limited', { seconds: refused.retryAfter }), code: 'rate_limited' },
        429,
      )
    }
    return c.json({ detail: message('data_request_sent') }, 202)
  })

  app.openapi(confirm, async (c) => {
    const hit = await hitRateLimit(
      c.var.deps.db,
      `pdreq:confirm:${clientNetworkOf(c)}`,
      CONFIRMS_PER_ADDRESS,
      600,
    )
    if (!hit.allowed) {
      c.header('Retry-After', String(hit.retryAfter))
      return c.json(
        { detail: message('rate_limited', { seconds: hit.retryAfter }), code: 'rate_limited' },
        429,
      )
    }
    const done = await confirmDataRequest(c.var.deps, c.req.valid('json').token)
    if (!done) throw fail(400, 'data_request_link_invalid')
    c.header('Cache-Control', 'private, no-store')
    return c.json(
      {
        kind: done.kind,
        status: done.status === 'done' ? ('done' as const) : ('open' as const),
        due_date: done.dueDate,
      },
      200,
    )
  })
}
