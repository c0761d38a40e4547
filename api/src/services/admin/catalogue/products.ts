// Back-office writes of products and gifts: a discount stays below the price, and the percent a
// buyer sees follows the prices in the same transaction as the change.
import { eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { games, gifts, products } from '../../../db/schema'
import { refuse, refuseField } from '../../../lib/domain-error'
import { productKindOf } from '../../catalogue/queries'
import { audit } from '../audit'
import { patchAudited } from '../patch'
import type { StaffMember } from '../roles'
import { definedOnly } from './games'
import { checkDiscount, discountPercentOf } from './pricing'
import { adminGiftOut, adminProductOut } from './views'

type ProductRow = typeof products.$inferSelect
type GiftRow = typeof gifts.$inferSelect
export type ProductValues = Partial<
  Omit<typeof products.$inferInsert, 'id' | 'gameId' | 'kind' | 'discountPercent'>
>
export type GiftValues = Partial<Omit<typeof gifts.$inferInsert, 'id' | 'discountPercent'>>

function checkQuantities(min: number, max: number) {
  if (min > max) throw refuseField('max_quantity', 'admin_min_over_max')
}

export async function createProduct(
  db: Db,
  staff: StaffMember,
  gameId: number,
  v: ProductValues & Pick<typeof products.$inferInsert, 'title' | 'price'>,
): Promise<ProductRow> {
  checkDiscount(v.price, v.discountPrice)
  checkQuantities(v.minQuantity ?? 1, v.maxQuantity ?? 10)
  return db.transaction(async (tx) => {
    const [game] = await tx.select().from(games).where(eq(games.id, gameId))
    if (!game) throw refuse('not_found')
    const [p] = await tx
      .insert(products)
      .values({
        minQuantity: 1,
        maxQuantity: 10,
        isActive: true,
        discountPrice: null,
        amountUc: null,
        gold: null,
        sortOrder: 0,
        ...definedOnly(v),
        title: v.title,
        price: v.price,
        gameId,
        kind: productKindOf(game.kind),
        discountPercent: discountPercentOf(v.price, v.discountPrice ?? null),
      })
      .returning()
    await audit(tx, staff, {
      action: 'product.create',
      entity: 'product',
      entityId: p!.id,
      after: adminProductOut(p!),
    })
    return p!
  })
}

export async function patchProduct(db: Db, staff: StaffMember, id: number, v: ProductValues) {
  return db.transaction(async (tx) => {
    const row = await patchAudited<ProductRow>(
      tx,
      staff,
      { table: products, id: products.id, entity: 'product' },
      id,
      v as Partial<ProductRow>,
      (m) => {
        checkDiscount(m.price, m.discountPrice)
        checkQuantities(m.minQuantity, m.maxQuantity)
      },
    )
    // the shown percent follows the prices
    const percent = discountPercentOf(row.price, row.discountPrice)
    if (percent !== row.discountPercent)
      await tx.update(products).set({ discountPercent: percent }).where(eq(products.id, id))
    return { ...row, discountPercent: percent }
  })
}

export async function createGift(
  db: Db,
  staff: StaffMember,
  v: GiftValues & Pick<typeof gifts.$inferInsert, 'title' | 'type' | 'region' | 'price'>,
): Promise<GiftRow> {
  checkDiscount(v.price, v.discountPrice)
  return db.transaction(async (tx) => {
    const [g] = await tx
      .insert(gifts)
      .values({
        discountPrice: null,
        cashback: 0,
        logo: '',
        description: '',
        tags: [],
        isMain: false,
        isNew: true,
        isActive: false,
        ...definedOnly(v),
        title: v.title,
        type: v.type,
        region: v.region,
        price: v.price,
        discountPercent: discountPercentOf(v.price, v.discountPrice ?? null),
      })
      .returning()
    await audit(tx, staff, {
      action: 'gift.create',
      entity: 'gift',
      entityId: g!.id,
      after: adminGiftOut(g!),
    })
    return g!
  })
}

export async function patchGift(db: Db, staff: StaffMember, id: number, v: GiftValues) {
  return db.transaction(async (tx) => {
    const row = await patchAudited<GiftRow>(
      tx,
      staff,
      { table: gifts, id: gifts.id, entity: 'gift' },
      id,
      v as Partial<GiftRow>,
      (m) => checkDiscount(m.price, m.discountPrice),
    )
    const percent = discountPercentOf(row.price, row.discountPrice)
    if (percent !== row.discountPercent)
      await tx.update(gifts).set({ discountPercent: percent }).where(eq(gifts.id, id))
    return { ...row, discountPercent: percent }
  })
}
