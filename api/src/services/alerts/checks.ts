// The sources of staff alerts (issue 37), each a small check: it looks at the database and answers
// the causes it finds now. A cause is a stable key (one alert per cause, however many events
// caused it); the runner (./run.ts) opens new causes, closes gone ones and mails a digest.
// A new source (the review queue of issue 34, say) is one more entry in ALERT_CHECKS.
import { and, eq, gte, inArray, isNotNull, notExists, or, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { giftCodes, gifts, jobs, orders, products, receipts, refunds, voucherCodes } from '../../db/schema'
import { LOW_STOCK } from '../admin/overview'
import { listWaiting } from '../delivery/desk'
import { mailHealth } from '../mail/health'
import { fill, M } from '../mail/messages'
import { REQUERY_JOB } from '../payments/requery'
import { REFUND_JOB } from '../refunds/open'

const D = M.staff_alerts.details

/** A paid order that failed is news for this long (then it is in the orders list, not an alert). */
const FAILED_ORDER_DAYS = 7
/** Provider jobs: failing after this many attempts (a single retry is normal weather). */
const PROVIDER_FAILING_ATTEMPTS = 3

export interface AlertFound {
  cause: string
  detail: string
  /** A back-office path to act from. */
  link: string
}

export interface AlertCheck {
  source: string
  /** 'staff' when it concerns orders (support is told too), 'owner' otherwise. */
  audience: 'owner' | 'staff'
  run(deps: ApiDeps): Promise<AlertFound[]>
}

const mailFailing: AlertCheck = {
  source: 'mail',
  audience: 'owner',
  async run({ db, config }) {
    const h = await mailHealth(db, config.mail, !config.demo)
    const out: AlertFound[] = []
    if (h.retrying > 0 || h.dead > 0)
      out.push({
        cause: 'mail_failing',
        detail: fill(D.mail_failing, { retrying: h.retrying, dead: h.dead }),
        link: '/admin',
      })
    if (h.not_configured)
      out.push({ cause: 'mail_not_configured', detail: fill(D.mail_not_configured), link: '/admin' })
    return out
  },
}

const providerFailing: AlertCheck = {
  source: 'provider',
  audience: 'owner',
  async run({ db }) {
    const rows = await db
      .select({ kind: jobs.kind, n: sql<number>`count(*)`.mapWith(Number) })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, [REQUERY_JOB, REFUND_JOB]),
          or(
            and(eq(jobs.status, 'dead'), gte(jobs.finishedAt, sql`now() - interval '1 day'`)),
            and(inArray(jobs.status, ['pending', 'running']), gte(jobs.attempts, PROVIDER_FAILING_ATTEMPTS)),
          ),
        ),
      )
      .groupBy(jobs.kind)
    return rows.map((r) => ({
      cause: `provider_failing:${r.kind}`,
      detail: fill(r.kind === REFUND_JOB ? D.provider_refunds : D.provider_requery, { n: r.n }),
      link: '/admin/payments',
    }))
  },
}

const paidOrderFailed: AlertCheck = {
  source: 'order_failed',
  audience: 'staff',
  async run({ db }) {
    const refunded = db
      .select({ one: sql`1` })
      .from(refunds)
      .where(and(eq(refunds.orderId, orders.id), eq(refunds.kind, 'order')))
    const rows = await db
      .select({ id: orders.id, reason: orders.rejectReason })
      .from(orders)
      .where(
        and(
          eq(orders.status, 'failed'),
          isNotNull(orders.paidAt),
          gte(orders.updated, sql`now() - make_interval(days => ${FAILED_ORDER_DAYS})`),
          notExists(refunded),
        ),
      )
      .limit(100)
    return rows.map((r) => ({
      cause: `order_failed:${r.id}`,
      detail: fill(D.order_failed, { number: r.id.slice(0, 8), reason: r.reason ?? '—' }),
      link: `/admin/orders/${r.id}`,
    }))
  },
}

const lowStock: AlertCheck = {
  source: 'low_stock',
  audience: 'owner',
  async run({ db }) {
    const limit = (col: typeof products.lowStockThreshold | typeof gifts.lowStockThreshold) =>
      sql<number>`coalesce(${col}, ${LOW_STOCK})`.mapWith(Number)
    const [voucher, gift] = await Promise.all([
      db
        .select({
          id: products.id,
          title: products.title,
          limit: limit(products.lowStockThreshold),
          free: sql<number>`count(${voucherCodes.id}) filter (where ${voucherCodes.soldAt} is null)`.mapWith(
            Number,
          ),
        })
        .from(products)
        .leftJoin(voucherCodes, eq(voucherCodes.productId, products.id))
        .where(and(eq(products.kind, 'PUBGProduct'), eq(products.isActive, true)))
        .groupBy(products.id),
      db
        .select({
          id: gifts.id,
          title: gifts.title,
          limit: limit(gifts.lowStockThreshold),
          free: sql<number>`count(${giftCodes.id}) filter (where ${giftCodes.soldAt} is null)`.mapWith(
            Number,
          ),
        })
        .from(gifts)
        .leftJoin(giftCodes, eq(giftCodes.giftId, gifts.id))
        .where(eq(gifts.isActive, true))
        .groupBy(gifts.id),
    ])
    const found = (kind: 'product' | 'gift', path: string) => (r: (typeof voucher)[number]) => ({
      cause: `low_stock:${kind}:${r.id}`,
      detail: fill(D.low_stock, { title: r.title, free: r.free, limit: r.limit }),
      link: `/admin/stock/${path}/${r.id}`,
    })
    return [
      ...voucher.filter((r) => r.free < r.limit).map(found('product', 'products')),
      ...gift.filter((r) => r.free < r.limit).map(found('gift', 'gifts')),
    ]
  },
}

const deliveryOverdue: AlertCheck = {
  source: 'delivery',
  audience: 'staff',
  async run({ db }) {
    const page = await listWaiting(db, 1, 100)
    const late = page.results.filter((r) => r.overdue).length
    return late
      ? [
          {
            cause: 'delivery_overdue',
            detail: fill(D.delivery_overdue, { n: late }),
            link: '/admin/delivery',
          },
        ]
      : []
  },
}

const receiptsFailing: AlertCheck = {
  source: 'receipts',
  audience: 'owner',
  async run({ db }) {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(receipts)
      .where(eq(receipts.status, 'failed'))
    const n = row?.n ?? 0
    return n ? [{ cause: 'receipts_failing', detail: fill(D.receipts_failing, { n }), link: '/admin' }] : []
  },
}

export const ALERT_CHECKS: AlertCheck[] = [
  mailFailing,
  providerFailing,
  paidOrderFailed,
  lowStock,
  deliveryOverdue,
  receiptsFailing,
]
