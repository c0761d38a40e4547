// Back-office stock: counts, CSV/paste import with a line-by-line report, masked lists, and
// revealing one code at a time (audited).
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { pageNumberPage, pageQuery, pageSchema } from '../../lib/pagination'
import { errorResponses, IdParam, idParam, jsonContent } from '../../lib/schemas'
import { stockCounts } from '../../services/admin/stock'
import { importStock, revealStockCode, setStockThreshold, stockCodes } from '../../services/admin/stock-desk'
import { jsonBody } from './fields'
import { adminRoute, staffOf } from './guard'
import { message } from '../../lib/errors'

const KindParam = z.object({
  kind: z
    .enum(['products', 'gifts'], message('field_stock_scope'))
    .openapi({ param: { name: 'kind', in: 'path' } }),
})
const TargetParams = KindParam.extend(IdParam.shape)

const Counts = z
  .object({
    id: z.number().int(),
    title: z.string(),
    free: z.number().int(),
    sold: z.number().int(),
    threshold: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'alert under this many free codes; null: 10' }),
  })
  .openapi('AdminStockCount')
const ImportBody = z
  .object({
    text: z
      .string()
      .max(4_000_000, message('field_file_too_large'))
      .openapi({ description: 'One code per line, or CSV `code,amount_uc` (vouchers)' }),
    dry_run: z.boolean().optional().openapi({ description: 'Check only: report what would be imported' }),
  })
  .openapi('AdminStockImport')
const ImportReport = z
  .object({
    imported: z.number().int(),
    refused: z.array(
      z.object({
        line: z.number().int(),
        text: z.string(),
        reason: z.enum([
          'malformed',
          'duplicate_in_upload',
          'already_in_stock',
          'too_long',
          'bad_amount',
          'amount_mismatch',
        ]),
      }),
    ),
    dry_run: z.boolean(),
  })
  .openapi('AdminStockImportReport')
const CodeItem = z
  .object({ id: z.number().int(), code: z.string(), sold_at: z.string().nullable() })
  .openapi('AdminStockCode')

const counts = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/stock/',
  summary: 'Free and sold codes per voucher product and per gift',
  responses: {
    200: jsonContent(z.object({ products: z.array(Counts), gifts: z.array(Counts) }).openapi('AdminStock')),
    ...errorResponses(403, 404),
  },
})
const importRoute = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/stock/{kind}/{id}/codes/',
  summary:
    'Import codes for a voucher product or a gift (line-by-line report; refused lines are not imported)',
  request: { params: TargetParams, ...jsonBody(ImportBody) },
  responses: { 200: jsonContent(ImportReport), ...errorResponses(400, 403, 404, 413) },
})
const list = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/stock/{kind}/{id}/codes/',
  summary: 'A page of codes, masked, newest first',
  request: {
    params: TargetParams,
    query: pageQuery.extend({ status: z.enum(['free', 'sold']).optional() }),
  },
  responses: {
    200: jsonContent(pageSchema(CodeItem).openapi('AdminStockCodePage')),
    ...errorResponses(400, 403, 404),
  },
})
const reveal = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/stock/{kind}/{id}/codes/{code_id}/reveal/',
  summary: 'Show one code in full (written to the audit log)',
  request: {
    params: TargetParams.extend({
      code_id: idParam('code_id'),
    }),
  },
  responses: { 200: jsonContent(CodeItem), ...errorResponses(400, 403, 404) },
})

const ThresholdBody = z
  .object({
    threshold: z
      .number({ error: message('field_integer') })
      .int(message('field_integer'))
      .min(0, message('field_min', { min: 0 }))
      .max(1_000_000, message('field_max', { max: 1_000_000 }))
      .nullable()
      .openapi({ description: 'free codes under which staff are alerted; 0 never, null the default (10)' }),
  })
  .openapi('AdminStockThreshold')
const thresholdRoute = adminRoute('owner', {
  method: 'put',
  path: '/api/admin/stock/{kind}/{id}/threshold/',
  summary: 'Sets the low-stock alert threshold of a voucher product or a gift',
  request: { params: TargetParams, ...jsonBody(ThresholdBody) },
  responses: { 200: jsonContent(ThresholdBody), ...errorResponses(400, 403, 404) },
})

export function registerAdminStock(app: ApiApp) {
  app.openapi(counts, async (c) => {
    return c.json(await stockCounts(c.var.deps.db), 200)
  })

  app.openapi(thresholdRoute, async (c) => {
    const { kind, id } = c.req.valid('param')
    const { threshold } = c.req.valid('json')
    await setStockThreshold(c.var.deps.db, staffOf(c), kind, id, threshold)
    return c.json({ threshold }, 200)
  })

  app.openapi(importRoute, async (c) => {
    const { kind, id } = c.req.valid('param')
    const { text, dry_run: dryRun = false } = c.req.valid('json')
    const result = await importStock(c.var.deps.db, staffOf(c), kind, id, text, dryRun)
    return c.json({ imported: result.imported, refused: result.refused, dry_run: dryRun }, 200)
  })

  app.openapi(list, async (c) => {
    const { kind, id } = c.req.valid('param')
    const { page = 1, page_size: size = 50, status } = c.req.valid('query')
    const { count, rows } = await stockCodes(c.var.deps.db, kind, id, status, page, size)
    const results = rows.map((r) => ({ id: r.id, code: r.code, sold_at: r.soldAt?.toISOString() ?? null }))
    return c.json(pageNumberPage(c.req.url, count, page, size, results), 200)
  })

  app.openapi(reveal, async (c) => {
    const { kind, id, code_id: codeId } = c.req.valid('param')
    const row = await revealStockCode(c.var.deps.db, staffOf(c), kind, id, codeId)
    return c.json({ id: row.id, code: row.code, sold_at: row.soldAt?.toISOString() ?? null }, 200)
  })
}
