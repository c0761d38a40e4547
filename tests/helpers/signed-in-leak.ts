// Issue 36: two signed-in buyers load the shop's pages and their `.data` answers at the same time;
// no answer of one may carry the other's email, balance, orders or form keys. Shared by the
// PGlite and PostgreSQL process tests (tests/process/signed-in-leak*.test.ts).
import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'

export interface Buyer {
  email: string
  cookie: string
  orderId: string
  /** The balance as the API writes it ("1234.56"); set by the test so that the two differ. */
  balance: string
}

/** Signs a buyer up through the API (an unknown email signs up) and places one order as them. */
export async function signUpBuyerWithOrder(base: string, name: string): Promise<Omit<Buyer, 'balance'>> {
  const email = `${name}-${randomUUID().slice(0, 8)}@example.com`
  const res = await fetch(`${base}/api/auth/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Leak-test-pass-2026' }),
  })
  expect(res.status).toBe(200)
  const { access, refresh } = (await res.json()) as { access: string; refresh: string }
  const games = (await (await fetch(`${base}/api/games/?limit=100`)).json()) as {
    results: Array<{ id: number; resourcetype: string }>
  }
  const pubg = games.results.find((g) => g.resourcetype === 'PUBGGame')!
  const game = (await (await fetch(`${base}/api/games/${pubg.id}/`)).json()) as {
    products: Array<{ id: number; is_active: boolean }>
  }
  const product = game.products.find((p) => p.is_active)!
  const order = await fetch(`${base}/api/orders/pubg/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
      authorization: `Bearer ${access}`,
    },
    body: JSON.stringify({ products: [{ product_id: product.id, quantity: 1 }], email }),
  })
  const body = (await order.json()) as { id: string }
  expect(order.status).toBe(201)
  return { email, cookie: `access=${access}; refresh=${refresh}`, orderId: body.id }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

/** The pages a returning buyer opens (documents and single-fetch `.data` answers). */
function pathsOf(buyer: Buyer, gameId: number): string[] {
  const pay = `/orders/${buyer.orderId}/pay`
  return [
    `/products/${gameId}`,
    `/products/${gameId}.data`,
    '/',
    '/_root.data',
    '/profile',
    '/profile.data',
    pay,
    `${pay}.data`,
  ]
}

/**
 * Loads every page of both buyers `rounds` times, all of a round at once, and checks each answer:
 * the buyer's own email is on it, and nothing of the other buyer (email, balance, order id, or any
 * id the other buyer was handed, such as a form key) ever is.
 */
export async function expectNoLeakUnderLoad(base: string, a: Buyer, b: Buyer, rounds = 6) {
  const games = (await (await fetch(`${base}/api/games/?limit=100`)).json()) as {
    results: Array<{ id: number; resourcetype: string }>
  }
  const gameId = games.results.find((g) => g.resourcetype === 'PUBGGame')!.id
  // ids the same for everyone (pictures and the like): those a signed-out visitor gets too
  const publicIds = new Set<string>()
  for (const path of pathsOf(a, gameId).filter((p) => !p.includes('/orders/')))
    for (const id of (await (await fetch(`${base}${path}`)).text()).match(UUID) ?? []) publicIds.add(id)

  const handed = new Map<Buyer, Set<string>>([
    [a, new Set()],
    [b, new Set()],
  ])
  const answers: Array<{ buyer: Buyer; path: string; status: number; body: string }> = []
  for (let round = 0; round < rounds; round++) {
    const loads = [a, b].flatMap((buyer) =>
      pathsOf(buyer, gameId).map(async (path) => {
        const res = await fetch(`${base}${path}`, { headers: { cookie: buyer.cookie } })
        answers.push({ buyer, path, status: res.status, body: await res.text() })
      }),
    )
    await Promise.all(loads)
  }
  for (const { buyer, body } of answers)
    for (const id of body.match(UUID) ?? []) if (!publicIds.has(id)) handed.get(buyer)!.add(id)

  expect(answers).toHaveLength(rounds * 2 * pathsOf(a, gameId).length)
  for (const { buyer, path, status, body } of answers) {
    const other = buyer === a ? b : a
    const where = `${buyer.email} ${path}`
    expect(status, where).toBe(200)
    expect(body.includes(buyer.email), `${where}: own email`).toBe(true)
    expect(body.includes(other.email), `${where}: other's email`).toBe(false)
    expect(body.includes(other.balance), `${where}: other's balance`).toBe(false)
    expect(body.includes(other.orderId), `${where}: other's order`).toBe(false)
    const leaked = (body.match(UUID) ?? []).filter((id) => handed.get(other)!.has(id))
    expect(leaked, `${where}: ids handed to the other buyer`).toEqual([])
  }
  // each buyer's own balance and order reach their profile
  for (const buyer of [a, b]) {
    const profile = answers.find((x) => x.buyer === buyer && x.path === '/profile.data')!
    expect(profile.body).toContain(buyer.balance)
    expect(profile.body).toContain(buyer.orderId)
  }
  // every rendered order form had a key of its own
  const keys = answers.flatMap(({ body }) =>
    [...body.matchAll(/name="idempotency_key" value="([^"]+)"/g)].map((m) => m[1]),
  )
  expect(keys.length).toBeGreaterThanOrEqual(rounds * 2)
  expect(new Set(keys).size).toBe(keys.length)
}
