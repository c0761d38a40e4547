// Issue 48: an owner upgrades from one release archive to the next. The previous release is the
// commit CHANGELOG.md names for it (no tag needed: CI's clone may have none), packed with today's
// recipe (scripts/release.mjs); HEAD is packed the same way. The old release runs on PostgreSQL from
// its unpacked folder taking orders; then docs/upgrading.md's upgrade lines run as written (checksum,
// unpack, install, migrate) while the old instance keeps serving; the new release starts from its
// own folder with the settings file kept outside, the old one stops, and every order and code is
// there as it was.
import { execFile, execFileSync, execSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEnv, promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { prepareOrders } from '#tests/helpers/order-load'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import { freePort, type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

const root = fileURLToPath(new URL('../..', import.meta.url))
const release = path.join(root, 'scripts/release.mjs')
const rootLock = readFileSync(path.join(root, 'package-lock.json'), 'utf8')

/** The newest released entry of CHANGELOG.md that names its commit: `## 0.1.0 — 2026-11-26 · commit `abc…``. */
function previousRelease(changelog: string): { version: string; date: string; commit: string } {
  const m = /^## (\d+\.\d+\.\d+) — (\d{4}-\d{2}-\d{2}) · commit `([0-9a-f]{7,40})`/m.exec(changelog)
  if (!m) throw new Error('CHANGELOG.md names no released commit (## X.Y.Z — date · commit `sha`)')
  return { version: m[1]!, date: m[2]!, commit: m[3]! }
}

/**
 * The old release's runtime packages, when they are the ones installed here: each dependency of its
 * package.json that its sources import has the same version in both lockfiles. Then the old
 * release may use this checkout's node_modules instead of an `npm ci` of its own.
 */
function sameRuntimePackages(src: string): boolean {
  const pkg = JSON.parse(readFileSync(path.join(src, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>
  }
  const oldLock = JSON.parse(readFileSync(path.join(src, 'package-lock.json'), 'utf8')).packages
  const newLock = JSON.parse(rootLock).packages
  const dirs = ['api', 'app', 'server', 'shared', 'scripts'].filter((d) => existsSync(path.join(src, d)))
  const sources = execSync(`cat $(find ${dirs.join(' ')} -name '*.ts' -o -name '*.tsx' -o -name '*.mjs')`, {
    cwd: src,
    maxBuffer: 64 * 1024 * 1024,
  }).toString()
  return Object.keys(pkg.dependencies).every((name) => {
    const imported = new RegExp(`from '${name}(/[^']*)?'|import\\('${name}(/[^']*)?'\\)`).test(sources)
    const key = `node_modules/${name}`
    return !imported || oldLock[key]?.version === newLock[key]?.version
  })
}

/** node_modules for a release folder: this checkout's when the lockfile allows, else its own install. */
function install(dir: string, { dev }: { dev: boolean }) {
  const lockSame = readFileSync(path.join(dir, 'package-lock.json'), 'utf8') === rootLock
  if (lockSame || sameRuntimePackages(dir)) {
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
    return 'reused'
  }
  const started = Date.now()
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', ...(dev ? [] : ['--omit=dev'])], {
    cwd: dir,
    stdio: 'inherit',
  })
  return `npm ci: ${Date.now() - started} ms`
}

/** The previous release's archive, built from its commit with today's recipe (kept in .cache). */
function previousArchive(prev: { version: string; commit: string }, out: string): string {
  const name = `igromarket-${prev.version}.tar.gz`
  const cacheDir = path.join(root, '.cache/releases', prev.commit)
  if (!existsSync(path.join(cacheDir, name))) {
    try {
      execFileSync('git', ['cat-file', '-e', `${prev.commit}^{commit}`], { cwd: root })
    } catch {
      throw new Error(
        `commit ${prev.commit} of release ${prev.version} is not here: a shallow clone? git fetch --unshallow`,
      )
    }
    const src = mkdtempSync(path.join(tmpdir(), `shop-${prev.version}-src-`))
    execSync(`git archive ${prev.commit} | tar -x -C ${src}`, { cwd: root })
    console.log(`[upgrade] ${prev.version} (${prev.commit}) packages: ${install(src, { dev: true })}`)
    const started = Date.now()
    execFileSync(process.execPath, [release, '--from', src, '--out', cacheDir], { stdio: 'inherit' })
    console.log(`[upgrade] built and packed ${prev.version} in ${Date.now() - started} ms`)
  }
  for (const f of [name, `${name}.sha256`]) copyFileSync(path.join(cacheDir, f), path.join(out, f))
  return name
}

/** docs/upgrading.md's upgrade lines, for a shop in `base` going to `version`. */
function documentedUpgrade(base: string, version: string): string {
  const doc = readFileSync(path.join(root, 'docs/upgrading.md'), 'utf8')
  const block = /<!-- upgrade:begin -->\n```sh\n([\s\S]*?)```\n<!-- upgrade:end -->/.exec(doc)?.[1]
  if (!block) throw new Error('docs/upgrading.md: no upgrade block')
  expect(block).toContain('npm ci --omit=dev')
  return block
    .replaceAll('/srv/igromarket', base)
    .replace(/\bV=[^\s;]+/, `V=${version}`)
    .replace(
      /^npm ci --omit=dev.*$/m,
      // the release's lockfile is this checkout's (checked below): its packages are installed here
      `cmp package-lock.json ${root}package-lock.json && ln -s ${root}node_modules node_modules`,
    )
}

let db: PgTestDatabase
const procs: ShopProcess[] = []

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')))
  await db?.drop()
})

