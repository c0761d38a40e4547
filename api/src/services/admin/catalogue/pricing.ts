// The price rules of products and gifts in the back-office: one place for both.
import { refuseField } from '../../../lib/domain-error'

/** A discount price is below the price. */
export function checkDiscount(price: number, discountPrice: number | null | undefined) {
  if (discountPrice != null && discountPrice >= price)
    throw refuseField('discount_price', 'admin_discount_not_below_price')
}

/** The discount percent a discounted price shows (rounded), or 0 without a discount. */
export function discountPercentOf(price: number, discountPrice: number | null): number {
  if (discountPrice === null || price <= 0) return 0
  return Math.round(((price - discountPrice) * 100) / price)
}
