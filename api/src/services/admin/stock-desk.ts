// The back-office's stock desk for one voucher product or gift: its low-stock threshold, importing
// codes (a report line by line; a dry run changes nothing), its masked codes, and revealing one code
// (audited). A product that is not a voucher product, or an unknown gift, is not found.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { giftCodes, gifts, products, voucherCodes } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { audit } from './audit'
import { maskCode } from './mask'
import type { StaffMember } from './roles'
import {
  importCodes,
  listCodes,
  MAX_IMPORT_LINES,
  parseCodes,
  setLowStockThreshold,
  type StockTarget,
} from './stock'

export type StockOwner = 'products' | 'gifts'

async function resolveTarget(db: Db | Tx, kind: StockOwner, id: number): Promise<StockTarget> {
  if (kind === 'products') {
    const [p] = await db
      .select({ id: products.id, kind: products.kind, amountUc: products.amountUc })
      .from(products)
      .where(eq(products.id, id))
    if (p?.kind !== 'PUBGProduct') throw refuse('not_found')
    return { kind: 'product', id, amountUc: p.amountUc }
  }
  const [g] = await db.select({ id: gifts.id }).from(gifts).where(eq(gifts.id, id))
  if (!g) throw refuse('not_found')
  return { kind: 'gift', id }
}

export async function setStockThreshold(
  db: Db,
  staff: StaffMember,
  kind: StockOwner,
  id: number,
  threshold: number | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const target = await resolveTarget(tx, kind, id)
    await setLowStockThreshold(tx, target, threshold)
    await audit(tx, staff, {
      action: 'stock.threshold',
      entity: kind === 'products' ? 'product' : 'gift',
      entityId: id,
      after: { low_stock_threshold: threshold },
    })
  })
}

/** Imports codes from pasted text or a CSV; returns how many went in and the refused lines, in order. */
export async function importStock(
  db: Db,
  staff: StaffMember,
  kind: StockOwner,
  id: number,
  text: string,
  dryRun: boolean,
) {
  const target = await resolveTarget(db, kind, id)
  const lines = text.split(/\r\n|\n|\r/).length
  if (lines > MAX_IMPORT_LINES) throw refuse('admin_import_too_many', { max: MAX_IMPORT_LINES })
  const parsed = parseCodes(text, target)
  const result = await db.transaction(async (tx) => {
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
  return { imported: result.imported, refused }
}

/** One page of the codes, newest first, masked. */
export async function stockCodes(
  db: Db,
  kind: StockOwner,
  id: number,
  status: 'free' | 'sold' | undefined,
  page: number,
  size: number,
) {
  const target = await resolveTarget(db, kind, id)
  const { count, rows } = await listCodes(db, target, status, page, size)
  return { count, rows: rows.map((r) => ({ id: r.id, code: maskCode(r.code), soldAt: r.soldAt })) }
}

/** One code in full, for a staff member who needs to read it out (audited). */
export async function revealStockCode(
  db: Db,
  staff: StaffMember,
  kind: StockOwner,
  id: number,
  codeId: number,
) {
  const target = await resolveTarget(db, kind, id)
  return db.transaction(async (tx) => {
    const t = target.kind === 'product' ? voucherCodes : giftCodes
    const owner = target.kind === 'product' ? voucherCodes.productId : giftCodes.giftId
    const [r] = await tx
      .select({ id: t.id, code: t.code, soldAt: t.soldAt, owner })
      .from(t)
      .where(eq(t.id, codeId))
    if (!r || r.owner !== id) throw refuse('not_found')
    await audit(tx, staff, { action: 'stock.reveal', entity: `${target.kind}_code`, entityId: codeId })
    return { id: r.id, code: r.code, soldAt: r.soldAt }
  })
}
