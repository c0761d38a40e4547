// The primary of `npm start`: starts WEB_CONCURRENCY shop workers (node:cluster, one shared port),
// replaces a worker that dies (with backoff), and passes a shutdown signal on to every worker.
import cluster, { type Worker } from 'node:cluster'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { log } from '#api/lib/log'
import { routeConsoleToLog } from './access-log'
import { loadServerEnv, type ServerEnv } from './env'
import { EXIT_CANNOT_START } from './lifecycle'

/** How many workers to run, and why when the setting was overridden. */
export function workerCount(
  env: ServerEnv,
  cores = availableParallelism(),
): { count: number; note?: string } {
  const embedded = !env.DATABASE_URL && !env.API_URL
  if (embedded) {
    // PGlite is one process's database: a second worker could not open it
    if ((env.WEB_CONCURRENCY ?? 1) > 1) {
      return {
        count: 1,
        note: `WEB_CONCURRENCY=${env.WEB_CONCURRENCY} ignored: the embedded database (PGlite) serves one process; set DATABASE_URL to run more`,
      }
    }
    return { count: 1 }
  }
  return { count: env.WEB_CONCURRENCY ?? cores }
}

/** Backoff before restarting a worker that died young: 250 ms, doubling, at most 15 s. */
export function restartDelayMs(quickDeaths: number): number {
  return Math.min(15_000, 250 * 2 ** Math.max(0, quickDeaths - 1))
}
/** A worker that lived this long died of something new: the backoff starts again. */
const STABLE_AFTER_MS = 30_000

/** Node flags minus `--import x` / `--import=x` (the worker gets its own loader). */
function withoutImports(args: string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--import') i++
    else if (!args[i]!.startsWith('--import=')) out.push(args[i]!)
  }
  return out
}

/**
 * What a worker runs: compiled into build/shop/ (`npm start`), the supervisor forks the compiled
 * main.js with plain node; run from its TypeScript source (tests, dev), it forks main.ts through tsx.
 */
export function workerEntry(supervisorUrl: string, execArgv: string[]): { exec: string; execArgv: string[] } {
  const compiled = supervisorUrl.endsWith('.js')
  return {
    exec: fileURLToPath(new URL(compiled ? './main.js' : './main.ts', supervisorUrl)),
    execArgv: [...withoutImports(execArgv), ...(compiled ? [] : ['--import', 'tsx'])],
  }
}

export function runSupervisor() {
  let env: ServerEnv
  try {
    env = loadServerEnv(process.env)
  } catch (e) {
    console.error((e as Error).message)
    process.exit(EXIT_CANNOT_START)
  }
  routeConsoleToLog() // from here on every line on stdout is JSON (a refusal above stays plain)
  const { count, note } = workerCount(env)
  if (note) log.warn(note)
  cluster.setupPrimary(workerEntry(import.meta.url, process.execArgv))

  let shuttingDown = false
  let everReady = false
  let quickDeaths = 0
  const startedAt = new Map<Worker, number>()

  const fork = () => {
    const worker = cluster.fork()
    startedAt.set(worker, Date.now())
    worker.on('message', (m: { type?: string }) => {
      if (m?.type === 'shop:ready') everReady = true
    })
    log.info({ workerPid: worker.process.pid }, 'worker started')
  }

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now())
    startedAt.delete(worker)
    if (shuttingDown) {
      if (code !== 0) exitCode ||= 1
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode)
      return
    }
    if (!everReady) {
      // nothing ever started: a bad setting or no database, and restarting will not fix it
      log.fatal({ workerPid: worker.process.pid, exitCode: code, signal }, 'worker could not start; stopping')
      shutdown('SIGTERM', code || 1)
      return
    }
    quickDeaths = lived >= STABLE_AFTER_MS ? 1 : quickDeaths + 1
    const delay = restartDelayMs(quickDeaths)
    log.error(
      { workerPid: worker.process.pid, exitCode: code, signal, livedMs: lived, restartInMs: delay },
      'worker died; restarting',
    )
    setTimeout(() => {
      if (!shuttingDown) fork()
    }, delay)
  })

  let exitCode = 0
  const shutdown = (signal: NodeJS.Signals, code = 0) => {
    if (shuttingDown) return
    shuttingDown = true
    exitCode = code
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w)
    if (workers.length === 0) process.exit(exitCode)
    for (const w of workers) w.process.kill(signal)
    // a worker that does not finish its drain in time is ended
    setTimeout(
      () => {
        for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL')
        process.exit(1)
      },
      env.SHUTDOWN_DELAY_MS + env.SHUTDOWN_TIMEOUT_MS + 15_000,
    ).unref()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))

  log.info({ workers: count, primaryPid: process.pid }, 'supervisor starting workers')
  for (let i = 0; i < count; i++) fork()
}