describe('upgrading from the previous release archive to this one (docs/upgrading.md)', () => {
  it('the old release serves during the migration; every order and code is intact afterwards', async () => {
    const prev = previousRelease(readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'))
    const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      version: string
    }
    const base = mkdtempSync(path.join(tmpdir(), 'igromarket-'))
    mkdirSync(path.join(base, 'releases'))
    db = await createPgDatabase('shop_upgrade')

    // the two archives, as an owner downloads them
    const oldArchive = previousArchive(prev, base)
    const started = Date.now()
    execFileSync(process.execPath, [release, '--out', base], { cwd: root, stdio: 'inherit' })
    console.log(`[upgrade] packed ${version} in ${Date.now() - started} ms`)
    const listing = execFileSync('tar', ['-tzf', path.join(base, `igromarket-${version}.tar.gz`)]).toString()
    for (const needed of [
      'build/shop/main.js',
      'build/server/index.js',
      'api/drizzle/',
      'package-lock.json',
      'docs/upgrading.md',
      'deploy/haproxy-tls.cfg',
      '.env.example',
    ])
      expect(listing).toContain(`igromarket-${version}/${needed}`)
    expect(listing).not.toMatch(/\/(tests|e2e|data|node_modules)\/|\/\.env\n/)

    // settings and data outside the release folders
    const settings = {
      DATABASE_URL: db.url,
      PUBLIC_URL: 'http://localhost',
      JWT_SECRET: 'upgrade-test-secret-upgrade-test-secret',
      SEED_DEMO: '1',
      DATA_DIR: path.join(base, 'data'),
      HOST: '127.0.0.1',
      WEB_CONCURRENCY: '1',
    }
    const envFile = path.join(base, 'shop.env')
    writeFileSync(
      envFile,
      Object.entries(settings)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    )

    // the old release, unpacked and installed, started as its service would (it reads no settings
    // file: systemd's EnvironmentFile gives it the same lines)
    execFileSync('tar', ['-xzf', oldArchive, '-C', 'releases'], { cwd: base })
    const oldDir = path.join(base, 'releases', `igromarket-${prev.version}`)
    install(oldDir, { dev: false })
    const old = await startShopProcess({
      cwd: oldDir,
      entry: 'scripts/start.mjs',
      nodeOptions: [],
      env: { ...(parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string>), SKIP_BUILD: '' },
      readyTimeoutMs: 180_000,
    })
    procs.push(old)
    const health = async (url: string) =>
      (await fetch(`${url}/api/health/`)).json() as Promise<{ version?: string }>
    expect((await health(old.url)).version ?? prev.version).toBe(prev.version)

    // it takes orders
    const maker = await prepareOrders(old.url)
    for (let i = 0; i < 10; i++) expect((await maker.create(old.url)).status).toBe(201)
    // (users are left out: a production start of 0.2.0 disables the demo's staff passwords, issue 42)
    const tables = ['orders', 'order_products', 'voucher_codes', 'gift_codes']
    const snapshot = async () => {
      const out: Record<string, unknown[]> = {}
      for (const table of tables) {
        const cols = oldColumns[table]!.map((c) => `"${c}"`).join(', ')
        out[table] = await db.query(`select ${cols} from ${table} order by 1`)
      }
      return out
    }
    const oldColumns: Record<string, string[]> = {}
    for (const table of tables)
      oldColumns[table] = (
        await db.query<{ c: string }>(
          'select column_name as c from information_schema.columns where table_name = $1 order by ordinal_position',
          [table],
        )
      ).map((r) => r.c)
    const migrationsBefore = (await db.query('select * from drizzle.__drizzle_migrations')).length

    // the documented lines, run as written, while buyers keep ordering from the old release
    let serving = true
    const during: Array<{ at: number; status: number }> = []
    const buyers = (async () => {
      while (serving) {
        const { status } = await maker.create(old.url).catch(() => ({ status: 0 }))
        during.push({ at: Date.now(), status })
        await new Promise((r) => setTimeout(r, 50))
      }
    })()
    // (asynchronously: the buyers above keep ordering while it runs)
    const { stdout: upgradeOut } = await promisify(execFile)(
      'bash',
      ['--norc', '--noprofile', '-euo', 'pipefail', '-c', documentedUpgrade(base, version)],
      {
        cwd: base,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'production' },
      },
    )
    const upgradeEnded = Date.now()
    serving = false
    await buyers
    expect(upgradeOut).toMatch(/igromarket-.*\.tar\.gz: OK/)
    expect(upgradeOut).toMatch(/Migrations applied to PostgreSQL/)
    expect((await db.query('select * from drizzle.__drizzle_migrations')).length).toBeGreaterThan(
      migrationsBefore,
    )
    // orders answered while db:migrate ran (its own figure, counted back from when the lines ended)
    const migrateMs = Number(/Migrations applied to PostgreSQL \((\d+) ms\)/.exec(upgradeOut)?.[1])
    const whileMigrating = during.filter((o) => o.at >= upgradeEnded - migrateMs - 500)
    console.log(
      `[upgrade] ${/Migrations applied to .*/.exec(upgradeOut)?.[0]}; the old release answered ${during.length} orders during the upgrade lines, ${whileMigrating.length} of them while db:migrate ran`,
    )
    expect(whileMigrating.length).toBeGreaterThan(0)
    expect(during.filter((o) => o.status !== 201)).toEqual([])
    expect(old.alive()).toBe(true)
    const before = await snapshot()

    // the new release from its own folder, settings from the file outside; then the old one stops
    const newDir = path.join(base, 'releases', `igromarket-${version}`)
    const next = await startShopProcess({
      cwd: newDir,
      entry: 'scripts/start.mjs',
      nodeOptions: [],
      env: { ENV_FILE: envFile, PORT: String(await freePort()), SKIP_BUILD: '' },
      readyTimeoutMs: 180_000,
    })
    procs.push(next)
    expect((await health(next.url)).version).toBe(version)
    expect(await old.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    expect(next.output()).toContain(`Settings read from ${envFile}`)

    // every order and code as it was, and the new release serves the old orders and takes new ones
    expect(await snapshot()).toEqual(before)
    const orders = before.orders as Array<{ id: string }>
    expect(orders.length).toBe(10 + during.length)
    expect((await maker.create(next.url)).status).toBe(201)
  }, 600_000)
})
