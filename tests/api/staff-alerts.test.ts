import { randomUUID } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { giftCodes, gifts, jobs, orders, receipts, refunds, staffAlerts, voucherCodes } from '#api/db/schema'
import type { AlertCheck } from '#api/services/alerts/checks'
import { runAlerts } from '#api/services/alerts/run'
import { MAIL_JOB } from '#api/services/mail/outbox'
import { renderMail } from '#api/services/mail/render'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeGame, makeProduct } from './orders-fixtures'

let api: TestApi
let owner: { email: string; token: string }
let support: { email: string; token: string }
const deps = () => api.deps

/** The digests queued so far: recipient and causes, in order. */
async function digests() {
  const rows = await api.db.select().from(jobs).where(eq(jobs.kind, MAIL_JOB)).orderBy(jobs.id)
  return rows
    .filter((r) => r.payload.template === 'staff_alerts')
    .map((r) => ({ to: r.payload.to, causes: (r.payload.data as { causes: string[] }).causes }))
}
async function overviewAlerts() {
  const r = await api.call<{ alerts: Array<{ cause: string; detail: string; link: string }> }>(
    'GET',
    '/api/admin/overview/',
    { token: owner.token },
  )
  expect(r.status).toBe(200)
  return r.body.alerts
}

beforeAll(async () => {
  api = await createTestApi({ seed: false })
  owner = await makeStaff(api, 'owner')
  support = await makeStaff(api, 'support')
})
afterAll(() => api?.close())

