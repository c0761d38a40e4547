// Back-office stock: counts, CSV/paste import with a line-by-line report, masked lists, and
// revealing one code at a time (audited).
import { z } from '@hono/zod-openapi'
import { eq } from 'drizzle-orm'
import type { ApiApp } from '../../context'
import type { Db, Tx } from '../../db/client'
import { giftCodes, gifts, products, voucherCodes } from '../../db/schema'
import { fail } from '../../lib/errors'
import { pageNumberPage, pageQuery, pageSchema } from '../../lib/pagination'
import { errorResponses, IdParam, idParam, jsonContent } from '../../lib/schemas'
import { audit } from '../../services/admin/audit'
import { maskCode } from '../../services/admin/mask'
import {
  importCodes,
  setLowStockThreshold,
  listCodes,
  MAX_IMPORT_LINES,
  parseCodes,
  type StockTarget,
  stockCounts,
} from '../../services/admin/stock'
import { jsonBody } from './fields'
import { adminRoute, staffOf } from './guard'

const KindParam = z.object({
  kind: z.enum(['products', 'gifts'], 'products или gifts').openapi({ param: { name: 'kind', in: 'path' } }),
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
      .max(4_000_000, 'файл слишком большой')
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
      .number({ error: 'ожидается целое число' })
      .int('ожидается целое число')
      .min(0, 'не меньше 0')
      .max(1_000_000, 'не больше 1000000')
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

async function resolveTarget(db: Db | Tx, kind: 'products' | 'gifts', id: number): Promise<StockTarget> {
  if (kind === 'products') {
    const [p] = await db
      .select({ id: products.id, kind: products.kind, amountUc: products.amountUc })
      .from(products)
      .where(eq(products.id, id))
    if (p?.kind !== 'PUBGProduct') throw fail(404, 'not_found')
    return { kind: 'product', id, amountUc: p.amountUc }
  }
  const [g] = await db.select({ id: gifts.id }).from(gifts).where(eq(gifts.id, id))
  if (!g) throw fail(404, 'not_found')
  return { kind: 'gift', id }
}

export function registerAdminStock(app: ApiApp) {
  app.openapi(counts, async (c) => {
    return c.json(await stockCounts(c.var.deps.db), 200)
  })

  app.openapi(thresholdRoute, async (c) => {
    const { kind, id } = c.req.valid('param')
    const { threshold } = c.req.valid('json')
    const { db } = c.var.deps
    await db.transaction(async (tx) => {
      const target = await resolveTarget(tx, kind, id)
      await setLowStockThreshold(tx, target, threshold)
      await audit(tx, staffOf(c), {
        action: 'stock.threshold',
        entity: kind === 'products' ? 'product' : 'gift',
        entityId: id,
        after: { low_stock_threshold: threshold },
      })
    })
    return c.json({ threshold }, 200)
  })

  app.openapi(importRoute, async (c) => {
    const staff = staffOf(c)
    const { kind, id } = c.req.valid('param')
    const { text, dry_run: dryRun = false } = c.req.valid('json')
    const target = await resolveTarget(c.var.deps.db, kind, id)
    const lines = text.split(/\r\n|\n|\r/).length
    if (lines > MAX_IMPORT_LINES) throw fail(413, 'admin_import_too_many', { max: MAX_IMPORT_LINES })
    const parsed = parseCodes(text, target)
    const result = await c.var.deps.db.transaction(async (tx) => {
      const r = await importCodes(tx, target, parsed.ok, dryRun)
      if (!dryRun && r.imported > 0)
        await audit(tx, staff, {
          action: 'stock.import',
          entity: target.kind,
          entityId: id,
          after: { imported: r.imported, refused: parsed.refused.length + r.refused.length },
        })
      return r
    })
    const refused = [...parsed.refused, ...result.refused].sort((a, b) => a.line - b.line)
    return c.json({ imported: result.imported, refused, dry_run: dryRun }, 200)
  })

  app.openapi(list, async (c) => {
    const { kind, id } = c.req.valid('param')
    const { page = 1, page_size: size = 50, status } = c.req.valid('query')
    const target = await resolveTarget(c.var.deps.db, kind, id)
    const { count, rows } = await listCodes(c.var.deps.db, target, status, page, size)
    const results = rows.map((r) => ({
      id: r.id,
      code: maskCode(r.code),
      sold_at: r.soldAt?.toISOString() ?? null,
    }))
    return c.json(pageNumberPage(c.req.url, count, page, size, results), 200)
  })

  app.openapi(reveal, async (c) => {
    const staff = staffOf(c)
    const { kind, id, code_id: codeId } = c.req.valid('param')
    const target = await resolveTarget(c.var.deps.db, kind, id)
    const row = await c.var.deps.db.transaction(async (tx) => {
      const t = target.kind === 'product' ? voucherCodes : giftCodes
      const owner = target.kind === 'product' ? voucherCodes.productId : giftCodes.giftId
      const [r] = await tx
        .select({ id: t.id, code: t.code, soldAt: t.soldAt, owner })
        .from(t)
        .where(eq(t.id, codeId))
      if (!r || r.owner !== id) throw fail(404, 'not_found')
      await audit(tx, staff, { action: 'stock.reveal', entity: `${target.kind}_code`, entityId: codeId })
      return r
    })
    return c.json({ id: row.id, code: row.code, sold_at: row.soldAt?.toISOString() ?? null }, 200)
  })
}
