// Guest PUBG orders as a load for process tests: each carries its own Idempotency-Key, so a test can
// count afterwards which orders exist (none lost, none doubled) whatever the network did.
import { randomUUID } from 'node:crypto'

export interface OrderMaker {
  /** POSTs one PUBG guest order with `key` (a new key when omitted). */
  create(base: string, key?: string, signal?: AbortSignal): Promise<Response>
  /** The buyer's email on every order (to find them in the database). */
  email: string
}

export async function prepareOrders(base: string): Promise<OrderMaker> {
  const list = (await (await fetch(`${base}/api/games/?limit=100`)).json()) as {
    results: Array<{ id: number; resourcetype: string; is_auth_required: boolean }>
  }
  // PUBG: identical Standoff orders would meet the 24 surpluses of one open listing price (issue
  // 31), and creating an order holds no codes (they are held at the payment start)
  const pubg = list.results.find((g) => g.resourcetype === 'PUBGGame' && !g.is_auth_required)
  if (!pubg) throw new Error('no PUBG game: start the shop with SEED_DEMO=1')
  const game = (await (await fetch(`${base}/api/games/${pubg.id}/`)).json()) as {
    products: { id: number }[]
  }
  const productId = game.products[0]?.id
  const email = `load-${randomUUID().slice(0, 8)}@example.com`
  const body = JSON.stringify({ products: [{ product_id: productId, quantity: 1 }], email })
  return {
    email,
    create: (target, key = randomUUID(), signal) =>
      fetch(`${target}/api/orders/pubg/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body,
        signal: signal ?? AbortSignal.timeout(30_000),
      }),
  }
}

export interface Outcome {
  at: number
  /** HTTP status, or 0 for a network error (reset, refused, timeout). */
  status: number
  retryAfter: string | null
  code?: string
  /** What the network said when there was no answer (ECONNRESET, UND_ERR_SOCKET, …). */
  error?: string
  key: string
}

/**
 * Runs `clients` loops that create orders until `stop()` says so; returns every outcome in order.
 * A failed request is not retried here: the caller decides what to do with the keys.
 */
export async function orderLoad(
  target: string,
  maker: OrderMaker,
  opts: { clients: number; stop: (outcomes: Outcome[]) => boolean },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  const client = async () => {
    while (!opts.stop(outcomes)) {
      const key = randomUUID()
      try {
        const r = await maker.create(target, key)
        const text = await r.text()
        let code: string | undefined
        try {
          code = (JSON.parse(text) as { code?: string }).code
        } catch {}
        outcomes.push({
          at: Date.now(),
          status: r.status,
          retryAfter: r.headers.get('retry-after'),
          code,
          key,
        })
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause
        const error = cause?.code ?? cause?.message ?? (e as Error).message
        outcomes.push({ at: Date.now(), status: 0, retryAfter: null, error, key })
        await new Promise((r) => setTimeout(r, 50))
      }
    }
  }
  await Promise.all(Array.from({ length: opts.clients }, client))
  return outcomes
}
