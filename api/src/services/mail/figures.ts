// The money lines of an order as its mails show them (decision 113): what was bought, the shop's
// commission (a Steam top-up's), the promo discount, the balance spent and the payment method's
// fee, each its own line named for what it is, so that they add up to what the buyer was charged.
// One pure rule, unit- and mutation-tested; the templates only format it.
import { chargedInRoubles } from '../payments/amounts'

export interface FiguresInput {
  kind: string
  lines: ReadonlyArray<{ title: string; quantity: number; unitPrice: number }>
  /** The Steam wallet top-up itself (a Steam order's total is it plus the shop's commission). */
  steamAmount: number | null
  title: string
  total: number
  totalToPay: number
  balanceUsed: number
  /** The succeeded payment (its amount in its currency's minor units), or none (balance only). */
  payment: { amount: number; currency: string } | null
}

export type FigureKind = 'item' | 'steam' | 'shop_commission' | 'promo' | 'balance_used' | 'method_fee'

/** One line: kopecks, signed as it counts towards the charge (a discount is negative). */
export interface Figure {
  kind: FigureKind
  /** The item's own title and quantity (items only). */
  title?: string
  quantity?: number
  amount: number
}

export interface OrderFigures {
  figures: Figure[]
  /** What the provider charged in roubles, the method's fee included (0: paid from the balance). */
  charged: number
  /** The method's fee inside `charged`. */
  methodFee: number
}

/** What was bought: a Steam top-up and the shop's commission on it, the order's lines, or its one item. */
function goods(o: FiguresInput): Figure[] {
  if (o.kind === 'SteamOrder' && o.steamAmount !== null) {
    const commission = o.total - o.steamAmount
    return [
      { kind: 'steam', amount: o.steamAmount },
      ...(commission !== 0 ? [{ kind: 'shop_commission' as const, amount: commission }] : []),
    ]
  }
  if (o.lines.length === 0) return [{ kind: 'item', title: o.title, amount: o.total }]
  return o.lines.map((l) => ({
    kind: 'item',
    title: l.title,
    quantity: l.quantity,
    amount: l.unitPrice * l.quantity,
  }))
}

export function orderFigures(o: FiguresInput): OrderFigures {
  const figures = goods(o)
  const listed = figures.reduce((sum, f) => sum + f.amount, 0)
  // whatever the goods listed do not reach in total_to_pay + balance is the discount (promo)
  const discount = listed - o.balanceUsed - o.totalToPay
  if (discount !== 0) figures.push({ kind: 'promo', amount: -discount })
  if (o.balanceUsed > 0) figures.push({ kind: 'balance_used', amount: -o.balanceUsed })
  const charged = o.payment ? chargedInRoubles(o.payment, o.totalToPay) : o.totalToPay
  const methodFee = charged - o.totalToPay
  if (methodFee !== 0) figures.push({ kind: 'method_fee', amount: methodFee })
  return { figures, charged, methodFee }
}

/** Whether the lines add up to the charge (the property every mail keeps). */
export const figuresAddUp = (f: OrderFigures) => f.figures.reduce((sum, x) => sum + x.amount, 0) === f.charged