describe('staff alerts', () => {
  let productId = 0
  let orderId = ''
  it('a fresh shop with enough stock has nothing to say', async () => {
    const game = await makeGame(api, 'PUBGGame')
    const p = await makeProduct(api, game.id, 'PUBGProduct', { codes: 3, lowStockThreshold: 3 })
    productId = p.id
    // a gift whose owner turned the alert off (threshold 0), with no codes at all
    await api.db
      .insert(gifts)
      .values({ title: 'Steam 500', type: 'steam', price: 50000, region: 'RU', lowStockThreshold: 0 })
    expect(await runAlerts(deps())).toEqual({ opened: [], closed: [], mailed: [] })
    expect(await overviewAlerts()).toEqual([])
  })

  it('low stock and failing mail: opened once, one digest to the owner only, silent on the next runs', async () => {
    // one code sold: 2 free under the threshold of 3
    const [code] = await api.db
      .select()
      .from(voucherCodes)
      .where(eq(voucherCodes.productId, productId))
      .limit(1)
    await api.db.update(voucherCodes).set({ soldAt: new Date() }).where(eq(voucherCodes.id, code!.id))
    await api.db
      .insert(jobs)
      .values({ kind: MAIL_JOB, dedupeKey: 'mail:x1', status: 'dead', attempts: 20, finishedAt: new Date() })
    await api.db
      .insert(jobs)
      .values({ kind: MAIL_JOB, dedupeKey: 'mail:x2', status: 'dead', attempts: 20, finishedAt: new Date() })
    const first = await runAlerts(deps())
    expect(first.opened.sort()).toEqual([`low_stock:product:${productId}`, 'mail_failing'].sort())
    expect(first.mailed).toEqual([owner.email])
    expect(await digests()).toEqual([
      { to: owner.email, causes: [`low_stock:product:${productId}`, 'mail_failing'].sort() },
    ])
    // the cause stays, more codes sell: no new mail, the text follows the figures
    const [second] = await api.db
      .select()
      .from(voucherCodes)
      .where(and(eq(voucherCodes.productId, productId), isNull(voucherCodes.soldAt)))
      .limit(1)
    await api.db.update(voucherCodes).set({ soldAt: new Date() }).where(eq(voucherCodes.id, second!.id))
    expect(await runAlerts(deps())).toEqual({ opened: [], closed: [], mailed: [] })
    expect(await runAlerts(deps())).toEqual({ opened: [], closed: [], mailed: [] })
    expect(await digests()).toHaveLength(1)
    const shown = await overviewAlerts()
    expect(shown.map((a) => a.cause).sort()).toEqual(
      [`low_stock:product:${productId}`, 'mail_failing'].sort(),
    )
    const low = shown.find((a) => a.cause.startsWith('low_stock'))!
    expect(low.detail).toMatch(/свободно 1, порог 3/)
    expect(low.link).toBe(`/admin/stock/products/${productId}`)
  })

  it('a paid order that failed reaches support too; once refunded it closes', async () => {
    const [o] = await api.db
      .insert(orders)
      .values({
        id: randomUUID(),
        kind: 'PUBGOrder',
        total: 10000,
        totalToPay: 10000,
        status: 'failed',
        paidAt: new Date(),
        rejectReason: 'Поставщик отказал',
      })
      .returning()
    orderId = o!.id
    const run = await runAlerts(deps())
    expect(run.opened).toEqual([`order_failed:${orderId}`])
    expect(run.mailed.sort()).toEqual([owner.email, support.email].sort())
    const last = (await digests()).slice(-2)
    expect(last).toEqual(
      expect.arrayContaining([
        { to: owner.email, causes: [`order_failed:${orderId}`] },
        { to: support.email, causes: [`order_failed:${orderId}`] },
      ]),
    )
    await api.db.insert(refunds).values({
      orderId,
      kind: 'order',
      method: 'balance',
      status: 'succeeded',
      amount: 10000,
      reason: 'тест',
    } as never)
    const after = await runAlerts(deps())
    expect(after).toEqual({ opened: [], closed: [`order_failed:${orderId}`], mailed: [] })
  })

  it('a cause that went away and came back is news again', async () => {
    // codes imported: the low stock closes
    await api.db
      .insert(voucherCodes)
      .values([1, 2, 3].map((i) => ({ productId, code: `NEW-${productId}-${i}`, amountUc: 60 })))
    const fixed = await runAlerts(deps())
    expect(fixed.closed).toEqual([`low_stock:product:${productId}`])
    expect((await overviewAlerts()).map((a) => a.cause)).toEqual(['mail_failing'])
    // and sold again below the threshold
    await api.db.update(voucherCodes).set({ soldAt: new Date() }).where(eq(voucherCodes.productId, productId))
    const again = await runAlerts(deps())
    expect(again.opened).toEqual([`low_stock:product:${productId}`])
    expect((await digests()).at(-1)).toEqual({ to: owner.email, causes: [`low_stock:product:${productId}`] })
  })

  it('a failing check leaves its alerts as they were; receipts failing is its own cause', async () => {
    const broken: AlertCheck = {
      source: 'mail',
      audience: 'owner',
      run: () => Promise.reject(new Error('down')),
    }
    expect(await runAlerts(deps(), [broken])).toEqual({ opened: [], closed: [], mailed: [] })
    const open = await api.db.select().from(staffAlerts).where(isNull(staffAlerts.closedAt))
    expect(open.map((a) => a.cause)).toContain('mail_failing')
    await api.db.insert(receipts).values({
      orderId,
      kind: 'sell',
      status: 'failed',
      transport: 'sandbox',
      externalId: 'r-1',
      email: 'b@example.com',
      total: 10000,
      items: [],
      seller: {},
    } as never)
    const run = await runAlerts(deps())
    expect(run.opened).toEqual(['receipts_failing'])
  })

  it('the digest mail names each new cause and links the overview', async () => {
    const mail = await renderMail(
      'staff_alerts',
      { causes: ['mail_failing', `low_stock:product:${productId}`] },
      {
        db: api.db,
        config: api.config,
        to: owner.email,
        now: new Date(),
      },
    )
    expect(mail?.subject).toMatch(/требует внимания \(2\)/)
    expect(mail?.text).toContain('Почта не уходит: повторяются 0, брошено за неделю 2')
    expect(mail?.text).toContain(`${api.config.publicUrl}/admin/stock/products/${productId}`)
    // a closed cause is left out; none left: no mail at all
    expect(
      await renderMail(
        'staff_alerts',
        { causes: [`order_failed:${orderId}`] },
        {
          db: api.db,
          config: api.config,
          to: owner.email,
          now: new Date(),
        },
      ),
    ).toBeNull()
  })

  it('support does not see the overview; gift stock alerts follow the gift threshold', async () => {
    expect((await api.call('GET', '/api/admin/overview/', { token: support.token })).status).toBe(403)
    const [g] = await api.db
      .insert(gifts)
      .values({ title: 'PSN 1000', type: 'psn', price: 100000, region: 'RU', lowStockThreshold: 2 })
      .returning()
    await api.db.insert(giftCodes).values({ giftId: g!.id, code: `G-${g!.id}-1` } as never)
    const run = await runAlerts(deps())
    expect(run.opened).toEqual([`low_stock:gift:${g!.id}`])
  })
})
