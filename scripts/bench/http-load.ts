import autocannon from 'autocannon'

export interface LoadResult {
  label: string
  rps: number
  p50: number
  p99: number
  errors: number
  non2xx: number
  /** CPU time (user + system) the measured process spent per request, ms; when asked for. */
  cpuMsPerRequest?: number
}

/**
 * `connections` clients hammer one URL for `seconds`; mean requests/s and p50/p99 latency (ms).
 * `cpuMs` reads the server's CPU time so far (ms): given, the run reports CPU per request.
 */
export async function measure(
  label: string,
  url: string,
  seconds: number,
  connections = 10,
  headers: Record<string, string> = {},
  cpuMs?: () => number,
): Promise<LoadResult> {
  await autocannon({ url, connections, duration: 1, headers }) // warm-up
  const cpuBefore = cpuMs?.()
  const r = await autocannon({ url, connections, duration: seconds, headers })
  const cpuAfter = cpuMs?.()
  const total = r.requests.total
  return {
    label,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    ...(cpuBefore !== undefined && cpuAfter !== undefined && total > 0
      ? { cpuMsPerRequest: (cpuAfter - cpuBefore) / total }
      : {}),
  }
}
