// Personal data requests (152-ФЗ) as staff tasks: the confirmed ones with their deadline, and
// «выполнено», audited (support and owner).
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { fail, message } from '../../lib/errors'
import { errorResponses, jsonContent } from '../../lib/schemas'
import {
  DATA_REQUEST_KINDS,
  type DataRequestRow,
  listDataRequests,
  markDataRequestDone,
} from '../../services/personal-data/requests'
import { jsonBody, Text } from './fields'
import { adminRoute, staffOf } from './guard'

const AdminDataRequest = z
  .object({
    id: z.uuid(),
    email: z.string(),
    kind: z.enum(DATA_REQUEST_KINDS),
    text: z.string(),
    status: z.enum(['open', 'done']),
    received: z.string().openapi({ format: 'date-time', description: 'When the link was opened' }),
    due_date: z.string().openapi({ format: 'date', description: '10 working days after it was received' }),
    done_at: z.string().nullable().openapi({ format: 'date-time' }),
    note: z.string().nullable(),
  })
  .openapi('AdminDataRequest')

const out = (r: DataRequestRow) => ({
  id: r.id,
  email: r.email,
  kind: r.kind,
  text: r.text,
  status: r.status === 'done' ? ('done' as const) : ('open' as const),
  received: (r.confirmedAt ?? r.created).toISOString(),
  due_date: r.dueDate ?? '',
  done_at: r.doneAt?.toISOString() ?? null,
  note: r.note,
})

const listRoute = adminRoute('support', {
  method: 'get',
  path: '/api/admin/data-requests/',
  summary: 'Confirmed personal data requests (152-ФЗ), open by deadline or done',
  description:
    'Open requests soonest deadline first, or the 100 last done. Unconfirmed requests (the link not opened) are not tasks and are never listed.',
  request: {
    query: z.object({
      status: z
        .enum(['open', 'done'], message('field_data_request_status'))
        .default('open')
        .openapi({ param: { name: 'status', in: 'query' } }),
    }),
  },
  responses: { 200: jsonContent(z.array(AdminDataRequest)), ...errorResponses(400, 404) },
})

const doneRoute = adminRoute('support', {
  method: 'post',
  path: '/api/admin/data-requests/{id}/done/',
  summary: 'Mark a personal data request answered',
  description:
    'Open requests only (409 otherwise); written to the audit log with the staff member and the note.',
  request: {
    params: z.object({
      id: z
        .uuid(message('field_data_request_id'))
        .max(36)
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
    ...jsonBody(z.object({ note: Text(1000).default('') }).openapi('AdminDataRequestDone')),
  },
  responses: { 200: jsonContent(AdminDataRequest), ...errorResponses(400, 403, 404, 409) },
})

export function registerAdminDataRequests(app: ApiApp) {
  app.openapi(listRoute, async (c) =>
    c.json((await listDataRequests(c.var.deps.db, c.req.valid('query').status)).map(out), 200),
  )

  app.openapi(doneRoute, async (c) => {
    const row = await markDataRequestDone(
      c.var.deps.db,
      staffOf(c),
      c.req.valid('param').id,
      c.req.valid('json').note,
    )
    if (!row) throw fail(409, 'data_request_not_open')
    return c.json(out(row), 200)
  })
}
