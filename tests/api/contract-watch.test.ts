// Issue 44: the e2e run's contract watch (api/src/lib/contract-watch.ts) judges every API exchange
// of a demo process started with E2E=1 against the contract and writes what it finds for the e2e
// teardown; it is never mounted anywhere else, production above all.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadApiConfig } from '#api/env'
import { CONTRACT_WATCH_FILE, type WatchLine } from '../../shared/contract-watch'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

const opened: TestApi[] = []
afterAll(async () => {
  for (const api of opened) await api.close()
})

const readLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as WatchLine)

describe('the e2e contract watch', () => {
  it('in the E2E demo: counts every exchange and writes an answer off the contract at once', async () => {
    const api = await createTestApi({ env: { E2E: '1' }, contract: false })
    opened.push(api)
    const file = api.config.contractWatchFile!
    expect(path.basename(file)).toBe(CONTRACT_WATCH_FILE)
    // a route the contract does not have, answering 200: what a drifted server would do
    api.app.get('/api/watch-probe/', (c) => c.json({ drifted: true }, 200))
    expect((await api.call('GET', '/api/games/')).status).toBe(200)
    expect((await api.call('GET', '/api/games/?limit=0')).status).toBe(400)
    expect((await api.call('GET', '/api/watch-probe/')).status).toBe(200)
    await new Promise((r) => setTimeout(r, 1300))
    const lines = readLines(file)
    const problems = lines.filter((l) => l.kind === 'problem')
    expect(problems).toEqual([
      expect.objectContaining({ problem: 'answer', method: 'GET', url: '/api/watch-probe/', status: 200 }),
    ])
    const counts = lines.filter((l) => l.kind === 'counts').at(-1)
    expect(counts).toMatchObject({ pid: process.pid, requests: 3, offContract: 1 })
    expect(counts?.kind === 'counts' && counts.operations).toContain('GET /api/games/')
  })

  it('never in production, nor in a demo without E2E=1; production refuses E2E=1', async () => {
    const api = await createTestApi({ env: { PUBLIC_URL: 'https://shop.example', SANDBOX_PAYMENTS: '0' } })
    opened.push(api)
    expect(api.config.contractWatchFile).toBeNull()
    expect((await api.call('GET', '/api/games/')).status).toBe(200)
    const dataDir = path.dirname(api.config.uploadDir)
    await new Promise((r) => setTimeout(r, 1100))
    expect(existsSync(path.join(dataDir, CONTRACT_WATCH_FILE))).toBe(false)

    const config = (env: Record<string, string>) =>
      loadApiConfig(env as NodeJS.ProcessEnv, {
        dataDir: mkdtempSync(path.join(tmpdir(), 'watch-')),
        port: 3000,
      })
    expect(config({}).contractWatchFile).toBeNull()
    expect(config({ E2E: '1' }).contractWatchFile).toMatch(/contract-watch\.jsonl$/)
    const production = { PUBLIC_URL: 'https://shop.example', JWT_SECRET: 's'.repeat(40) }
    expect(config(production).contractWatchFile).toBeNull()
    expect(() => config({ ...production, E2E: '1' })).toThrow(/E2E/)
  })
})
