// Prometheus metrics (issue 19), served on their own listener at METRICS_PORT (never on the public
// port): process defaults, request durations by route and status, orders by status, orders
// waiting for delivery by a person and the age of the oldest, the job queue's depth and failures,
// the database pool, the fraud review's held orders by rule and decisions, the open «Сверка»
// differences by provider and kind (429s by route are the
// request durations' status label). Each worker process has its own registry (its
// `pid` label tells them apart).
import { createServer, type Server } from 'node:http'
import { sql } from 'drizzle-orm'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Database } from '#api/db/client'
import { awaitingDelivery } from '#api/services/delivery/waiting'
import { log } from '#api/lib/log'
import { reviewCountsByRule } from '#api/services/risk/queue'
import { RECONCILIATION_KINDS } from '#api/db/schema'
import { openDifferenceCounts } from '#api/services/reconciliation/run'
import { RECONCILE_SOURCES } from '#api/services/reconciliation/sources'

export const registry = new Registry()
registry.setDefaultLabels({ pid: String(process.pid) })
collectDefaultMetrics({ register: registry })

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer a request, by method, route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
})

export const jobFailures = new Counter({
  name: 'shop_job_failures_total',
  help: 'Background jobs that failed (each failed attempt), by kind',
  labelNames: ['kind'],
  registers: [registry],
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A route label of bounded cardinality: ids and tokens in the path become ':id'. */
export function routeOf(path: string): string {
  if (path.startsWith('/assets/')) return '/assets/*'
  if (path.startsWith('/media/')) return '/media/*'
  const parts = path
    .split('/')
    .map((seg) => (/^\d+$/.test(seg) || UUID.test(seg) || seg.length > 32 ? ':id' : seg))
  // pages and API paths are at most a few segments deep; deeper ones are folded
  return parts.slice(0, 7).join('/')
}

/**
 * Routes of paths already seen (a cached answer's path repeats). Bounded in count and in key length,
 * as paths are the client's to choose.
 */
const routes = new Map<string, string>()
const ROUTES_MAX = 4096
const ROUTE_PATH_MAX_LENGTH = 200

export function observeRequest(method: string, path: string, status: number, seconds: number): void {
  let route = status === 404 ? 'unmatched' : routes.get(path)
  if (route === undefined) {
    route = routeOf(path)
    if (path.length <= ROUTE_PATH_MAX_LENGTH) {
      if (routes.size >= ROUTES_MAX) routes.clear()
      routes.set(path, route)
    }
  }
  httpDuration.observe({ method, route, status: String(status) }, seconds)
}

/** Gauges read from the database at scrape time, so every instance reports the same numbers. */
function databaseGauges(database: Database): void {
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows
  new Gauge({
    name: 'shop_orders',
    help: 'Orders by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset()
      for (const r of await rows(sql`select status, count(*)::int as n from orders group by status`))
        this.set({ status: String(r.status) }, Number(r.n))
    },
  })
  new Gauge({
    name: 'shop_jobs',
    help: 'Jobs of the queue by status (pending = queue depth; dead = failed for good)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset()
      for (const r of await rows(sql`select status, count(*)::int as n from jobs group by status`))
        this.set({ status: String(r.status) }, Number(r.n))
    },
  })
  // paid orders of manual games waiting for a person (issue 31): one query per scrape for both
  let waiting: Promise<Awaited<ReturnType<typeof awaitingDelivery>>> | null = null
  const waitingNow = () => {
    waiting ??= awaitingDelivery(database.db).finally(() => {
      waiting = null
    })
    return waiting
  }
  new Gauge({
    name: 'orders_awaiting_delivery',
    help: 'Paid orders of manual games waiting for a person to deliver them (the desk’s queue)',
    registers: [registry],
    async collect() {
      this.set((await waitingNow()).count)
    },
  })
  new Gauge({
    name: 'orders_awaiting_delivery_oldest_seconds',
    help: 'How long the oldest order waiting for delivery has waited, in seconds (0 when none wait)',
    registers: [registry],
    async collect() {
      this.set((await waitingNow()).oldest_waiting_seconds ?? 0)
    },
  })
  new Gauge({
    name: 'shop_order_reviews',
    help: 'Orders the fraud rules held, by rule and decision (held = waiting, approved, rejected)',
    labelNames: ['rule', 'status'],
    registers: [registry],
    async collect() {
      this.reset()
      for (const r of await reviewCountsByRule(database.db)) this.set({ rule: r.rule, status: r.status }, r.n)
    },
  })
  new Gauge({
    name: 'reconciliation_differences',
    help: 'Open differences between the shop’s books and a payment provider’s («Сверка»), by provider and kind',
    labelNames: ['provider', 'kind'],
    registers: [registry],
    async collect() {
      this.reset()
      // every kind of every provider compared is reported, 0 when none is open
      for (const s of RECONCILE_SOURCES)
        for (const kind of RECONCILIATION_KINDS) this.set({ provider: s.provider, kind }, 0)
      for (const r of await openDifferenceCounts(database.db))
        this.set({ provider: r.provider, kind: r.kind }, r.n)
    },
  })
  const pool = database.pool
  if (!pool) return
  new Gauge({
    name: 'shop_db_pool_connections',
    help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount)
      this.set({ state: 'idle' }, pool.idleCount)
      this.set({ state: 'waiting' }, pool.waitingCount)
    },
  })
}

/** Serves GET /metrics on `port` (its own listener). */
export function startMetricsServer(port: number, host: string, database: Database | null): Server {
  if (database) databaseGauges(database)
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end()
      return
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
      (err) => {
        log.warn({ err }, 'metrics: collecting failed')
        res.writeHead(503).end()
      },
    )
  })
  server.on('error', (err) => log.error({ err }, 'metrics: cannot listen'))
  server.listen(port, host)
  return server
}
