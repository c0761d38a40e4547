// npm start: build the storefront when the build is missing or older than its sources, then run the
// supervisor, which starts WEB_CONCURRENCY shop workers (storefront + API) on one port.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
process.chdir(root)
const buildEntry = path.join(root, 'build/server/index.js')

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)
  }
  return newest
}

function needsBuild() {
  if (!existsSync(buildEntry)) return true
  const built = statSync(buildEntry).mtimeMs
  const sources = ['app', 'locales', 'public'].filter((d) => existsSync(d)).map((d) => newestMtime(d))
  for (const f of ['vite.config.ts', 'package.json']) sources.push(statSync(f).mtimeMs)
  return Math.max(...sources) > built
}

if (process.env.SKIP_BUILD !== '1' && needsBuild()) {
  console.log('Building the storefront…')
  const r = spawnSync(process.execPath, ['node_modules/@remix-run/dev/dist/cli.js', 'vite:build'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

process.env.NODE_ENV ??= 'production'
const { register } = await import('tsx/esm/api')
register()
const { runSupervisor } = await import('../server/supervisor.ts')
runSupervisor()
