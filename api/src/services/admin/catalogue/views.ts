// Back-office views of the catalogue: every row (inactive ones too), in the shape of its columns.
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { articles, faq, games, gifts, products } from '../../../db/schema'
import { toMoney } from '../../../lib/money'

type Game = typeof games.$inferSelect
type Product = typeof products.$inferSelect
type Gift = typeof gifts.$inferSelect

const money = (v: number | null) => (v === null ? null : toMoney(v))

export const adminGameOut = (g: Game) => ({
  id: g.id,
  kind: g.kind,
  title: g.title,
  detail_title: g.detailTitle,
  detail_description: g.detailDescription,
  logo: g.logo,
  is_active: g.isActive,
  is_auth_required: g.isAuthRequired,
  discount_percent: g.discountPercent,
  product_preview_name: g.productPreviewName,
  tags: g.tags,
  sort_order: g.sortOrder,
  supplier: g.supplier,
  delivery_minutes: g.deliveryMinutes,
  auto_refund_hours: g.autoRefundHours,
})

export const adminProductOut = (p: Product) => ({
  id: p.id,
  game: p.gameId,
  kind: p.kind,
  title: p.title,
  price: toMoney(p.price),
  discount_price: money(p.discountPrice),
  discount_percent: p.discountPercent,
  min_quantity: p.minQuantity,
  max_quantity: p.maxQuantity,
  is_active: p.isActive,
  amount_uc: p.amountUc,
  gold: p.gold,
  sort_order: p.sortOrder,
})

export const adminGiftOut = (g: Gift) => ({
  id: g.id,
  title: g.title,
  type: g.type,
  region: g.region,
  price: toMoney(g.price),
  discount_price: money(g.discountPrice),
  discount_percent: g.discountPercent,
  cashback: g.cashback,
  logo: g.logo,
  description: g.description,
  tags: g.tags,
  is_main: g.isMain,
  is_new: g.isNew,
  is_active: g.isActive,
})

export const listAllGames = (db: Db) => db.select().from(games).orderBy(asc(games.sortOrder), asc(games.id))
export const listGameProducts = (db: Db, gameId: number) =>
  db
    .select()
    .from(products)
    .where(eq(products.gameId, gameId))
    .orderBy(asc(products.sortOrder), asc(products.id))
export const listAllGifts = (db: Db) => db.select().from(gifts).orderBy(asc(gifts.id))
export const listGameFaq = (db: Db, gameId: number) =>
  db.select().from(faq).where(eq(faq.gameId, gameId)).orderBy(asc(faq.order), asc(faq.id))
export const listArticles = (db: Db) => db.select().from(articles).orderBy(asc(articles.slug))
