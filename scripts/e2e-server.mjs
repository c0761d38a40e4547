// The shop as the e2e suite drives it: the existing build, a fresh embedded database. Its log is
// also written to .cache/e2e-<port>.log, which the suite's global teardown checks for personal
// data (e2e/global-teardown.ts).
import { spawn } from 'node:child_process'
import { createWriteStream, mkdirSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const port = process.env.PORT ?? 3200
const cache = fileURLToPath(new URL('../.cache/', import.meta.url))
// one data folder per port, so parallel runs on other ports do not wipe each other's database
const dataDir = `${cache}e2e-data-${port}`
rmSync(dataDir, { recursive: true, force: true })
mkdirSync(cache, { recursive: true })
const logFile = createWriteStream(`${cache}e2e-${port}.log`)

const child = spawn(process.execPath, [fileURLToPath(new URL('./start.mjs', import.meta.url))], {
  // ENV_FILE: the suite's shop reads no developer's .env
  env: { ENV_FILE: '/dev/null', ...process.env, DATA_DIR: dataDir, SKIP_BUILD: '1' },
  stdio: ['ignore', 'pipe', 'pipe'],
})
for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
]) {
  from.on('data', (chunk) => {
    logFile.write(chunk)
    to.write(chunk)
  })
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => logFile.end(() => process.exit(code ?? (signal ? 1 : 0))))
