import autocannon from 'autocannon'

export interface LoadResult {
  label: string
  rps: number
  p99: number
  errors: number
  non2xx: number
}

/** `connections` clients hammer one URL for `seconds`; mean requests/s and p99 latency (ms). */
export async function measure(
  label: string,
  url: string,
  seconds: number,
  connections = 10,
  headers: Record<string, string> = {},
): Promise<LoadResult> {
  await autocannon({ url, connections, duration: 1, headers }) // warm-up
  const r = await autocannon({ url, connections, duration: seconds, headers })
  return {
    label,
    rps: Math.round(r.requests.average),
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  }
}
