// «Сверка» (issue 43): the differences between the shop's books and the payment providers', a
// person's explanation of one, and a run now. Owner only: it is about the shop's money.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { ApiError, fail, message } from '../../lib/errors'
import { toMoney } from '../../lib/money'
import { DEFAULT_LIMIT, limitOffsetPage, limitOffsetQuery, pageSchema } from '../../lib/pagination'
import { ErrorSchema, errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { ProviderError } from '../../providers/types'
import {
  type DifferenceRow,
  explainDifference,
  listDifferences,
  RECONCILIATION_KINDS,
  RECONCILIATION_STATUSES,
} from '../../services/reconciliation/differences'
import { DEFAULT_HOURS, lastHours, runReconciliation } from '../../services/reconciliation/run'
import { hitRateLimit } from '../../services/rate-limit'
import { Filled, jsonBody } from './fields'
import { adminRoute, staffOf } from './guard'

/** Runs now, shop-wide (each reads the providers' lists): this many per window. */
export const RUNS_PER_WINDOW = 10
export const RUN_WINDOW_SECONDS = 600

const Amount = z
  .object({ amount: z.string().openapi({ example: '1101.60' }), currency: z.string() })
  .nullable()

const Difference = z
  .object({
    id: z.number().int(),
    provider: z.string(),
    kind: z.enum(RECONCILIATION_KINDS).openapi({
      description:
        'paid_at_provider_only: the provider took a payment the shop has not as paid; paid_in_shop_only: the shop has a payment as paid the provider has not; amount_differs: amount or currency differ; refund_at_provider_only: a refund the shop does not know; refund_in_shop_only: a refund done in the shop with none at the provider',
    }),
    status: z.enum(RECONCILIATION_STATUSES).openapi({
      description: 'open; explained by a person (note); resolved: a later run no longer found it',
    }),
    order_id: z.uuid().nullable(),
    order_number: z.number().int().nullable().optional().openapi({
      description: 'Our extension (decision 135): the order’s short number for people; null without an order',
    }),
    payment_id: z.uuid().nullable(),
    refund_id: z.number().int().nullable(),
    external_id: z.string().nullable().openapi({ description: 'The provider’s id of the payment or refund' }),
    provider_amount: Amount,
    shop_amount: Amount,
    occurred_at: z.string().openapi({ format: 'date-time' }),
    detected_at: z.string().openapi({ format: 'date-time' }),
    resolved_at: z.string().nullable().openapi({ format: 'date-time' }),
    explained_at: z.string().nullable().openapi({ format: 'date-time' }),
    explained_by: z.string().nullable(),
    note: z.string().nullable(),
  })
  .openapi('ReconciliationDifference')

const amountOut = (amount: number | null, currency: string | null) =>
  amount === null ? null : { amount: toMoney(amount), currency: currency ?? '' }

const out = (r: DifferenceRow) => ({
  id: r.id,
  provider: r.provider,
  kind: r.kind,
  status: r.status,
  order_id: r.orderId,
  order_number: r.orderNumber,
  payment_id: r.paymentId,
  refund_id: r.refundId,
  external_id: r.externalId,
  provider_amount: amountOut(r.providerAmount, r.providerCurrency),
  shop_amount: amountOut(r.shopAmount, r.shopCurrency),
  occurred_at: r.occurredAt.toISOString(),
  detected_at: r.detectedAt.toISOString(),
  resolved_at: r.resolvedAt?.toISOString() ?? null,
  explained_at: r.explainedAt?.toISOString() ?? null,
  explained_by: r.explainedByEmail,
  note: r.note,
})

const listRoute = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/reconciliation/',
  summary: 'Differences between the shop’s books and the payment providers’ («Сверка»)',
  description: 'Newest first (by when the payment or refund was made), limit/offset pages.',
  request: {
    query: limitOffsetQuery.extend({
      status: z
        .enum(RECONCILIATION_STATUSES, message('field_reconciliation_status'))
        .optional()
        .openapi({ param: { name: 'status', in: 'query' } }),
      kind: z
        .enum(RECONCILIATION_KINDS, message('field_discrepancy_kind'))
        .optional()
        .openapi({ param: { name: 'kind', in: 'query' } }),
      provider: z
        .string()
        .max(40, message('field_provider_name_long'))
        .optional()
        .openapi({ param: { name: 'provider', in: 'query' } }),
    }),
  },
  responses: {
    200: jsonContent(pageSchema(Difference).openapi('ReconciliationPage')),
    ...errorResponses(400, 403, 404),
  },
})

