// The re-pricing of a stale order (recalculateOrder) against a payment committing at the same time,
// on PostgreSQL with two real sessions: the re-price waits for the payment's row lock and then
// sees the order paid, so the prices the buyer paid are never rewritten to today's. Without the
// lock it would read the order as unpaid while the payment holds it, and rewrite the paid lines.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { cleanupAfterAll } from '#tests/helpers/cleanup'
import { openDatabase } from '#api/db/client'
import { games, orderProducts, orders, products } from '#api/db/schema'
import { recalculateOrder } from '#api/services/orders/pricing'
import { createPgDatabase } from '#tests/helpers/pg-database'

const cleanup = cleanupAfterAll()

describe('re-pricing a stale order while its payment commits', () => {
  it('waits for the payment and keeps the prices it was paid at', async () => {
    const target = await createPgDatabase('shop_price_lock')
    cleanup.push(() => target.drop())
    const database = await openDatabase({ url: target.url })
    cleanup.push(() => database.close())
    const { db } = database

    const [game] = await db.insert(games).values({ kind: 'PUBGGame', title: 'PUBG lock test' }).returning()
    const [product] = await db
      .insert(products)
      .values({ gameId: game!.id, kind: 'PUBGProduct', title: '60 UC', price: 9900, amountUc: 60 })
      .returning()
    const id = randomUUID()
    await db
      .insert(orders)
      .values({ id, kind: 'PUBGOrder', email: 'lock@example.com', total: 19800, totalToPay: 19800 })
    await db.insert(orderProducts).values({ orderId: id, productId: product!.id, quantity: 2, price: 9900 })
    // the price went up after the order was made: the order is stale
    await db.update(products).set({ price: 12000 }).where(eq(products.id, product!.id))

    // the payment's session: holds the order row and marks it paid, not yet committed
    const payment = new pg.Client({ connectionString: target.url })
    await payment.connect()
    cleanup.push(() => payment.end())
    await payment.query('BEGIN')
    await payment.query('SELECT id FROM orders WHERE id = $1 FOR UPDATE', [id])
    await payment.query(`UPDATE orders SET status = 'paid' WHERE id = $1`, [id])

    let settled = false
    const repricing = recalculateOrder(db, id).finally(() => {
      settled = true
    })
    await new Promise((r) => setTimeout(r, 400))
    expect(settled).toBe(false)
    await payment.query('COMMIT')

    const totals = await repricing
    expect(totals).toMatchObject({ status: 'paid', total: 19800, totalToPay: 19800 })
    expect(totals.lines.map((l) => l.unitPrice)).toEqual([9900])
    const [row] = await db.select().from(orders).where(eq(orders.id, id))
    expect(row).toMatchObject({ status: 'paid', total: 19800, totalToPay: 19800 })
    const lines = await db.select().from(orderProducts).where(eq(orderProducts.orderId, id))
    expect(lines.map((l) => l.price)).toEqual([9900])
  }, 60_000)
})
