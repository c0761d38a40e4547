// The sources of staff alerts (issue 37), each a small check: it looks at the database and answers
// the causes it finds now. A cause is a stable key (one alert per cause, however many events
// caused it); the runner (./run.ts) opens new causes, closes gone ones and mails a digest.
// A new source (the review queue of issue 34, say) is one more entry in ALERT_CHECKS.
import { and, eq, gte, inArray, isNotNull, notExists, notInArray, or, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import {
  auditLog,
  giftCodes,
  gifts,
  jobs,
  orderProducts,
  orders,
  products,
  receipts,
  refunds,
  voucherCodes,
} from '../../db/schema'
import { LOW_STOCK } from '../admin/overview'
import { listWaiting } from '../delivery/desk'
import { liveClaim, SURPLUS_VALUES } from '../delivery/listing'
import { mailHealth } from '../mail/health'
import { fill, formatMoneyIn, M } from '../mail/messages'
import { formatOrderNumber } from '../../../../shared/order-number'
import { REQUERY_JOB } from '../payments/requery'
import { openDifferences } from '../reconciliation/differences'
import { PROVIDER_MISMATCH } from '../refunds/mismatch'
import { REFUND_JOB } from '../refunds/open'

const D = M.staff_alerts.details

/** A provider mismatch's kind as staff read it (the audit entry keeps the code). */
function mismatchWords(kind: string | undefined): string {
  const words = D.mismatch_kinds as Record<string, string>
  return (kind && words[kind]) || (kind ?? '')
}

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

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Orders as people name them in an alert («№ 10234», decision 135), by id; an id with no order
 * (gone, or not an order's) stays as it is.
 */
async function orderNames(db: ApiDeps['db'], ids: Array<string | null>) {
  const wanted = [...new Set(ids.filter((id): id is string => !!id && UUID_RE.test(id)))]
  const rows = wanted.length
    ? await db.select({ id: orders.id, number: orders.number }).from(orders).where(inArray(orders.id, wanted))
    : []
  const numbers = new Map(rows.map((r) => [r.id, r.number]))
  return (id: string | null) => {
    if (!id) return '—'
    const n = numbers.get(id)
    return n ? formatOrderNumber(n) : id
  }
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
      .select({ id: orders.id, number: orders.number, reason: orders.rejectReason })
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
      detail: fill(D.order_failed, { number: formatOrderNumber(r.number), reason: r.reason ?? '—' }),
      link: `/admin/orders/${r.id}`,
    }))
  },
}

/** A provider event that did not fit the shop's record is news for this long (then the audit log keeps it). */
const MISMATCH_DAYS = 7

const providerMismatch: AlertCheck = {
  source: PROVIDER_MISMATCH,
  audience: 'staff',
  async run({ db }) {
    const rows = await db
      .select({
        id: auditLog.id,
        entity: auditLog.entity,
        entityId: auditLog.entityId,
        after: auditLog.after,
      })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, PROVIDER_MISMATCH),
          gte(auditLog.created, sql`now() - make_interval(days => ${MISMATCH_DAYS})`),
        ),
      )
      .limit(100)
    const orderOf = (r: (typeof rows)[number]) => (r.entity === 'order' ? r.entityId : null)
    const name = await orderNames(db, rows.map(orderOf))
    return rows.map((r) => {
      const order = orderOf(r)
      return {
        cause: `${PROVIDER_MISMATCH}:${r.id}`,
        detail: fill(D.provider_mismatch, {
          number: name(order),
          what: mismatchWords((r.after as { kind?: string } | null)?.kind),
        }),
        link: order ? `/admin/orders/${order}` : '/admin/payments',
      }
    })
  },
}

/** A refund the provider canceled or refused: a person chooses where the money goes. */
const refundNeedsPerson: AlertCheck = {
  source: 'refund_manual',
  audience: 'staff',
  async run({ db }) {
    const rows = await db
      .select({ id: refunds.id, orderId: refunds.orderId })
      .from(refunds)
      .where(and(eq(refunds.status, 'manual'), isNotNull(refunds.lastError)))
      .limit(100)
    const name = await orderNames(
      db,
      rows.map((r) => r.orderId),
    )
    return rows.map((r) => ({
      cause: `refund_manual:${r.id}`,
      detail: fill(D.refund_needs_person, { number: name(r.orderId) }),
      link: `/admin/orders/${r.orderId}`,
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

/** «Сверка» (issue 43): each open difference with a provider's books, mailed once when found. */
const reconciliation: AlertCheck = {
  source: 'reconciliation',
  audience: 'owner',
  async run({ db }) {
    const K = M.staff_alerts.reconciliation_kinds
    const open = await openDifferences(db)
    const name = await orderNames(
      db,
      open.map((d) => d.orderId),
    )
    return open.map((d) => ({
      cause: `reconciliation:${d.id}`,
      detail: fill(D.reconciliation, {
        kind: K[d.kind],
        amount: formatMoneyIn(
          d.providerAmount ?? d.shopAmount ?? 0,
          d.providerCurrency ?? d.shopCurrency ?? 'RUB',
        ),
        order: name(d.orderId),
      }),
      link: '/admin/reconciliation',
    }))
  },
}

/** A pack is nearly shut for new buyers when this share of its 24 listing prices is held (issue 42). */
const LISTINGS_CLAIMED_SHARE = 0.8

const standoffListings: AlertCheck = {
  source: 'standoff_listings',
  audience: 'staff',
  async run({ db }) {
    // a pack is the price without surplus (listing price − surplus); held: paid and open, or a live claim
    const pack = sql<number>`${orders.listingPrice} - ${orders.surplus}`.mapWith(Number)
    const rows = await db
      .select({
        base: pack,
        n: sql<number>`count(*)`.mapWith(Number),
        first: sql<string>`min(${orders.id}::text)`,
      })
      .from(orders)
      .where(
        and(
          eq(orders.kind, 'StandoffOrder'),
          isNotNull(orders.listingPrice),
          isNotNull(orders.surplus),
          notInArray(orders.status, ['done', 'failed']),
          or(isNotNull(orders.paidAt), liveClaim),
        ),
      )
      .groupBy(pack)
    const out: AlertFound[] = []
    for (const r of rows.filter((x) => x.n >= Math.ceil(SURPLUS_VALUES * LISTINGS_CLAIMED_SHARE))) {
      const [line] = await db
        .select({ title: products.title })
        .from(orderProducts)
        .innerJoin(products, eq(products.id, orderProducts.productId))
        .where(eq(orderProducts.orderId, r.first))
        .limit(1)
      out.push({
        cause: `listing_claims_high:${r.base}`,
        detail: fill(D.listing_claims_high, {
          taken: r.n,
          total: SURPLUS_VALUES,
          pack: line?.title ?? r.base,
        }),
        link: '/admin/delivery',
      })
    }
    return out
  },
}

export const ALERT_CHECKS: AlertCheck[] = [
  mailFailing,
  providerFailing,
  providerMismatch,
  refundNeedsPerson,
  paidOrderFailed,
  lowStock,
  deliveryOverdue,
  receiptsFailing,
  reconciliation,
  standoffListings,
]
