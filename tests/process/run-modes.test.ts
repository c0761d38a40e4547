// Demo or production (issue 19), as real processes: production refuses to start without
// JWT_SECRET (before touching the database), and keeps sandbox payments off unless asked for.
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { freePort, startShopProcess } from '#tests/helpers/shop-process'

interface ActiveCountry {
  method_groups: { methods: { name: string; is_active: boolean }[] }[]
}

async function sandboxMethods(url: string) {
  const res = await fetch(`${url}/api/payments/countries/active/`)
  expect(res.status).toBe(200)
  const body = (await res.json()) as ActiveCountry
  return body.method_groups.flatMap((g) => g.methods).filter((m) => m.name.startsWith('sandbox'))
}

describe('run modes of a real shop process', () => {
  it('production without JWT_SECRET: start-up refused, naming the variable, database untouched', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-prod-'))
    const started = startShopProcess({ dataDir, env: { PUBLIC_URL: 'https://shop.example', JWT_SECRET: '' } })
    await expect(started).rejects.toThrow(/JWT_SECRET: required outside demo mode/)
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false)
    expect(existsSync(path.join(dataDir, 'jwt-secret'))).toBe(false)
  }, 90_000)

  it('production with a plain-http public address: refused, naming PUBLIC_URL', async () => {
    await expect(startShopProcess({ env: { PUBLIC_URL: 'http://shop.example' } })).rejects.toThrow(
      /PUBLIC_URL: must be https/,
    )
  }, 90_000)

  it('production: sandbox payments off (the demo catalogue asked for), on in the demo', async () => {
    const port = await freePort()
    const prod = await startShopProcess({
      env: { PORT: String(port), SHOP_ROLE: 'api', PUBLIC_URL: `http://localhost:${port}`, SEED_DEMO: '1' },
    })
    try {
      const methods = await sandboxMethods(prod.url)
      expect(methods.length).toBeGreaterThan(0)
      expect(methods.every((m) => !m.is_active)).toBe(true)
    } finally {
      await prod.stop('SIGKILL')
    }
    // the same database in demo mode (no PUBLIC_URL): the sandbox takes payments
    const demo = await startShopProcess({ dataDir: prod.dataDir, env: { SHOP_ROLE: 'api' } })
    try {
      expect((await sandboxMethods(demo.url)).some((m) => m.is_active)).toBe(true)
    } finally {
      await demo.stop('SIGKILL')
    }
  }, 180_000)
})
