// Issue 44, finding 7: every unauthenticated POST to the Payselection return wrote an error-level
// stack trace, Payselection configured or not (fuzzing wrote 173). Strangers now cause at most one
// thinned warn line, never an error line.
import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { log } from '#api/lib/log'
import { warnSparingly } from '#api/lib/log-sparingly'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock } from './payments-fixtures'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi()
})
afterAll(() => api?.close())
afterEach(() => vi.restoreAllMocks())

function spies() {
  return {
    warn: vi.spyOn(log, 'warn'),
    error: vi.spyOn(log, 'error'),
    consoleError: vi.spyOn(console, 'error').mockImplementation(() => {}),
  }
}

describe('the Payselection return posted by strangers', () => {
  it('50 posts for unknown and real orders, Payselection not configured: no error line, no stack', async () => {
    const s = spies()
    const { product } = await makePubgStock(api, { codes: 2 })
    const real = await createPubgOrder(api, product.id)
    for (let i = 0; i < 50; i++) {
      const id = i % 2 ? randomUUID() : real
      const res = await api.app.request(`/api/payments/payselection/term/${id}/`, { method: 'POST' })
      expect(res.status).toBe(303)
    }
    expect(s.error).not.toHaveBeenCalled()
    expect(s.consoleError).not.toHaveBeenCalled()
    expect(s.warn.mock.calls.length).toBeLessThanOrEqual(1)
  })

  it('a malformed order id is a 400 from the schema, not a log line', async () => {
    const s = spies()
    const res = await api.app.request('/api/payments/payselection/term/not-a-uuid/', { method: 'POST' })
    expect(res.status).toBe(400)
    expect(s.error).not.toHaveBeenCalled()
    expect(s.consoleError).not.toHaveBeenCalled()
  })
})

describe('warnSparingly', () => {
  it('one line per key and minute, the message without a stack, then how many were left out', () => {
    const warn = vi.spyOn(log, 'warn')
    const err = new Error('provider down')
    for (let i = 0; i < 100; i++) warnSparingly('k-test', 'failed', err, 1_000 + i)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toEqual({ key: 'k-test', reason: 'provider down' })
    warnSparingly('k-test', 'failed', err, 1_000 + 61_000)
    expect(warn).toHaveBeenCalledTimes(2)
    expect(warn.mock.calls[1]![0]).toMatchObject({ skipped: 99 })
    warnSparingly('other', 'failed', err, 1_000)
    expect(warn).toHaveBeenCalledTimes(3)
  })
})
