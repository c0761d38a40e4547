// Housekeeping (issue 19): expired refresh tokens, old rate-limit counters, stale social sign-in
// states and old idempotency keys are swept by recurring jobs on the job queue; live rows stay.
import { randomUUID } from 'node:crypto'
import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobs, oauthStates, orders, rateLimits, refreshTokens } from '#api/db/schema'
import { JOB_HANDLERS, RECURRING_JOBS } from '#api/jobs/handlers'
import { HOUSEKEEPING_RECURRING } from '#api/jobs/housekeeping'
import { enqueue } from '#api/jobs/queue'
import { createJobWorker } from '#api/jobs/worker'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi()
})
afterAll(() => api?.close())

const ago = (hours: number) => new Date(Date.now() - hours * 3600_000)

async function standoffOrder(key: string): Promise<string> {
  const game = await api.call<{ products: { id: number }[] }>('GET', '/api/games/3/')
  const res = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
    headers: { 'idempotency-key': key },
    body: {
      products: [{ product_id: game.body.products[0]?.id, quantity: 1 }],
      email: 'sweep@example.com',
      game_account_id: '12345678',
      surplus: '0.10',
    },
  })
  expect(res.status).toBe(201)
  return res.body.id
}

async function runSweeps() {
  await api.db.delete(jobs).where(sql`${jobs.kind} like 'sweep.%'`)
  for (const { kind } of HOUSEKEEPING_RECURRING) await enqueue(api.db, { kind })
  const worker = createJobWorker({ db: api.db, config: api.config, fetch }, { handlers: JOB_HANDLERS })
  await worker.runDue()
  const done = await api.db.select().from(jobs).where(sql`${jobs.kind} like 'sweep.%'`)
  expect(done.map((j) => j.status)).toEqual(HOUSEKEEPING_RECURRING.map(() => 'done'))
}

describe('housekeeping sweeps', () => {
  it('are recurring jobs of the queue', () => {
    for (const sweep of HOUSEKEEPING_RECURRING) {
      expect(RECURRING_JOBS).toContainEqual(sweep)
      expect(JOB_HANDLERS[sweep.kind]).toBeTypeOf('function')
    }
  })

  it('remove what expired and keep what still counts', async () => {
    // refresh tokens: two sign-ins, one of them long expired
    const [a, b] = [`s-${randomUUID()}@example.com`, `s-${randomUUID()}@example.com`]
    for (const email of [a, b])
      expect(
        (await api.call('POST', '/api/auth/jwt/create/', { body: { email, password: 'long-enough-1' } }))
          .status,
      ).toBe(200)
    const tokens = await api.db.select().from(refreshTokens)
    const expired = tokens[0]!
    await api.db
      .update(refreshTokens)
      .set({ expiresAt: ago(1) })
      .where(eq(refreshTokens.id, expired.id))

    await api.db.insert(rateLimits).values([
      { key: 'sweep:old', count: 5, windowStart: ago(48) },
      { key: 'sweep:fresh', count: 5, windowStart: ago(0.1) },
    ])
    await api.db.insert(oauthStates).values([
      { state: 'sweep-old', provider: 'yandex', redirectUri: 'http://localhost/x', created: ago(2) },
      { state: 'sweep-fresh', provider: 'yandex', redirectUri: 'http://localhost/x', created: new Date() },
    ])
    const oldOrder = await standoffOrder('sweep-key-old')
    const newOrder = await standoffOrder('sweep-key-new')
    await api.db
      .update(orders)
      .set({ created: ago(48) })
      .where(eq(orders.id, oldOrder))

    await runSweeps()

    const left = await api.db.select({ id: refreshTokens.id }).from(refreshTokens)
    expect(left.map((t) => t.id)).not.toContain(expired.id)
    expect(left).toHaveLength(tokens.length - 1)
    const limits = await api.db
      .select()
      .from(rateLimits)
      .where(inArray(rateLimits.key, ['sweep:old', 'sweep:fresh']))
    expect(limits.map((r) => r.key)).toEqual(['sweep:fresh'])
    const states = await api.db
      .select()
      .from(oauthStates)
      .where(inArray(oauthStates.state, ['sweep-old', 'sweep-fresh']))
    expect(states.map((s) => s.state)).toEqual(['sweep-fresh'])
    const keys = await api.db
      .select({ id: orders.id, key: orders.idempotencyKey })
      .from(orders)
      .where(inArray(orders.id, [oldOrder, newOrder]))
    expect(Object.fromEntries(keys.map((k) => [k.id, k.key]))).toEqual({
      [oldOrder]: null,
      [newOrder]: 'sweep-key-new',
    })
    // the forgotten key may be used again: a new order, not the old one replayed
    expect(await standoffOrder('sweep-key-old')).not.toBe(oldOrder)
  })
})
