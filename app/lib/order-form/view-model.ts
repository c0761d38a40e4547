// The game page's products as the form's cart lines (§3: data {id, isActive, price} and an amount).
import type { Product } from '#app/lib/view-models/game'
import type { CartLine } from './totals'

export function toCartLines(products: readonly Product[], quantities: Record<number, number>): CartLine[] {
  return products.map((p) => ({
    data: { id: p.id, isActive: p.isActive, price: p.price, discountPrice: p.discountPrice },
    amount: quantities[p.id] ?? 0,
  }))
}
