// npm start: build the storefront when the build is missing or older than its sources, compile the
// server when build/shop/ is (a second, even with SKIP_BUILD=1), then run the compiled supervisor,
// which starts WEB_CONCURRENCY shop workers (storefront + API) on one port. No TypeScript loader
// runs in production (decision 076).
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { buildShopServer, shopBuildDir, shopBuildStale } from './build-server.mjs'
import { loadEnvFileOrExit } from './env-file.mjs'

// settings from .env in the shop's folder or ENV_FILE (relative to where npm start was run)
const envFile = loadEnvFileOrExit()
if (envFile)
  console.log(`Settings read from ${envFile.file} (${envFile.set.length} not already in the environment).`)
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

if (shopBuildStale()) {
  console.log('Compiling the shop server…')
  await buildShopServer()
}

process.env.NODE_ENV ??= 'production'
const { runSupervisor } = await import(pathToFileURL(path.join(shopBuildDir, 'supervisor.js')).href)
runSupervisor()
