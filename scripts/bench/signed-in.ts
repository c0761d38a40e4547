// The signed-in rows of the bench (issue 36): pages of a buyer who holds an `access` cookie, so no
// page cache, with the shop's CPU time per request. `BENCH_ONLY=signed-in npm run bench` runs only
// these beside the baselines, for quick iterations.
import { readdirSync, readFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { findPubgProduct } from './order-load'

/** A buyer signed up through the API (an unknown email signs up), with an order of their own. */
export async function signedInBuyer(
  base: string,
): Promise<{ cookie: string; email: string; orderId: string }> {
  const email = `bench-${randomUUID().slice(0, 8)}@example.com`
  const res = await fetch(`${base}/api/auth/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'Bench-secret-pass-2026' }),
  })
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`)
  const { access, refresh } = (await res.json()) as { access: string; refresh: string }
  const { productId } = await findPubgProduct(base)
  const order = await fetch(`${base}/api/orders/pubg/`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
      authorization: `Bearer ${access}`,
    },
    body: JSON.stringify({ products: [{ product_id: productId, quantity: 1 }], email }),
  })
  const body = (await order.json()) as { id?: string }
  if (!order.ok || !body.id) throw new Error(`order failed: ${order.status}`)
  return { cookie: `access=${access}; refresh=${refresh}`, email, orderId: body.id }
}

/** Pids of `pid` and every process under it (the supervisor and its worker). */
function processTree(pid: number): number[] {
  // a child is listed under the thread that forked it, not always the main one
  const children: number[] = []
  try {
    for (const task of readdirSync(`/proc/${pid}/task`))
      children.push(
        ...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
          .trim()
          .split(/\s+/)
          .filter(Boolean)
          .map(Number),
      )
  } catch {}
  return [pid, ...children.flatMap(processTree)]
}

const TICK_MS = 1000 / 100 // USER_HZ is 100 on Linux

/** CPU time (user + system, ms) of `pid` and its descendants, what process.cpuUsage() counts for each. */
export function treeCpuMs(pid: number): number {
  let ticks = 0
  for (const p of processTree(pid)) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12]) // utime, stime
    } catch {}
  }
  return ticks * TICK_MS
}

/**
 * The pages a returning buyer opens, each rendered for them (their cookie skips the page cache):
 * the game page, the catalogue, the profile and their order's pay page.
 */
export async function signedInRows(
  base: string,
  gameId: number,
  seconds: number,
  cpuMs: () => number,
  measure: typeof import('./http-load').measure,
) {
  const buyer = await signedInBuyer(base)
  const headers = { cookie: buyer.cookie }
  const rows = []
  for (const [label, path] of signedInPages(gameId, buyer.orderId)) {
    const page = await fetch(`${base}${path}`, { headers })
    const html = await page.text()
    // a row that measured a signed-out or broken page would be worthless: the buyer's email shows
    if (page.status !== 200 || !html.includes(buyer.email))
      throw new Error(
        `${path}: ${page.status}, the buyer's email ${html.includes(buyer.email) ? '' : 'not '}on it`,
      )
    rows.push(await measure(label, `${base}${path}`, seconds, 10, headers, cpuMs))
  }
  return { rows, buyer }
}

/** The four pages of issue 36, as a returning buyer opens them: [label, path]. */
export function signedInPages(gameId: number, orderId: string) {
  return [
    [`/products/${gameId} signed in`, `/products/${gameId}`],
    ['/ signed in', '/'],
    ['/profile signed in', '/profile'],
    ['/orders/{id}/pay signed in', `/orders/${orderId}/pay`],
  ] as const
}
