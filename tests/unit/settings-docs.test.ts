// Issue 48: the settings an owner reads about (.env.example, the README's tables generated from it)
// and the settings the code reads are one list: a setting added to the code without its line in
// .env.example, a line left for a setting the code no longer reads, a default that differs, or a
// README not regenerated fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ENV_EXAMPLE, parseEnvExample, README, readmeWithSettings } from '../../scripts/settings-docs'
import { storefrontSettingsSchema } from '#app/env.server'
import { apiSettingsSchema, SOCIAL_PROVIDERS } from '#api/env'
import { serverSettingsSchema } from '../../server/env'

const root = fileURLToPath(new URL('../..', import.meta.url))
/** Read by the code but not an owner's setting: test seams, build internals, the file's own name. */
const NOT_SETTINGS = new Set([
  'NODE_ENV', // npm start sets production
  'E2E', // the e2e suite's seams, refused outside the demo
  'SSR', // Vite's import.meta.env.SSR
  'SKIP_BUILD', // the test suites start a shop without the build check
  'LATEST_VERSION_FILE', // the version-check test's file
  'ENV_FILE', // names the settings file itself (README, «Configuration»)
  'SOCIAL_STEAM_OPENID_URL', // provider endpoints, overridden only to reach local fakes
  'SOCIAL_TELEGRAM_AUTH_URL',
])
const OAUTH = SOCIAL_PROVIDERS.filter((p) => p !== 'steam' && p !== 'telegram')
const fakeEndpoint = /^SOCIAL_[A-Z_]+_(AUTHORIZE|TOKEN|USERINFO)_URL$/

function sourceFiles(p: string): string[] {
  if (statSync(p).isDirectory()) return readdirSync(p).flatMap((f) => sourceFiles(path.join(p, f)))
  return /\.(ts|tsx|mjs)$/.test(p) ? [p] : []
}

/** Every environment variable the running shop and the owner's scripts read. */
function namesTheCodeReads(): Set<string> {
  const names = new Set<string>()
  for (const shape of [apiSettingsSchema.shape, serverSettingsSchema.shape, storefrontSettingsSchema.shape])
    for (const k of Object.keys(shape)) names.add(k)
  const files = ['server', 'api/src', 'app', 'shared', 'scripts/start.mjs', 'scripts/env-file.mjs'].flatMap(
    (d) => sourceFiles(path.join(root, d)),
  )
  for (const f of files) {
    const text = readFileSync(f, 'utf8')
    for (const re of [/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)/g, /\b(?:limit|url)\('([A-Z][A-Z0-9_]+)'/g])
      for (const m of text.matchAll(re)) names.add(m[1]!)
  }
  for (const p of OAUTH)
    for (const part of ['CLIENT_ID', 'CLIENT_SECRET']) names.add(`SOCIAL_${p.toUpperCase()}_${part}`)
  return new Set([...names].filter((n) => !NOT_SETTINGS.has(n) && !fakeEndpoint.test(n)))
}

/** Defaults the schemas declare, as .env.example writes them. */
function schemaDefaults(): Map<string, string> {
  const out = new Map<string, string>()
  for (const shape of [apiSettingsSchema.shape, serverSettingsSchema.shape, storefrontSettingsSchema.shape])
    for (const [name, field] of Object.entries(shape)) {
      const r = (field as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(
        undefined,
      )
      if (r.success && r.data !== undefined)
        out.set(name, Array.isArray(r.data) ? r.data.join(',') : String(r.data))
    }
  // mail's own reader (services/mail/config.ts): limit('NAME', default)
  const mail = readFileSync(path.join(root, 'api/src/services/mail/config.ts'), 'utf8')
  for (const m of mail.matchAll(/\blimit\('([A-Z_]+)', (\d+)\)/g)) out.set(m[1]!, m[2]!)
  return out
}

const settings = parseEnvExample(readFileSync(ENV_EXAMPLE, 'utf8'))

describe('.env.example, the README and the code list the same settings', () => {
  it('every setting the code reads is in .env.example, and nothing else is', () => {
    const read = namesTheCodeReads()
    const listed = new Set(settings.map((s) => s.name))
    expect(
      [...read].filter((n) => !listed.has(n)).sort(),
      'read by the code, missing from .env.example',
    ).toEqual([])
    expect([...listed].filter((n) => !read.has(n)).sort(), 'in .env.example, read by no code').toEqual([])
  })

  it('each default in .env.example is the one the code applies', () => {
    const defaults = schemaDefaults()
    const wrong = settings
      .filter((s) => !s.active && defaults.has(s.name) && defaults.get(s.name) !== s.value)
      .map((s) => `${s.name}: .env.example says "${s.value}", the code "${defaults.get(s.name)}"`)
    expect(wrong).toEqual([])
    const missing = settings
      .filter((s) => !!defaults.get(s.name) && !s.active && s.value === '')
      .map((s) => s.name)
    expect(missing, 'a default the code has but .env.example leaves blank').toEqual([])
  })

  it('a copied .env.example changes nothing until its «Going live» lines are filled in', () => {
    const active = settings.filter((s) => s.active)
    expect(active.map((s) => s.name)).toEqual(['PUBLIC_URL', 'JWT_SECRET', 'ADMIN_EMAILS'])
    expect(active.every((s) => s.value === '')).toBe(true)
  })

  it("the README's configuration tables are the ones generated from .env.example", () => {
    const readme = readFileSync(README, 'utf8')
    expect(readme, 'run npm run docs:settings').toBe(
      readmeWithSettings(readme, readFileSync(ENV_EXAMPLE, 'utf8')),
    )
    for (const s of settings) expect(readme).toMatch(new RegExp(`^\\| \`${s.name}\` +\\|`, 'm'))
  })

  it('a setting without its comment line is refused', () => {
    expect(() => parseEnvExample('## Section\nPORT=3000\n')).toThrow('PORT has no comment line')
    expect(() => parseEnvExample('## S\n# a\n# A=1\n# b\n# A=2\n')).toThrow('A is listed twice')
  })
})
