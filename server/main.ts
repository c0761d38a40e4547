// One shop process (a supervisor's worker, or run alone): opens the database (waiting for it,
// migrating under a lock), serves HTTP, runs the job worker, and drains on SIGTERM.
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type RequestListener,
  type ServerOptions,
} from 'node:http'
import { serve } from '@hono/node-server'
import { type Database, openDatabase } from '#api/db/client'
import { runMode } from '#api/env'
import { log } from '#api/lib/log'
import { createApiJobWorker, demoSeeder, prepareApi, prepareDatabase } from '#api/startup'
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
  const usesDb = !env.API_URL
  let database: Database | null = null
  if (usesDb) {
    try {
      database = await openDatabase({
        url: env.DATABASE_URL,
        dataDir: env.DATABASE_URL ? undefined : `${env.dataDir}/pglite`,
        pg: pgSettings(env),
        seed: demoSeeder({ seedDemo: env.seedDemo, stockPerItem: env.DEMO_STOCK, demoMode }),
      })
    } catch (e) {
      log.fatal({ err: { message: (e as Error).message } }, 'cannot open the database')
      process.exit(EXIT_CANNOT_START)
    }
    // the API's start-up tasks on the database (api/src/startup.ts)
    await prepareDatabase(database, { demoMode, dataDir: env.dataDir })
  }
  const readiness = createReadiness()
  let shop: Awaited<ReturnType<typeof createShopServer>>
  try {
    shop = await createShopServer(env, database, readiness)
  } catch (e) {
    console.error((e as Error).message)
    process.exit(EXIT_CANNOT_START)
  }
  // the API's start-up tasks once it exists: SMTP warning, YooKassa's methods, sandbox suppliers
  if (shop.deps) await prepareApi(shop.deps)
  // Background jobs (mail, order clock, housekeeping) run beside the API in every process that has
  // the database; JOBS=0 leaves them to other instances.
  const worker =
    shop.deps && process.env.JOBS !== '0'
      ? createApiJobWorker(shop.deps, {
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
