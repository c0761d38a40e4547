// Voucher and gift code stock: import from CSV or pasted text with a line-by-line report, counts,
// masked lists. A code is unique across the whole shop (sold ones included), so a code imported
// twice, or already sold, is refused rather than sold again.
import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { giftCodes, gifts, products, voucherCodes } from '../../db/schema'

export const MAX_IMPORT_LINES = 20_000
export const MAX_CODE_LENGTH = 100
/** A code: printable ASCII without spaces or separators (what suppliers issue). */
const CODE_RE = /^[\x21-\x7e]+$/

export type StockTarget =
  | { kind: 'product'; id: number; amountUc: number | null }
  | { kind: 'gift'; id: number }

export interface ParsedLine {
  line: number
  code: string
  amountUc?: number
}
export interface RefusedLine {
  line: number
  text: string
  reason:
    | 'malformed'
    | 'duplicate_in_upload'
    | 'already_in_stock'
    | 'too_long'
    | 'bad_amount'
    | 'amount_mismatch'
}

type LineResult = { code: string; amountUc?: number } | RefusedLine['reason']

/**
 * One line of an upload: `code` or `code,amount_uc` (`;` and tab separate too). A product with a UC
 * amount takes only codes of that amount: a 60 UC code in the 325 UC product would be sold as 325 UC.
 */
function readLine(text: string, target: StockTarget): LineResult {
  const cells = text.split(/[,;\t]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1'))
  const [code = '', amount, ...rest] = cells
  if (rest.length > 0 || !code || !CODE_RE.test(code)) return 'malformed'
  if (code.length > MAX_CODE_LENGTH) return 'too_long'
  const hasAmount = amount !== undefined && amount !== ''
  if (target.kind === 'gift') return hasAmount ? 'malformed' : { code }
  if (!hasAmount) return target.amountUc ? { code } : 'bad_amount'
  if (!/^\d{1,7}$/.test(amount) || Number(amount) <= 0) return 'bad_amount'
  if (target.amountUc && Number(amount) !== target.amountUc) return 'amount_mismatch'
  return { code, amountUc: Number(amount) }
}

/**
 * Reads an upload, one code per line. A header line "code…" is skipped; blank lines are ignored;
 * a code seen earlier in the same upload is refused.
 */
export function parseCodes(text: string, target: StockTarget): { ok: ParsedLine[]; refused: RefusedLine[] } {
  const ok: ParsedLine[] = []
  const refused: RefusedLine[] = []
  const seen = new Set<string>()
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)
  lines.forEach((raw, i) => {
    const line = i + 1
    const trimmed = raw.trim()
    if (!trimmed || (line === 1 && /^code\b/i.test(trimmed))) return
    const r = readLine(trimmed, target)
    const shown = trimmed.slice(0, 120)
    if (typeof r === 'string') refused.push({ line, text: shown, reason: r })
    else if (seen.has(r.code)) refused.push({ line, text: shown, reason: 'duplicate_in_upload' })
    else {
      seen.add(r.code)
      ok.push({ line, ...r })
    }
  })
  return { ok, refused }
}

/**
 * Inserts the parsed codes in batches; a code that exists anywhere already is reported per line.
 * With `dryRun` nothing is written (the report says what would happen).
 */
export async function importCodes(tx: Tx, target: StockTarget, parsed: ParsedLine[], dryRun: boolean) {
  const refused: RefusedLine[] = []
  let imported = 0
  for (let i = 0; i < parsed.length; i += 1000) {
    const batch = parsed.slice(i, i + 1000)
    const codes = batch.map((p) => p.code)
    let inserted: Set<string>
    if (dryRun) {
      const table = target.kind === 'product' ? voucherCodes : giftCodes
      const existing = await tx.select({ code: table.code }).from(table).where(inArray(table.code, codes))
      const taken = new Set(existing.map((e) => e.code))
      inserted = new Set(codes.filter((c) => !taken.has(c)))
    } else if (target.kind === 'product') {
      const rows = await tx
        .insert(voucherCodes)
        .values(
          batch.map((p) => ({
            productId: target.id,
            code: p.code,
            amountUc: p.amountUc ?? target.amountUc ?? 0,
          })),
        )
        .onConflictDoNothing()
        .returning({ code: voucherCodes.code })
      inserted = new Set(rows.map((r) => r.code))
    } else {
      const rows = await tx
        .insert(giftCodes)
        .values(batch.map((p) => ({ giftId: target.id, code: p.code })))
        .onConflictDoNothing()
        .returning({ code: giftCodes.code })
      inserted = new Set(rows.map((r) => r.code))
    }
    imported += inserted.size
    for (const p of batch)
      if (!inserted.has(p.code)) refused.push({ line: p.line, text: p.code, reason: 'already_in_stock' })
  }
  return { imported, refused }
}

/** Free and sold counts per PUBG product and per gift (held counts join when holds exist). */
export async function stockCounts(db: Db) {
  const voucherRows = await db
    .select({
      id: products.id,
      title: products.title,
      threshold: products.lowStockThreshold,
      free: sql<number>`count(${voucherCodes.id}) filter (where ${voucherCodes.soldAt} is null)`.mapWith(
        Number,
      ),
      sold: sql<number>`count(${voucherCodes.id}) filter (where ${voucherCodes.soldAt} is not null)`.mapWith(
        Number,
      ),
    })
    .from(products)
    .leftJoin(voucherCodes, eq(voucherCodes.productId, products.id))
    .where(eq(products.kind, 'PUBGProduct'))
    .groupBy(products.id, products.title, products.lowStockThreshold)
    .orderBy(asc(products.id))
  const giftRows = await db
    .select({
      id: gifts.id,
      title: gifts.title,
      threshold: gifts.lowStockThreshold,
      free: sql<number>`count(${giftCodes.id}) filter (where ${giftCodes.soldAt} is null)`.mapWith(Number),
      sold: sql<number>`count(${giftCodes.id}) filter (where ${giftCodes.soldAt} is not null)`.mapWith(
        Number,
      ),
    })
    .from(gifts)
    .leftJoin(giftCodes, eq(giftCodes.giftId, gifts.id))
    .groupBy(gifts.id, gifts.title, gifts.lowStockThreshold)
    .orderBy(asc(gifts.id))
  return { products: voucherRows, gifts: giftRows }
}

/** One page of a product's or gift's codes, newest first, masked. */
export async function listCodes(
  db: Db,
  target: StockTarget,
  status: 'free' | 'sold' | undefined,
  page: number,
  size: number,
) {
  const t = target.kind === 'product' ? voucherCodes : giftCodes
  const owner =
    target.kind === 'product' ? eq(voucherCodes.productId, target.id) : eq(giftCodes.giftId, target.id)
  const where = and(
    owner,
    status === 'free' ? isNull(t.soldAt) : status === 'sold' ? isNotNull(t.soldAt) : undefined,
  )
  const [total] = await db.select({ n: count() }).from(t).where(where)
  const rows = await db
    .select({ id: t.id, code: t.code, soldAt: t.soldAt })
    .from(t)
    .where(where)
    .orderBy(sql`${t.id} desc`)
    .limit(size)
    .offset((page - 1) * size)
  return { count: total?.n ?? 0, rows }
}

/** Sets the free-code count under which staff are alerted (null: the shop default, 0: never). */
export async function setLowStockThreshold(db: Db | Tx, target: StockTarget, threshold: number | null) {
  if (target.kind === 'product')
    await db.update(products).set({ lowStockThreshold: threshold }).where(eq(products.id, target.id))
  else await db.update(gifts).set({ lowStockThreshold: threshold }).where(eq(gifts.id, target.id))
}
