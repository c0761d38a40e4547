// A TCP proxy between the shop and PostgreSQL that a test can make misbehave: add latency, swallow
// all traffic (a silent network: connections stay open, nothing arrives), or cut every connection.
import { createServer, type Server, type Socket, connect } from 'node:net'

export interface FaultProxy {
  port: number
  /** `url` (postgres://…) with its host and port replaced by the proxy's. */
  via(url: string): string
  /** Each chunk, in both directions, is held this long (order kept). */
  setLatency(ms: number): void
  /** Silent: nothing passes any more, connections stay open, new ones are accepted and ignored. */
  setSilent(silent: boolean): void
  /** Ends every connection at once (a reset, as a crash or failover does). */
  cutAll(): void
  /** Connections open now. */
  open(): number
  close(): Promise<void>
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const pairs = new Set<[Socket, Socket]>()
  let latencyMs = 0
  let silent = false

  const forward = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => {
      if (silent) return
      if (latencyMs > 0) setTimeout(() => to.writable && to.write(chunk), latencyMs)
      else to.write(chunk)
    })
  }
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host)
    const pair: [Socket, Socket] = [client, upstream]
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end).on('close', end)
    upstream.on('error', end).on('close', end)
    forward(client, upstream)
    forward(upstream, client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  const cutAll = () => {
    for (const [a, b] of pairs) {
      a.destroy()
      b.destroy()
    }
    pairs.clear()
  }
  return {
    port,
    via(url) {
      const u = new URL(url)
      u.hostname = '127.0.0.1'
      u.port = String(port)
      return u.toString()
    },
    setLatency(ms) {
      latencyMs = ms
    },
    setSilent(value) {
      // traffic swallowed while silent left those sessions half-way: they cannot be resumed
      if (silent && !value) cutAll()
      silent = value
    },
    cutAll,
    open: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        cutAll()
        server.close(() => resolve())
      }),
  }
}
