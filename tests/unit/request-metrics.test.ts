// Request durations by route (issue 19's metrics): ids and tokens fold into ':id', so the series stay
// few however many paths clients ask for; the labels stay right for paths seen before.
import { describe, expect, it } from 'vitest'
import { observeRequest, registry } from '../../server/metrics'

async function countOf(route: string, status = '200'): Promise<number> {
  const metric = await registry.getSingleMetric('http_request_duration_seconds')!.get()
  const row = (metric.values as Array<(typeof metric.values)[number] & { metricName?: string }>).find(
    (v) =>
      v.metricName === 'http_request_duration_seconds_count' &&
      v.labels.route === route &&
      v.labels.status === status,
  )
  return row?.value ?? 0
}

describe('request durations by route', () => {
  it('folds ids, UUIDs and long segments into one route, and counts each request once', async () => {
    observeRequest('GET', '/api/games/1/', 200, 0.001)
    observeRequest('GET', '/api/games/1/', 200, 0.001)
    observeRequest('GET', '/api/games/27/', 200, 0.002)
    observeRequest('GET', '/orders/3f1c2a9e-8d1b-4c39-9a57-2f0c6b1d4e11/pay', 200, 0.01)
    observeRequest('GET', `/media/${'x'.repeat(40)}.png`, 200, 0.01)
    observeRequest('GET', `/lookup/${'t'.repeat(300)}`, 200, 0.01)
    observeRequest('GET', '/no/such/page', 404, 0.01)
    expect(await countOf('/api/games/:id/')).toBe(3)
    expect(await countOf('/orders/:id/pay')).toBe(1)
    expect(await countOf('/media/*')).toBe(1)
    expect(await countOf('/lookup/:id')).toBe(1)
    expect(await countOf('unmatched', '404')).toBe(1)
  })

  it('keeps the right route for a path seen before, after thousands of others', async () => {
    const before = await countOf('/info/:id')
    observeRequest('GET', '/info/contacts', 200, 0.001)
    for (let i = 0; i < 5000; i++) observeRequest('GET', `/info/${i}`, 200, 0.001)
    observeRequest('GET', '/info/contacts', 200, 0.001)
    expect(await countOf('/info/contacts')).toBe(2)
    expect(await countOf('/info/:id')).toBe(before + 5000)
  })
})
