// Runs the real shop (server/main.ts) as a child process on a free port, for tests that need a
// whole process: crashes, signals, restarts. The caller owns DATA_DIR and the environment.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

export interface ShopProcess {
  child: ChildProcess
  port: number
  url: string
  dataDir: string
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  alive(): boolean
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

/** JSON log lines of the process (other output skipped). */
export function logLines(proc: ShopProcess): Array<Record<string, unknown>> {
  return proc
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>]
      } catch {
        return []
      }
    })
}

/** Pids of the workers a supervisor (`scripts/start.mjs`) reported starting, oldest first. */
export function workerPids(proc: ShopProcess): number[] {
  return logLines(proc)
    .filter((l) => l.msg === 'worker started')
    .map((l) => Number(l.workerPid))
}

/** Polls `check` until it returns something truthy, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 60_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value as NonNullable<T>
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

export async function startShopProcess(
  opts: {
    env?: Record<string, string>
    dataDir?: string
    /** `server/main.ts` (one process, the default) or `scripts/start.mjs` (the supervisor). */
    entry?: string
    /** The shop's folder (default: this checkout); an unpacked release, for the upgrade test. */
    cwd?: string
    /** Node's options before the entry (default `--import tsx`; [] for compiled `scripts/start.mjs`). */
    nodeOptions?: string[]
    waitFor?: string
    readyTimeoutMs?: number
    /** false: return at once (for a process expected to stop by itself). */
    waitReady?: boolean
  } = {},
): Promise<ShopProcess> {
  const port = Number(opts.env?.PORT) || (await freePort())
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'shop-proc-'))
  let out = ''
  const child = spawn(
    process.execPath,
    [...(opts.nodeOptions ?? ['--import', 'tsx']), opts.entry ?? 'server/main.ts'],
    {
      cwd: opts.cwd ?? root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        JWT_SECRET: 'process-test-secret-process-test-secret',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        SKIP_BUILD: '1',
        // the shop under test reads no developer's .env (scripts/env-file.mjs)
        ENV_FILE: '/dev/null',
        // order loads send many orders of one email from one address (the fraud limits of issue 34
        // have their own tests in tests/api/fraud-limits.test.ts)
        ORDER_LIMIT_PER_ADDRESS: '100000',
        ORDER_LIMIT_PER_EMAIL: '100000',
        PAYMENT_LIMIT_PER_ADDRESS: '100000',
        PAYMENT_LIMIT_PER_EMAIL: '100000',
        RISK_RULES: '',
        ...opts.env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  child.stdout?.on('data', (d) => {
    out += d
  })
  child.stderr?.on('data', (d) => {
    out += d
  })
  // 'exit' can come before the last lines are read from the pipes (a test reading the log at once
  // then missed the final 'shut down'): wait for both to end, but not for ever, as a worker the
  // process forked may hold the same pipes open
  const drained = (s: Readable | null) =>
    !s || s.readableEnded || s.destroyed
      ? Promise.resolve()
      : new Promise<void>((r) => {
          s.once('end', r)
          s.once('close', r)
        })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      const read = Promise.all([drained(child.stdout), drained(child.stderr)])
      void Promise.race([read, new Promise((r) => setTimeout(r, 3000))]).then(() => resolve({ code, signal }))
    }),
  )
  let done = false
  void exited.then(() => {
    done = true
  })
  const proc: ShopProcess = {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    dataDir,
    output: () => out,
    exited,
    alive: () => !done,
    async stop(signal = 'SIGTERM') {
      if (!done) child.kill(signal)
      return exited
    },
  }
  if (opts.waitReady === false) return proc
  const readyPath = opts.waitFor ?? '/api/health/'
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000)
  while (Date.now() < deadline) {
    if (done) throw new Error(`the shop exited before it was ready:\n${out}`)
    const ok = await fetch(proc.url + readyPath)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) return proc
    await new Promise((r) => setTimeout(r, 200))
  }
  await proc.stop('SIGKILL')
  throw new Error(`the shop did not answer ${readyPath} in time:\n${out}`)
}

/** A storefront-only shop process (SHOP_ROLE=storefront) in front of the API at `apiUrl`. */
export function startStorefrontProcess(
  apiUrl: string,
  env: Record<string, string> = {},
  readyTimeoutMs = 90_000,
): Promise<ShopProcess> {
  return startShopProcess({ env: { SHOP_ROLE: 'storefront', API_URL: apiUrl, ...env }, readyTimeoutMs })
}
