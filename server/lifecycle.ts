// One worker's life after start-up: whether it is ready for traffic, and how it drains on SIGTERM.
import type { Server } from 'node:http'
import type { Http2SecureServer, Http2Server } from 'node:http2'

/** Exit code of a process that cannot start (bad settings, no database): the supervisor gives up. */
export const EXIT_CANNOT_START = 78

/** What the health route reads: false from the first moment of a shutdown. */
export interface Readiness {
  draining: boolean
}

export function createReadiness(): Readiness {
  return { draining: false }
}

/**
 * Counts the requests in flight on `server` and, once draining, asks each response (in flight or
 * new) to close its connection, so keep-alive clients and balancers reconnect elsewhere.
 */
export function trackRequests(server: Server | Http2Server | Http2SecureServer, readiness: Readiness) {
  const inFlight = new Set<import('node:http').ServerResponse>()
  ;(server as Server).on('request', (_req, res) => {
    inFlight.add(res)
    if (readiness.draining) res.shouldKeepAlive = false
    res.once('close', () => inFlight.delete(res))
  })
  return {
    count: () => inFlight.size,
    /** The responses already on their way get `Connection: close` too (unless their headers left). */
    closeAfterResponse() {
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false
    },
    /** Resolves when no request is in flight, or after `timeoutMs` (false then). */
    async settled(timeoutMs: number): Promise<boolean> {
      const deadline = Date.now() + timeoutMs
      while (inFlight.size > 0) {
        if (Date.now() >= deadline) return false
        await new Promise((r) => setTimeout(r, 25))
      }
      return true
    },
  }
}
