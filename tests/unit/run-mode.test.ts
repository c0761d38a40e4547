// Demo or production, never in between (issue 19): the mode follows DATABASE_URL / PUBLIC_URL, and
// production refuses unsafe settings naming the variable.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadApiConfig, runMode } from '#api/env'
import { loadServerEnv } from '../../server/env'

const SECRET = 's'.repeat(40)
const dataDir = () => mkdtempSync(path.join(tmpdir(), 'run-mode-'))
const api = (env: Record<string, string>) =>
  loadApiConfig(env as NodeJS.ProcessEnv, { dataDir: dataDir(), port: 3000 })

describe('run modes', () => {
  it('demo without DATABASE_URL and PUBLIC_URL: sandbox, seed and the strip on, a generated secret', () => {
    expect(runMode({})).toBe('demo')
    const config = api({})
    expect(config).toMatchObject({ demo: true, sandboxPayments: true, demoStrip: true })
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32)
    expect(config.publicUrl).toBe('http://localhost:3000')
    expect(loadServerEnv({}).seedDemo).toBe(true)
    expect(loadServerEnv({ SEED_DEMO: '0' }).seedDemo).toBe(false)
  })

  it('production: sandbox payments, demo seed and the strip off unless asked for', () => {
    const env = { DATABASE_URL: 'postgres://db/shop', PUBLIC_URL: 'https://shop.example', JWT_SECRET: SECRET }
    expect(runMode(env)).toBe('production')
    expect(api(env)).toMatchObject({ demo: false, sandboxPayments: false, demoStrip: false })
    expect(loadServerEnv(env).seedDemo).toBe(false)
    // asked for: sandbox payments bring the strip along, so nobody takes them for real ones
    expect(api({ ...env, SANDBOX_PAYMENTS: '1' })).toMatchObject({ sandboxPayments: true, demoStrip: true })
    expect(loadServerEnv({ ...env, SEED_DEMO: '1' }).seedDemo).toBe(true)
  })

  it('production refuses to start without a JWT_SECRET of 32 characters, naming it', () => {
    const withDatabase: Record<string, string> = {
      DATABASE_URL: 'postgres://db/shop',
      PUBLIC_URL: 'https://shop.example',
    }
    for (const env of [withDatabase, { PUBLIC_URL: 'https://shop.example' }]) {
      expect(() => loadServerEnv(env)).toThrow(/JWT_SECRET: required outside demo mode/)
      expect(() => api(env)).toThrow(/JWT_SECRET: required outside demo mode/)
    }
    expect(() => api({ PUBLIC_URL: 'https://shop.example', JWT_SECRET: 'short' })).toThrow(
      /JWT_SECRET must be at least 32 characters/,
    )
  })

  it('production refuses a PUBLIC_URL that is missing or not https (localhost excepted)', () => {
    const base = { DATABASE_URL: 'postgres://db/shop', JWT_SECRET: SECRET }
    expect(() => loadServerEnv(base)).toThrow(/PUBLIC_URL: required outside demo mode/)
    expect(() => loadServerEnv({ ...base, PUBLIC_URL: 'http://shop.example' })).toThrow(
      /PUBLIC_URL: must be https/,
    )
    for (const local of ['http://localhost:8080', 'http://127.0.0.1:3000', 'http://[::1]:3000'])
      expect(loadServerEnv({ ...base, PUBLIC_URL: local }).seedDemo).toBe(false)
  })

  it('production refuses the e2e suite’s test seams (E2E=1); demo mode allows them', () => {
    const env = { DATABASE_URL: 'postgres://db/shop', PUBLIC_URL: 'https://shop.example', JWT_SECRET: SECRET }
    expect(() => loadServerEnv({ ...env, E2E: '1' })).toThrow(/E2E: the test suite setting E2E=1 is refused/)
    expect(() => api({ ...env, E2E: '1' })).toThrow(/E2E: the test suite setting E2E=1 is refused/)
    expect(api({ E2E: '1' }).demo).toBe(true)
    expect(api({ ...env, E2E: '0' }).demo).toBe(false)
  })
})
