import { randomUUID } from 'node:crypto'

export interface OrderLoadResult {
  clients: number
  orders: number
  seconds: number
  ordersPerSecond: number
  errors: number
  ids: string[]
  keys: string[]
}

/** The first active PUBG product with a stock, found through the public catalogue. */
export async function findPubgProduct(base: string): Promise<{ gameId: number; productId: number }> {
  const list = (await (await fetch(`${base}/api/games/?limit=100`)).json()) as {
    results: Array<{ id: number; resourcetype: string }>
  }
  const game = list.results.find((g) => g.resourcetype === 'PUBGGame')
  if (!game) throw new Error('no PUBGGame in the catalogue')
  const detail = (await (await fetch(`${base}/api/games/${game.id}/`)).json()) as {
    products: Array<{ id: number; is_active: boolean; min_quantity: number }>
  }
  const product = detail.products.find((p) => p.is_active && p.min_quantity <= 1)
  if (!product) throw new Error('no orderable PUBG product')
  return { gameId: game.id, productId: product.id }
}

/** `clients` concurrent guests each place orders one after another until `total` are placed. */
export async function orderLoad(base: string, clients: number, total: number): Promise<OrderLoadResult> {
  const { productId } = await findPubgProduct(base)
  let next = 0
  let errors = 0
  const ids: string[] = []
  const keys: string[] = []
  const started = performance.now()
  const client = async () => {
    while (next < total) {
      next++
      const key = randomUUID()
      const res = await fetch(`${base}/api/orders/pubg/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({
          products: [{ product_id: productId, quantity: 1 }],
          email: 'bench@example.com',
        }),
      })
      const body = (await res.json()) as { id?: string }
      if (res.status >= 200 && res.status < 300 && body.id) {
        ids.push(body.id)
        keys.push(key)
      } else errors++
    }
  }
  await Promise.all(Array.from({ length: clients }, client))
  const seconds = (performance.now() - started) / 1000
  return {
    clients,
    orders: ids.length,
    seconds,
    ordersPerSecond: Math.round(ids.length / seconds),
    errors,
    ids,
    keys,
  }
}
