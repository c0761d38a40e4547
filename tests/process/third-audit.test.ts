// Issue 42 (the third outside audit) as real processes: `npm run admin:grant` for an account whose
// email nobody confirmed (finding 1), and a production start with SEED_DEMO=1 (finding 2): no demo
// staff account made, what was seeded logged, and a demo owner left from an earlier demo disabled.
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { request } from 'node:http'
import { eq, like } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '#api/db/client'
import { articles, auditLog, contacts, staffAlerts, staffRoles, users } from '#api/db/schema'
import { freePort, logLines, startShopProcess, waitFor } from '#tests/helpers/shop-process'

const root = path.resolve(import.meta.dirname, '../..')

function grant(dataDir: string, ...args: string[]) {
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin-grant.ts', ...args], {
    cwd: root,
    // the embedded database of DATA_DIR, never a developer's DATABASE_URL or .env
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ENV_FILE: '/dev/null' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { code: out.status, text: `${out.stdout}${out.stderr}` }
}

/** A GET from the loopback address `from` (a client or a proxy at that address); the status. */
function getFrom(url: string, from: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/health/`, { localAddress: from, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })
}

async function withDb<T>(
  dataDir: string,
  fn: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
) {
  const database = await openDatabase({ dataDir: `${dataDir}/pglite` })
  try {
    return await fn(database.db)
  } finally {
    await database.close()
  }
}

describe('admin:grant needs a confirmed email (finding 1)', () => {
  it('refuses an unconfirmed account saying how to confirm, says so for an unknown address, audits both; grants once confirmed', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-grant-'))
    // the attacker signed up first with the manager's address and never confirmed it
    const id = await withDb(dataDir, async (db) => {
      const [u] = await db.insert(users).values({ email: 'manager@shop.ru', passwordHash: 'x' }).returning()
      return u!.id
    })

    const refused = grant(dataDir, 'manager@shop.ru', 'owner')
    expect(refused.code).toBe(3)
    expect(refused.text).toMatch(/has not confirmed its email/)
    expect(refused.text).toMatch(/confirmation link/)

    const unknown = grant(dataDir, 'nobody@shop.ru', 'support')
    expect(unknown.code).toBe(3)
    expect(unknown.text).toMatch(/There is no account with the email nobody@shop\.ru/)

    await withDb(dataDir, async (db) => {
      expect(await db.select().from(staffRoles)).toEqual([])
      const entries = await db.select().from(auditLog).where(eq(auditLog.action, 'staff.role_refused'))
      expect(entries.map((e) => (e.after as { reason: string }).reason).sort()).toEqual([
        'email_unconfirmed',
        'no_account',
      ])
      // the real manager proves the address
      await db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, id))
    })
    const granted = grant(dataDir, 'manager@shop.ru', 'owner')
    expect(granted.code).toBe(0)
    expect(granted.text).toMatch(/manager@shop\.ru is owner now/)
    await withDb(dataDir, async (db) =>
      expect((await db.select().from(staffRoles)).map((r) => [r.userId, r.role])).toEqual([[id, 'owner']]),
    )
  }, 180_000)
})

describe('production SEED_DEMO=1 (finding 2)', () => {
  it('seeds the catalogue without demo staff and logs what it seeded; a demo owner left from a demo is disabled, logged and on the overview', async () => {
    const port = await freePort()
    const prodEnv = {
      PORT: String(port),
      SHOP_ROLE: 'api',
      PUBLIC_URL: `http://localhost:${port}`,
      SEED_DEMO: '1',
      // the declared proxy (finding 7 below); 127.0.0.7 is not
      TRUST_PROXY: '127.0.0.1',
    }
    const prod = await startShopProcess({ env: prodEnv })
    let seededLine: Record<string, unknown> | undefined
    try {
      // the README's demo owner was never made: signing in with its password would only sign up a
      // new, unconfirmed account without a role (sign-in-or-up), so the rows are checked below
      seededLine = logLines(prod).find((l) => String(l.msg).startsWith('Seeded the demo catalogue'))
      // finding 7: a proxy at 127.0.0.7 nobody declared; the declared one at 127.0.0.1 is fine
      for (const from of ['127.0.0.7', '127.0.0.7', '127.0.0.1'])
        expect(await getFrom(prod.url, from, { 'x-forwarded-for': '203.0.113.9' })).toBe(200)
      await waitFor('the undeclared proxy warning', () =>
        logLines(prod).some((l) => String(l.msg).includes('TRUST_PROXY does not list')),
      )
    } finally {
      await prod.stop('SIGKILL')
    }
    const warnings = logLines(prod).filter((l) => String(l.msg).includes('TRUST_PROXY does not list'))
    expect(warnings.map((w) => w.peer)).toEqual(['127.0.0.7'])
    expect(seededLine?.msg).toMatch(/no staff accounts: production/)
    expect(seededLine?.seeded).toMatch(/games, products and codes/)
    await withDb(prod.dataDir, async (db) => {
      expect(await db.select().from(staffRoles)).toEqual([])
      expect(await db.select().from(users).where(eq(users.email, 'owner@igromarket.demo'))).toEqual([])
      // nor the demo's legal texts and contacts (issue 47): the owner publishes the shop's own
      expect(await db.select().from(articles)).toEqual([])
      expect(await db.select().from(contacts)).toEqual([])
      const proxies = await db.select().from(staffAlerts).where(like(staffAlerts.cause, 'undeclared_proxy:%'))
      expect(proxies.map((a) => a.cause)).toEqual(['undeclared_proxy:127.0.0.7'])
      expect(proxies[0]?.detail).toMatch(/TRUST_PROXY/)
    })

    // an earlier demo on another database left its staff; production starts on it
    const demo = await startShopProcess({ env: { SHOP_ROLE: 'api' } })
    await demo.stop('SIGKILL')
    const port2 = await freePort()
    const again = await startShopProcess({
      dataDir: demo.dataDir,
      env: { ...prodEnv, PORT: String(port2), PUBLIC_URL: `http://localhost:${port2}` },
    })
    let warned: Record<string, unknown> | undefined
    try {
      const signIn = await fetch(`${again.url}/api/auth/jwt/create/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@igromarket.demo', password: 'demo-owner-2026' }),
      })
      expect(signIn.status).toBe(401)
      warned = logLines(again).find((l) =>
        String(l.msg).startsWith('demo staff accounts found in production'),
      )
    } finally {
      await again.stop('SIGKILL')
    }
    expect(warned?.accounts).toEqual(['owner@igromarket.demo', 'support@igromarket.demo'])
    await withDb(demo.dataDir, async (db) => {
      expect(await db.select().from(staffRoles)).toEqual([])
      const [alert] = await db.select().from(staffAlerts).where(eq(staffAlerts.cause, 'demo_staff_disabled'))
      expect(alert?.closedAt).toBeNull()
      expect(alert?.detail).toMatch(/owner@igromarket\.demo/)
    })
  }, 240_000)
})
