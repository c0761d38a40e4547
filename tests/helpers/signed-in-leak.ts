// Issue 36: two signed-in buyers load the shop's pages and their `.data` answers at the same time;
// no answer of one may carry the other's email, balance, orders or form keys, whether the page was
// filled from a template (decision 098), served from the buyer's kept copy (decision 103) or rendered. Shared by the
// PGlite and PostgreSQL process tests (tests/process/signed-in-leak*.test.ts).
import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'

export interface Buyer {
  email: string
  /** Set at sign-up, different for each buyer: shown in the header of every page. */
  nickname: string
  cookie: string
  orderId: string
  /** The balance as the API writes it ("1234.56"); set by the test so that the two differ. */
  balance: string
}

/** Signs a buyer up through the API (an unknown email signs up) and places one order as them. */
export async function signUpBuyerWithOrder(
  base: string,
  name: string,
  nickname_?: string,
): Promise<Omit<Buyer, 'balance'>> {
  const email = `${name}-${randomUUID().slice(0, 8)}@example.com`
  const res = await fetch(`${base}/api/auth/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Leak-test-pass-2026' }),
  })
  expect(res.status).toBe(200)
  const { access, refresh } = (await res.json()) as { access: string; refresh: string }
  const nickname = nickname_ ?? `${name} ${randomUUID().slice(0, 6)}`
  const named = await fetch(`${base}/api/auth/profile/`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
    body: JSON.stringify({ nickname }),
  })
  expect(named.status).toBe(200)
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
  return { email, nickname, cookie: `access=${access}; refresh=${refresh}`, orderId: body.id }
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
  const answers: Array<{
    buyer: Buyer
    path: string
    status: number
    body: string
    fill: boolean
    kept: boolean
  }> = []
  for (let round = 0; round < rounds; round++) {
    const loads = [a, b].flatMap((buyer) =>
      pathsOf(buyer, gameId).map(async (path) => {
        const res = await fetch(`${base}${path}`, { headers: { cookie: buyer.cookie } })
        const fill = res.headers.get('x-page-cache') === 'fill'
        const kept = res.headers.get('x-page-cache') === 'hit'
        answers.push({ buyer, path, status: res.status, body: await res.text(), fill, kept })
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
    expect(body.includes(other.nickname), `${where}: other's name`).toBe(false)
    expect(body.includes(buyer.nickname), `${where}: own name`).toBe(true)
    const leaked = (body.match(UUID) ?? []).filter((id) => handed.get(other)!.has(id))
    expect(leaked, `${where}: ids handed to the other buyer`).toEqual([])
  }
  // each buyer's own balance and order reach their profile
  for (const buyer of [a, b]) {
    const profile = answers.find((x) => x.buyer === buyer && x.path === '/profile.data')!
    expect(profile.body).toContain(buyer.balance)
    expect(profile.body).toContain(buyer.orderId)
  }
  // the game page and the catalogue came filled from a template (decision 098) for both buyers,
  // documents and `.data` answers alike; the profile and the pay page never did
  for (const buyer of [a, b])
    for (const path of [`/products/${gameId}`, `/products/${gameId}.data`, '/', '/_root.data']) {
      const filled = answers.filter((x) => x.buyer === buyer && x.path === path && x.fill)
      expect(filled.length, `${buyer.email} ${path} filled`).toBeGreaterThan(0)
    }
  expect(answers.filter((x) => x.fill && /profile|orders/.test(x.path))).toEqual([])
  // ...they came from each buyer's own kept copy instead (decision 103), documents and `.data` alike
  for (const buyer of [a, b])
    for (const path of pathsOf(buyer, gameId).filter((p) => /profile|orders/.test(p))) {
      const kept = answers.filter((x) => x.buyer === buyer && x.path === path && x.kept)
      expect(kept.length, `${buyer.email} ${path} kept`).toBeGreaterThan(0)
    }
  // every rendered order form had a key of its own
  const keys = answers.flatMap(({ body }) =>
    [...body.matchAll(/name="idempotency_key" value="([^"]+)"/g)].map((m) => m[1]),
  )
  expect(keys.length).toBeGreaterThanOrEqual(rounds * 2)
  expect(new Set(keys).size).toBe(keys.length)
}

/**
 * A buyer whose name needs escaping (`<script>` in it): every page is rendered whole for them,
 * with the name escaped, never filled from a template and never run as markup.
 */
export async function expectHostileNameEscaped(base: string, buyer: Omit<Buyer, 'balance'>) {
  const games = (await (await fetch(`${base}/api/games/?limit=100`)).json()) as {
    results: Array<{ id: number; resourcetype: string }>
  }
  const gameId = games.results.find((g) => g.resourcetype === 'PUBGGame')!.id
  for (let round = 0; round < 3; round++)
    for (const path of ['/', `/products/${gameId}`]) {
      const res = await fetch(`${base}${path}`, { headers: { cookie: buyer.cookie } })
      const body = await res.text()
      expect(res.status, path).toBe(200)
      expect(res.headers.get('x-page-cache'), path).not.toBe('fill')
      expect(body).toContain(buyer.email)
      expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
      expect(body).not.toContain('<script>alert(1)')
    }
}
