// One shop process (a supervisor's worker, or run alone): opens the database (waiting for it,
// migrating under a lock), serves HTTP, runs the job worker, and drains on SIGTERM.
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type RequestListener,
  type ServerOptions,
} from 'node:http'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { type Database, openDatabase } from '#api/db/client'
import { JOB_HANDLERS, RECURRING_JOBS } from '#api/jobs/handlers'
import { runMode } from '#api/env'
import { DEMO_STAFF_EMAILS, disableDemoStaff } from '#api/services/admin/demo-staff'
import { createJobWorker } from '#api/jobs/worker'
import { ensureYookassaMethods } from '#api/services/payments/yookassa-setup'
import { log } from '#api/lib/log'
import { retireSandboxSuppliers } from '#api/services/delivery/suppliers'
import { importLegacyUploads } from '#api/services/uploads/legacy-import'
import { NODE_UPGRADE_DOC, nodeEndOfLife } from '../shared/node-support'
import { routeConsoleToLog } from './access-log'
import { jobFailures, startMetricsServer } from './metrics'
import { createShopServer } from './create-server'
import { loadServerEnv, pgSettings, type ServerEnv } from './env'
import { createReadiness, EXIT_CANNOT_START, trackRequests } from './lifecycle'

async function main() {
  const started = performance.now()
  let env: ServerEnv
  try {
    env = loadServerEnv(process.env)
  } catch (e) {
    console.error((e as Error).message)
    process.exit(EXIT_CANNOT_START)
  }
  routeConsoleToLog() // from here on every line on stdout is JSON (a refusal above stays plain)
  const oldNode = nodeEndOfLife()
  if (oldNode)
    log.warn(
      { node: oldNode.version, endedOn: oldNode.endedOn },
      `Node.js ${oldNode.version} is past its end of life (${oldNode.endedOn}): move to Node.js 24 LTS (${NODE_UPGRADE_DOC})`,
    )
  // A promise nobody awaited must not end the process (and every request in it): log it.
  process.on('unhandledRejection', (err) => log.error({ err }, 'unhandled promise rejection'))

  const demoMode = runMode(process.env) === 'demo'
  /** What the demo seed makes, for the start-up log. */
  const SEEDED_CATALOGUE =
    'games, products and codes, gifts, payment methods, articles, settings, promo codes'
  const usesDb = !env.API_URL
  let database: Database | null = null
  if (usesDb) {
    try {
      database = await openDatabase({
        url: env.DATABASE_URL,
        dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pglite`,
        pg: pgSettings(env),
        // Loaded only when seeding: a production worker never reads the demo seeder.
        // the demo staff accounts (public passwords) only in demo mode (issue 42), and so are the
        // demo's legal texts and contacts (issue 47)
        seed: env.seedDemo
          ? async (db) =>
              (await import('#api/demo/seed')).seedIfEmpty(db, {
                stockPerItem: env.DEMO_STOCK,
                staff: demoMode,
                texts: demoMode,
              })
          : undefined,
      })
    } catch (e) {
      log.fatal({ err: { message: (e as Error).message } }, 'cannot open the database')
      process.exit(EXIT_CANNOT_START)
    }
    if (database.seeded)
      log.info(
        // the accounts by count, not address: the log holds no email (their sign-ins are in the README)
        { seeded: SEEDED_CATALOGUE, staffAccounts: demoMode ? DEMO_STAFF_EMAILS.length : 0 },
        demoMode
          ? `Seeded the demo catalogue (${SEEDED_CATALOGUE}) and the ${DEMO_STAFF_EMAILS.length} demo staff accounts (owner and support, README «Demo»).`
          : `Seeded the demo catalogue (${SEEDED_CATALOGUE}); no staff accounts: production (SEED_DEMO=1) never creates the demo's.`,
      )
    // a demo staff account left from an earlier demo is a public password to the back-office
    if (!demoMode) await disableDemoStaff(database.db)
    await importOldUploads(database, env.dataDir)
  }
  const readiness = createReadiness()
  let shop: Awaited<ReturnType<typeof createShopServer>>
  try {
    shop = await createShopServer(env, database, readiness)
  } catch (e) {
    console.error((e as Error).message)
    process.exit(EXIT_CANNOT_START)
  }
  const config = shop.deps?.config
  if (config && !config.demo && !config.mail.smtp) {
    // production without SMTP starts, but loudly: this line and the overview banner (decision 062)
    log.warn(
      { dir: config.mail.dir },
      'SMTP_URL is not set: every mail (order codes included) is written to files on this server and nobody receives it; set SMTP_URL and MAIL_FROM',
    )
  }
  // With YooKassa's keys set its methods exist (switched off) for the owner to turn on
  if (shop.deps?.config.yookassa) {
    const made = await ensureYookassaMethods(shop.deps.db).catch((err: unknown) => {
      log.error({ err }, 'could not create the YooKassa payment methods')
      return []
    })
    if (made.length)
      console.log(
        `Created the YooKassa payment methods ${made.join(', ')} (off until the owner turns them on).`,
      )
  }
  // No pretend delivery outside sandbox payments: `sandbox` games go to a person (decision 042).
  if (shop.deps) {
    const moved = await retireSandboxSuppliers(shop.deps.db, shop.deps.config)
    if (moved.length)
      log.warn(
        { games: moved.map((g) => `${g.id} ${g.title}`) },
        'games whose supplier was sandbox are now delivered by a person (manual): sandbox payments are off',
      )
  }
  // Background jobs (mail, order clock, housekeeping) run beside the API in every process that has
  // the database; JOBS=0 leaves them to other instances.
  const worker =
    shop.deps && process.env.JOBS !== '0'
      ? createJobWorker(shop.deps, {
          handlers: JOB_HANDLERS,
          recurring: RECURRING_JOBS,
          // PGlite: two, so a job waiting on the network (a Telegram long poll, a provider's slow
          // answer) does not hold mails and receipts back; the database serialises their queries
          concurrency: database?.kind === 'postgres' ? 4 : 2,
          onError: (err, job) => {
            jobFailures.inc({ kind: job?.kind ?? 'poll' })
            log.error({ err, job: job && { id: job.id, kind: job.kind } }, 'job failed')
          },
        })
      : null
  if (worker && shop.deps) {
    shop.deps.jobs = worker
    worker.start()
  }
  if (env.METRICS_PORT) startMetricsServer(env.METRICS_PORT, env.METRICS_HOST, database)
  // A request the answer cache can answer never reaches Hono (server/answer-cache.ts).
  const createServer = ((options: ServerOptions, listener: RequestListener) =>
    createHttpServer(options, (req, res) => {
      if (!shop.serveCached(req, res)) listener(req, res)
    })) as typeof createHttpServer
  const server = serve({ fetch: shop.fetch, port: env.PORT, hostname: env.HOST, createServer }, (info) => {
    const where = database
      ? database.kind === 'postgres'
        ? 'PostgreSQL'
        : `PGlite in ${env.dataDir}`
      : `API at ${env.API_URL}`
    console.log(
      `Shop ready at http://localhost:${info.port}/ (${where}, ${Math.round(performance.now() - started)} ms)`,
    )
    process.send?.({ type: 'shop:ready' })
  })
  // A client or balancer reuses an idle connection until its own idle timeout (60 s on most). If
  // the shop closed it first, a request sent in that instant would be reset (ECONNRESET, or a 502
  // from the balancer), so the shop keeps idle connections open longer than they do.
  ;(server as HttpServer).keepAliveTimeout = env.KEEPALIVE_TIMEOUT_MS
  const requests = trackRequests(server, readiness)

  // SIGTERM: not ready at once (balancers stop sending), still serving for SHUTDOWN_DELAY_MS (what
  // they already routed here), then no new connections; in-flight requests finish (up to
  // SHUTDOWN_TIMEOUT_MS); then jobs stop, the pool closes, exit 0. SIGINT (Ctrl-C) skips the delay.
  let stopping = false
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    readiness.draining = true
    requests.closeAfterResponse()
    const delay = signal === 'SIGTERM' ? env.SHUTDOWN_DELAY_MS : 0
    log.info({ signal, delayMs: delay, inFlight: requests.count() }, 'shutting down: draining')
    await new Promise((r) => setTimeout(r, delay))
    server.close()
    const settled = await requests.settled(env.SHUTDOWN_TIMEOUT_MS)
    if (!settled)
      log.warn({ inFlight: requests.count() }, 'shutting down: SHUTDOWN_TIMEOUT_MS reached, closing')
    if ('closeAllConnections' in server) server.closeAllConnections()
    await worker?.stop().catch(() => {})
    await database?.close().catch(() => {})
    log.info('shut down')
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

void main()

/** Uploads an older version kept under DATA_DIR/uploads move into the database, once (decision 036). */
async function importOldUploads(database: Database, dataDir: string) {
  try {
    const done = await importLegacyUploads(database.db, path.join(dataDir, 'uploads'))
    if (done) log.info(done, 'imported the uploads folder into the database')
  } catch (err) {
    // the shop runs without them (their links answer 404); the next start tries again
    log.error({ err }, 'could not import the uploads folder')
  }
}
