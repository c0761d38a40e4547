// What the order mails show, read fresh from the database when the mail is sent: the order, its
// lines, every delivered code, the game or gift, and the payment that paid it.
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import {
  games,
  gifts,
  type OrderKind,
  orderProducts,
  orders,
  paymentMethods,
  payments,
  products,
  refunds,
  supplyServers,
  voucherCodes,
} from '../../db/schema'

export interface OrderMailData {
  id: string
  /** The short number people read out (decision 135). */
  number: number
  kind: OrderKind
  status: (typeof orders.$inferSelect)['status']
  email: string | null
  /** Placed while signed in: the order page opens only for that account. */
  hasAccount: boolean
  created: Date
  rejectReason: string | null
  title: string
  lines: Array<{
    title: string
    quantity: number
    unitPrice: number
    codes: Array<{ code: string; amountUc: number }>
  }>
  giftCode: string | null
  gift: { id: number; description: string } | null
  /** Where a top-up went: Standoff/supply player id, Steam login, supply server. */
  account: string | null
  server: string | null
  /** The nickname the player check answered for `account` (null: not checked). */
  player: string | null
  steamAmount: number | null
  total: number
  totalToPay: number
  balanceUsed: number
  hasPromo: boolean
  /** The succeeded payment: method title and the amount in its currency. */
  payment: { method: string; amount: number; currency: string } | null
}

/** The order as its mails show it, or null when it no longer exists. Three queries, side by side. */
export async function loadOrderForMail(db: Db, orderId: string): Promise<OrderMailData | null> {
  const [[row], lineRows, [paid]] = await Promise.all([
    db
      .select({
        order: orders,
        gameTitle: games.title,
        gift: { id: gifts.id, title: gifts.title, description: gifts.description },
        serverName: supplyServers.name,
      })
      .from(orders)
      .leftJoin(games, eq(games.id, orders.gameId))
      .leftJoin(gifts, eq(gifts.id, orders.giftId))
      .leftJoin(supplyServers, eq(supplyServers.id, orders.moogoldServer))
      .where(eq(orders.id, orderId)),
    db
      .select({
        id: orderProducts.id,
        title: products.title,
        quantity: orderProducts.quantity,
        price: orderProducts.price,
        code: voucherCodes.code,
        amountUc: voucherCodes.amountUc,
      })
      .from(orderProducts)
      .innerJoin(products, eq(products.id, orderProducts.productId))
      .leftJoin(voucherCodes, eq(voucherCodes.orderProductId, orderProducts.id))
      .where(eq(orderProducts.orderId, orderId))
      .orderBy(asc(orderProducts.id), asc(voucherCodes.id)),
    db
      .select({ method: paymentMethods.title, amount: payments.amount, currency: payments.currency })
      .from(payments)
      .leftJoin(paymentMethods, eq(paymentMethods.name, payments.methodName))
      .where(and(eq(payments.orderId, orderId), eq(payments.status, 'succeeded')))
      .limit(1),
  ])
  if (!row) return null
  const { order, gift } = row
  // one row per code (or one per line without codes), in line order
  const byLine = new Map<number, OrderMailData['lines'][number]>()
  for (const r of lineRows) {
    let line = byLine.get(r.id)
    if (!line) {
      line = { title: r.title, quantity: r.quantity, unitPrice: r.price, codes: [] }
      byLine.set(r.id, line)
    }
    if (r.code !== null && r.amountUc !== null) line.codes.push({ code: r.code, amountUc: r.amountUc })
  }
  const lines = [...byLine.values()]
  return {
    id: order.id,
    number: order.number,
    kind: order.kind,
    status: order.status,
    email: order.email,
    hasAccount: order.userId !== null,
    created: order.created,
    rejectReason: order.rejectReason,
    title: row.gameTitle ?? gift?.title ?? '',
    lines,
    giftCode: order.kind === 'RokkyOrder' ? order.code : null,
    gift: gift ? { id: gift.id, description: gift.description } : null,
    account: order.gameAccountId ?? order.steamAccountId ?? order.moogoldUserId ?? null,
    server: row.serverName ?? order.moogoldServerCustomId ?? null,
    player: order.playerNickname,
    steamAmount: order.steamAmount,
    total: order.total,
    totalToPay: order.totalToPay,
    balanceUsed: order.balanceUsed,
    hasPromo: order.promoCodeId !== null,
    payment: paid ? { method: paid.method ?? '', amount: paid.amount, currency: paid.currency } : null,
  }
}

/** The title of the method a payment was made with («Банковская карта»), or null. */
export async function paymentMethodTitle(db: Db, paymentId: string): Promise<string | null> {
  const [row] = await db
    .select({ title: paymentMethods.title })
    .from(payments)
    .innerJoin(paymentMethods, eq(paymentMethods.name, payments.methodName))
    .where(eq(payments.id, paymentId))
  return row?.title ?? null
}

/** The order's own refund (not a refused payment's), as the failed mail explains it. */
export async function orderRefundOf(db: Db, orderId: string) {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'order')))
  return row ?? null
}
