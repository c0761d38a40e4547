// Issue 19: two shop instances on PostgreSQL behind Debian's haproxy, with the committed
// deploy/haproxy.cfg. Orders are bought through the balancer while one instance is killed (kill -9)
// or stopped (SIGTERM): afterwards every order the clients meant to make exists exactly once.
// Failures the clients saw are counted and printed (the figures of docs/operations.md).
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSystemPackages, HAPROXY } from '../../scripts/system-packages'
import { type Outcome, orderLoad, prepareOrders } from '#tests/helpers/order-load'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import { freePort, type ShopProcess, startShopProcess, waitFor } from '#tests/helpers/shop-process'

const root = fileURLToPath(new URL('../..', import.meta.url))

let db: PgTestDatabase
let ports: [number, number]
const shops: Array<ShopProcess | null> = [null, null]
let haproxy: ChildProcess
let haproxyOut = ''
let balancer: string
let stats: string

/** haproxy's view of the instances: name → UP / DOWN / … */
async function backendStatus(): Promise<Record<string, string>> {
  const csv = await (await fetch(stats)).text()
  const out: Record<string, string> = {}
  for (const line of csv.split('\n')) {
    const [proxy, server, ...rest] = line.split(',')
    if (proxy === 'shops' && server?.startsWith('shop')) out[server] = rest[15] ?? ''
  }
  return out
}

const startInstance = async (i: 0 | 1) => {
  shops[i] = await startShopProcess({
    env: {
      SHOP_ROLE: 'api',
      DATABASE_URL: db.url,
      PUBLIC_URL: 'http://localhost',
      SEED_DEMO: '1',
      PORT: String(ports[i]),
      TRUST_PROXY: '127.0.0.1', // haproxy on this machine
    },
    readyTimeoutMs: 120_000,
  })
}

beforeAll(async () => {
  ensureSystemPackages([HAPROXY]) // as .ci/run and `npm test` do for Chromium
  db = await createPgDatabase('shop_lb')
  ports = [await freePort(), await freePort()]
  // the first instance migrates and seeds; the second finds it done
  await Promise.all([startInstance(0), startInstance(1)])
  const bind = await freePort()
  balancer = `http://127.0.0.1:${bind}`
  // the committed config as is, plus a stats page for the test to see which instances are up
  const statsPort = await freePort()
  stats = `http://127.0.0.1:${statsPort}/stats;csv`
  const extra = path.join(mkdtempSync(path.join(tmpdir(), 'haproxy-')), 'stats.cfg')
  writeFileSync(
    extra,
    `listen stats\n    bind 127.0.0.1:${statsPort}\n    stats enable\n    stats uri /stats\n`,
  )
  haproxy = spawn(HAPROXY.binary, ['-f', 'deploy/haproxy.cfg', '-f', extra, '-db'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      BIND: `127.0.0.1:${bind}`,
      SHOP1: `127.0.0.1:${ports[0]}`,
      SHOP2: `127.0.0.1:${ports[1]}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  haproxy.stdout?.on('data', (d) => {
    haproxyOut += d
  })
  haproxy.stderr?.on('data', (d) => {
    haproxyOut += d
  })
  await waitFor('both instances up in haproxy', async () => {
    const s = await backendStatus().catch(() => ({}) as Record<string, string>)
    return s.shop1 === 'UP' && s.shop2 === 'UP'
  })
}, 240_000)

afterAll(async () => {
  haproxy?.kill('SIGKILL')
  await Promise.all(shops.map((s) => s?.stop('SIGKILL')))
  await db?.drop()
})

/** Buys `total` orders through the balancer; `fault` runs once `faultAfter` have answered. */
async function buyThrough(total: number, faultAfter: number, fault: () => void) {
  const maker = await prepareOrders(balancer)
  let faulted = false
  const outcomes = await orderLoad(balancer, maker, {
    clients: 6,
    stop: (o) => {
      if (!faulted && o.length >= faultAfter) {
        faulted = true
        fault()
      }
      return o.length >= total
    },
  })
  const failed = outcomes.filter((o) => o.status !== 201 && o.status !== 200)
  // a client with an Idempotency-Key tries a failed order again: the balancer sends it to a live instance
  for (const o of failed) {
    const again = await waitFor(`order ${o.key} on retry`, async () => {
      const r = await maker.create(balancer, o.key).catch(() => null)
      return r && (r.status === 200 || r.status === 201) ? r : null
    })
    expect([200, 201]).toContain(again?.status)
  }
  const keys = outcomes.map((o) => o.key)
  const rows = await db.query<{ key: string; n: number }>(
    'select idempotency_key as key, count(*)::int as n from orders where email = $1 group by idempotency_key',
    [maker.email],
  )
  return { outcomes, failed, keys, rows }
}

function expectEachOrderOnce(keys: string[], rows: Array<{ key: string; n: number }>) {
  const made = new Map(rows.map((r) => [r.key, r.n]))
  const lost = keys.filter((k) => !made.has(k))
  const doubled = rows.filter((r) => r.n !== 1)
  expect(lost, 'lost orders').toEqual([])
  expect(doubled, 'doubled orders').toEqual([])
  expect(rows.length).toBe(keys.length)
}

const describeFailures = (failed: Outcome[]) =>
  failed.length ? ` (${failed.map((f) => f.status || f.error || 'network error').join(', ')})` : ''

describe('two instances behind haproxy (deploy/haproxy.cfg)', () => {
  it('kill -9 of one instance mid-load: no order lost or doubled', async () => {
    const victim = shops[0]!
    const { outcomes, failed, keys, rows } = await buyThrough(120, 30, () => victim.child.kill('SIGKILL'))
    expect(await victim.exited).toMatchObject({ signal: 'SIGKILL' })
    expectEachOrderOnce(keys, rows)
    console.log(
      `[haproxy] kill -9 of one of two instances during ${outcomes.length} orders: ` +
        `${failed.length} request(s) failed at the client${describeFailures(failed)}, 0 orders lost or doubled`,
    )
    // the killed instance comes back (as its supervisor or systemd would restart it) for the next test
    await startInstance(0)
  }, 180_000)

  it('SIGTERM of one instance mid-load: every request answered, no order lost or doubled', async () => {
    await waitFor('both instances up in haproxy', async () => {
      const s = await backendStatus()
      return s.shop1 === 'UP' && s.shop2 === 'UP'
    })
    const victim = shops[1]!
    const { outcomes, failed, keys, rows } = await buyThrough(120, 30, () => victim.child.kill('SIGTERM'))
    expect(await victim.exited).toEqual({ code: 0, signal: null })
    expectEachOrderOnce(keys, rows)
    console.log(
      `[haproxy] SIGTERM of one of two instances during ${outcomes.length} orders: ` +
        `${failed.length} request(s) failed at the client${describeFailures(failed)}, 0 orders lost or doubled`,
    )
    expect(failed).toEqual([])
    expect(haproxy.exitCode, haproxyOut).toBeNull()
  }, 180_000)
})
