import { and, count, desc, eq, isNotNull, type SQL, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { gifts } from '../../db/schema'
import { fail } from '../../lib/errors'
import { toMoney } from '../../lib/money'
import { DEFAULT_LIMIT } from '../../lib/pagination'
import type { GiftListParams } from './wire-types'

export type GiftRow = typeof gifts.$inferSelect
/** Which of the three gift lists: all, new (is_new) or discounted (discount_price set). */
export type GiftList = 'all' | 'new' | 'discounted'

/**
 * True while the gift has at least one unsold code (a correlated EXISTS, served by
 * gift_codes_free_idx). Qualified by hand: drizzle renders the columns of a one-table select
 * unqualified, and an unqualified `id` inside this subquery would mean gift_codes.id.
 */
const inStockExpr = sql<boolean>`exists (select 1 from gift_codes as free_code where free_code.gift_id = "gifts"."id" and free_code.sold_at is null and (free_code.held_until is null or free_code.held_until <= now()))`

/** `%text%` for ILIKE with the user's own %, _ and \ taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
}

function listConditions(list: GiftList, params: GiftListParams): SQL[] {
  const where: SQL[] = [eq(gifts.isActive, true)]
  if (list === 'new') where.push(eq(gifts.isNew, true))
  if (list === 'discounted') where.push(isNotNull(gifts.discountPrice))
  if (params.is_main !== undefined) where.push(eq(gifts.isMain, params.is_main))
  const search = params.search?.trim()
  if (search) {
    const p = containsPattern(search)
    where.push(
      sql`(${gifts.title} ilike ${p} or ${gifts.type} ilike ${p} or ${gifts.region} ilike ${p} or exists (select 1 from jsonb_array_elements_text("gifts"."tags") as tag(value) where tag.value ilike ${p}))`,
    )
  }
  const titlePart = params.title__icontains?.trim()
  if (titlePart) where.push(sql`${gifts.title} ilike ${containsPattern(titlePart)}`)
  return where
}

export function serializeGift(row: GiftRow, inStock: boolean) {
  return {
    resourcetype: 'RokkyGift' as const,
    id: row.id,
    title: row.title,
    type: row.type,
    price: toMoney(row.price),
    region: row.region,
    cashback: row.cashback,
    logo: row.logo,
    discount_price: row.discountPrice === null ? null : toMoney(row.discountPrice),
    discount_percent: row.discountPercent,
    in_stock: inStock,
  }
}

export function serializeGiftDetail(row: GiftRow, inStock: boolean) {
  return {
    ...serializeGift(row, inStock),
    description: row.description,
    tags: row.tags,
    created: row.created.toISOString(),
  }
}

/** One page of a gift list: only active gifts, newest first (id breaks ties so pages never overlap). */
export async function listGifts(db: Db, list: GiftList, params: GiftListParams) {
  const where = and(...listConditions(list, params))
  const limit = params.limit ?? DEFAULT_LIMIT
  const offset = params.offset ?? 0
  const [rows, totals] = await Promise.all([
    db
      .select({ gift: gifts, inStock: inStockExpr })
      .from(gifts)
      .where(where)
      .orderBy(desc(gifts.created), desc(gifts.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(gifts).where(where),
  ])
  return {
    count: Number(totals[0]?.n ?? 0),
    limit,
    offset,
    results: rows.map((r) => serializeGift(r.gift, Boolean(r.inStock))),
  }
}

/** An active gift with its stock flag, or a 404. */
export async function getActiveGift(db: Db | Tx, id: number): Promise<{ gift: GiftRow; inStock: boolean }> {
  const [row] = await db
    .select({ gift: gifts, inStock: inStockExpr })
    .from(gifts)
    .where(and(eq(gifts.id, id), eq(gifts.isActive, true)))
  if (!row) throw fail(404, 'gift_not_found')
  return { gift: row.gift, inStock: Boolean(row.inStock) }
}