const explainRoute = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/reconciliation/{id}/explain/',
  summary: 'Mark a difference explained, with a note',
  description: 'Open differences only (409 otherwise); written to the audit log with the owner and the note.',
  request: {
    params: IdParam,
    ...jsonBody(
      z.object({ note: Filled(1000, message('field_discrepancy_note')) }).openapi('ReconciliationExplain'),
    ),
  },
  responses: { 200: jsonContent(Difference), ...errorResponses(400, 403, 404, 409) },
})

const RunResult = z
  .object({
    from: z.string().openapi({ format: 'date-time' }),
    to: z.string().openapi({ format: 'date-time' }),
    providers: z.array(
      z.object({
        provider: z.string(),
        payments: z.number().int().openapi({ description: 'Payments the provider listed' }),
        refunds: z.number().int().openapi({ description: 'Refunds the provider listed' }),
        found: z.number().int().openapi({ description: 'Differences found in the period' }),
        opened: z.number().int().openapi({ description: 'Of them new (or found again)' }),
        resolved: z.number().int().openapi({ description: 'Open ones no longer found' }),
      }),
    ),
  })
  .openapi('ReconciliationRun')

const runRoute = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/reconciliation/run/',
  summary: 'Compare the books with the providers’ now',
  description: `Compares the payments and refunds of the last \`hours\` (default ${DEFAULT_HOURS}) with every configured provider that lists them (YooKassa). At most ${RUNS_PER_WINDOW} runs per ${RUN_WINDOW_SECONDS / 60} minutes for the whole shop (429 with Retry-After); 502 when a provider cannot be asked.`,
  request: {
    // optional: an empty call runs the default period
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z
            .object({
              hours: z
                .number(message('field_hours_integer'))
                .int(message('field_hours_integer'))
                .min(1, message('field_hours_min'))
                .max(24 * 31, message('field_hours_max'))
                .default(DEFAULT_HOURS),
            })
            .openapi('ReconciliationRunRequest'),
        },
      },
    },
  },
  responses: {
    200: jsonContent(RunResult),
    ...errorResponses(400, 403, 404, 429),
    502: jsonContent(ErrorSchema, 'A provider’s API cannot be asked'),
  },
})

export function registerAdminReconciliation(app: ApiApp) {
  app.openapi(listRoute, async (c) => {
    const q = c.req.valid('query')
    const limit = q.limit ?? DEFAULT_LIMIT
    const offset = q.offset ?? 0
    const page = await listDifferences(c.var.deps.db, {
      status: q.status,
      kind: q.kind,
      provider: q.provider,
      limit,
      offset,
    })
    return c.json(limitOffsetPage(c.req.url, page.count, limit, offset, page.rows.map(out)), 200)
  })

  app.openapi(explainRoute, async (c) => {
    const row = await explainDifference(
      c.var.deps.db,
      staffOf(c),
      c.req.valid('param').id,
      c.req.valid('json').note.trim(),
    )
    if (row === null) throw fail(404, 'reconciliation_not_found')
    if (row === 'not_open') throw fail(409, 'reconciliation_not_open')
    return c.json(out(row), 200)
  })

  app.openapi(runRoute, async (c) => {
    const { db } = c.var.deps
    const hit = await hitRateLimit(db, 'reconciliation:run', RUNS_PER_WINDOW, RUN_WINDOW_SECONDS)
    if (!hit.allowed) {
      c.header('Retry-After', String(hit.retryAfter))
      throw fail(429, 'rate_limited', { seconds: hit.retryAfter })
    }
    const period = lastHours(c.req.valid('json')?.hours ?? DEFAULT_HOURS)
    try {
      const providers = await runReconciliation(c.var.deps, period)
      return c.json({ from: period.from.toISOString(), to: period.to.toISOString(), providers }, 200)
    } catch (e) {
      if (e instanceof ProviderError)
        throw new ApiError(502, 'reconciliation_provider_error', message('reconciliation_provider_error'))
      throw e
    }
  })
}
