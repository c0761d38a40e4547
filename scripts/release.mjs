// npm run release: writes release/igromarket-<version>.tar.gz and its .sha256 (decision 131). The
// archive holds one folder, igromarket-<version>/, with the built shop (build/), the sources the
// owner's scripts run from (db:migrate, admin:grant and db:seed run with tsx, a runtime dependency),
// the migrations, package.json and its lockfile, docs/, deploy/, README, CHANGELOG and .env.example.
// Never data, settings or tests: nothing outside the list below is read, and .env files, data/,
// tests and e2e are refused even inside it.
//   node scripts/release.mjs [--from <shop folder>] [--out <folder>]
// --from packs another checkout (the upgrade test packs the previous release's commit with this
// recipe); the folder is built first when its build is missing or older than its sources.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** What a release holds (paths relative to the shop's folder; a missing one is skipped). */
const RELEASE_PATHS = [
  'build',
  'api/src',
  'api/drizzle',
  'app',
  'server',
  'shared',
  'locales',
  'public',
  'openapi',
  'scripts',
  'deploy',
  'docs',
  'package.json',
  'package-lock.json',
  'README.md',
  'CHANGELOG.md',
  '.env.example',
  'tsconfig.json',
  'vite.config.ts',
  'drizzle.config.ts',
]
/** Never in a release, wherever they are: data, settings, tests, build leftovers. */
const REFUSED = [
  /(^|\/)\.env(\..*)?$/,
  /(^|\/)(data|tests|e2e|node_modules|\.cache|test-results|reports)(\/|$)/,
  /\.(test|spec)\.tsx?$/,
  /^scripts\/(bench|screens\.ts|test-setup\.ts)/,
  /^build\/shop\.\d+\.(tmp|old)(\/|$)/,
]
const keep = (rel) => rel === '.env.example' || !REFUSED.some((re) => re.test(rel))

function files(root, rel) {
  const abs = path.join(root, rel)
  if (!existsSync(abs) || !keep(rel)) return []
  if (!statSync(abs).isDirectory()) return [rel]
  return readdirSync(abs).flatMap((name) => files(root, `${rel}/${name}`))
}

function newest(root, rels) {
  let t = 0
  for (const rel of rels) t = Math.max(t, statSync(path.join(root, rel)).mtimeMs)
  return t
}

/** Builds `from` when its storefront or compiled server is missing or older than their sources. */
function buildIfStale(from) {
  const entry = [
    'build/server/index.js',
    ...(existsSync(path.join(from, 'scripts/build-server.mjs')) ? ['build/shop/main.js'] : []),
  ]
  const sources = [
    'app',
    'locales',
    'public',
    'server',
    'api/src',
    'shared',
    'package.json',
    'vite.config.ts',
  ].flatMap((p) => files(from, p))
  const stale =
    entry.some((e) => !existsSync(path.join(from, e))) ||
    newest(from, sources) > Math.min(...entry.map((e) => statSync(path.join(from, e)).mtimeMs))
  if (!stale) return false
  const r = spawnSync('npm', ['run', 'build'], {
    cwd: from,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (r.status !== 0) throw new Error(`npm run build failed in ${from}`)
  return true
}

/** Packs the shop in `from` into `out`; returns the archive's path and SHA-256. */
function makeRelease({ from, out }) {
  const { version } = JSON.parse(readFileSync(path.join(from, 'package.json'), 'utf8'))
  buildIfStale(from)
  const name = `igromarket-${version}`
  const stage = path.join(out, `.${name}.${process.pid}`)
  rmSync(stage, { recursive: true, force: true })
  const list = RELEASE_PATHS.flatMap((p) => files(from, p))
  if (!list.some((f) => f.startsWith('build/'))) throw new Error(`no build in ${from}`)
  // sources older than the build inside the archive: npm start there never rebuilds (no dev tools)
  const built = Date.now() / 1000
  for (const rel of list) {
    const to = path.join(stage, name, rel)
    cpSync(path.join(from, rel), to)
    const t = rel.startsWith('build/') ? built : built - 60
    utimesSync(to, t, t)
  }
  mkdirSync(out, { recursive: true })
  const archive = path.join(out, `${name}.tar.gz`)
  const tar = spawnSync(
    'tar',
    ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '-czf', archive, '-C', stage, name],
    { stdio: 'inherit' },
  )
  rmSync(stage, { recursive: true, force: true })
  if (tar.status !== 0) throw new Error('tar failed')
  const sha256 = createHash('sha256').update(readFileSync(archive)).digest('hex')
  writeFileSync(`${archive}.sha256`, `${sha256}  ${name}.tar.gz\n`)
  return { archive, sha256, version, files: list.length }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const arg = (flag, def) => {
    const i = process.argv.indexOf(flag)
    return i > 0 ? path.resolve(process.argv[i + 1]) : def
  }
  const root = fileURLToPath(new URL('..', import.meta.url))
  const from = arg('--from', root)
  const r = makeRelease({ from, out: arg('--out', path.join(root, 'release')) })
  console.log(`Wrote ${r.archive} (${r.files} files) and its .sha256: ${r.sha256}`)
}
