// `npm run bench:startup`: how long one shop worker (storefront + API on embedded PGlite) takes to
// answer its first request, and its memory (RSS) then and after some traffic, run from the compiled
// build/shop/main.js (what `npm start` runs) and from the TypeScript source through tsx (what it
// ran before decision 076). Plain JavaScript, so any Node runs it: `npx -y node@24 scripts/startup-figures.mjs`.
// Needs `npm run build`. RUNS=<n> (default 3), MODES=compiled,tsx (and start: `scripts/start.mjs`).
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const runs = Number(process.env.RUNS ?? 3)
const modes = (process.env.MODES ?? 'compiled,tsx').split(',')
// start: `npm start`'s own script (supervisor + one worker; the RSS is the worker's)
const ARGS = {
  compiled: ['build/shop/main.js'],
  tsx: ['--import', 'tsx', 'server/main.ts'],
  start: ['scripts/start.mjs'],
}
/** The process that serves: the worker under `start`, else the process itself. */
const server = (mode, pid) =>
  mode === 'start'
    ? Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0])
    : pid

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function once(mode, dataDir) {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, ARGS[mode], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      JWT_SECRET: 'startup-figures-secret-startup-figures',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      SEED_DEMO: '0',
      JOBS: '0',
      SKIP_BUILD: '1',
      SHUTDOWN_DELAY_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  const url = `http://127.0.0.1:${port}`
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode}: the worker exited\n${out}`)
      if (performance.now() - started > 120_000) throw new Error(`${mode}: not ready in 120 s\n${out}`)
      const ok = await fetch(`${url}/api/health/`)
        .then((r) => r.status === 200)
        .catch(() => false)
      if (ok) break
      await sleep(25)
    }
    const readyMs = Math.round(performance.now() - started)
    const pid = server(mode, child.pid)
    const rssReady = rssMb(pid)
    for (let i = 0; i < 30; i++) {
      for (const p of ['/', '/api/games/', '/help']) await fetch(url + p).then((r) => r.arrayBuffer())
    }
    const rssTraffic = rssMb(pid)
    return { readyMs, rssReady, rssTraffic }
  } finally {
    // SIGTERM: the supervisor passes it to its worker (SHUTDOWN_DELAY_MS=0: no drain wait)
    child.kill(mode === 'start' ? 'SIGTERM' : 'SIGKILL')
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)))
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`Node ${process.version}, ${runs} run(s) per mode; one worker, PGlite already migrated`)
for (const mode of modes) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'startup-figures-'))
  try {
    await once(mode, dataDir) // migrates the fresh database; not counted
    const results = []
    for (let i = 0; i < runs; i++) results.push(await once(mode, dataDir))
    const f = (k) => `${median(results.map((r) => r[k]))} (${results.map((r) => r[k]).join(', ')})`
    console.log(
      `${mode.padEnd(8)} first 200 after ${f('readyMs')} ms; RSS ${f('rssReady')} MB at ready, ${f('rssTraffic')} MB after 90 requests`,
    )
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
