// Helpers for the payment, promo and fulfilment tests: orders through the real creation routes,
// and the sandbox checkout driven like a browser would (form posts).
import { randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import {
  games,
  paymentMethodGroups,
  paymentMethods,
  products,
  voucherCodes,
  countries,
  orders,
} from '#api/db/schema'
import { sandboxToken } from '#api/providers/sandbox'
import type { TestApi } from '#tests/helpers/test-api'

export type Err = { detail: string; code: string; fields?: Record<string, string[]> }
export type PayAnswer = Record<string, unknown> & {
  type: string
  payment_id: string
  amount: string
  currency: string
}
export type StatusAnswer = {
  id: string
  status: string
  payment_id: string | null
  payment_status: string | null
  payment_message: string | null
  is_payment_active: boolean
  reject_reason: string | null
  on_review?: boolean
}

export const hex = (n = 4) => randomBytes(n).toString('hex')

/** A PUBG game + product with exactly `codes` voucher codes in stock. */
export async function makePubgStock(
  api: TestApi,
  opts: { codes: number; price?: number; maxQuantity?: number },
) {
  const [g] = await api.db
    .insert(games)
    .values({ kind: 'PUBGGame', title: `PUBG test ${hex()}` })
    .returning()
  const [p] = await api.db
    .insert(products)
    .values({
      gameId: g!.id,
      kind: 'PUBGProduct',
      title: `60 UC ${hex(2)}`,
      price: opts.price ?? 9900,
      amountUc: 60,
      maxQuantity: opts.maxQuantity ?? 10,
    })
    .returning()
  if (opts.codes > 0)
    await api.db.insert(voucherCodes).values(
      Array.from({ length: opts.codes }, (_, i) => ({
        productId: p!.id,
        code: `T-${hex(6)}-${i}`,
        amountUc: 60,
      })),
    )
  return { game: g!, product: p! }
}

/** Creates a PUBG order through POST /api/orders/pubg/. */
export async function createPubgOrder(
  api: TestApi,
  productId: number,
  opts: { quantity?: number; email?: string; token?: string } = {},
): Promise<string> {
  const r = await api.call<{ id: string }>('POST', '/api/orders/pubg/', {
    body: {
      products: [{ product_id: productId, quantity: opts.quantity ?? 1 }],
      ...(opts.token ? {} : { email: opts.email ?? `buyer-${hex()}@example.com` }),
    },
    token: opts.token,
  })
  if (r.status !== 201) throw new Error(`order creation failed: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.id
}

/** A sandbox method of its own (in the default country) answering with `scenario`. */
export async function makeSandboxMethod(
  api: TestApi,
  scenario: string,
  opts: Partial<typeof paymentMethods.$inferInsert> = {},
) {
  const [country] = await api.db.select().from(countries).where(eq(countries.isDefault, true))
  const [group] = await api.db
    .insert(paymentMethodGroups)
    .values({ countryId: country!.id, name: `G ${hex()}`, shortName: 'G', order: 99 })
    .returning()
  const [m] = await api.db
    .insert(paymentMethods)
    .values({
      groupId: group!.id,
      name: `test-${scenario}-${hex()}`,
      title: `Test ${scenario}`,
      provider: 'sandbox',
      scenario,
      currencies: [country!.currency],
      ...opts,
    })
    .returning()
  return { method: m!, country: country! }
}

export async function pay(
  api: TestApi,
  method: string,
  orderId: string,
  extra: Record<string, unknown> = {},
) {
  return api.call<PayAnswer & Err>('POST', `/api/payments/${method}/`, {
    body: { order_id: orderId, currency: 'RUB', email: null, phone: null, ...extra },
  })
}

export async function status(api: TestApi, orderId: string, token?: string) {
  return api.call<StatusAnswer & Err>('GET', `/api/orders/status/${orderId}/`, { token })
}

/** Posts a checkout form (confirm/decline) as a browser would, url-encoded. */
export async function checkoutPost(
  api: TestApi,
  paymentId: string,
  action: 'confirm' | 'decline' | '',
  fields: Record<string, string>,
) {
  const path = `/api/payments/sandbox/checkout/${paymentId}/${action ? `${action}/` : ''}`
  const res = await api.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
  return {
    status: res.status,
    location: res.headers.get('location'),
    text: await res.text(),
    headers: res.headers,
  }
}

/** The signed fields of a sandbox payment, as the checkout page carries them. */
export function signedFields(api: TestApi, p: { id: string; amount: number; currency: string }) {
  const deps = { config: api.config } as Parameters<typeof sandboxToken>[0]
  return {
    amount: String(p.amount),
    currency: p.currency,
    token: sandboxToken(deps, p.id, p.amount, p.currency),
  }
}

/** Reads the hidden fields of the confirm form out of the checkout page's HTML. */
export function formFields(html: string, action: 'confirm' | 'decline'): Record<string, string> {
  const form = new RegExp(`<form method="post" action="[^"]*/${action}/">(.*?)</form>`, 's').exec(html)
  if (!form) throw new Error(`no ${action} form on the page`)
  const out: Record<string, string> = {}
  for (const m of form[1]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    out[m[1]!] = m[2]!
  return out
}

/** Opens the checkout page and presses «Оплатить» (or «Отклонить»), following the page's own form. */
export async function pressOnCheckout(api: TestApi, paymentId: string, action: 'confirm' | 'decline') {
  const page = await api.app.request(`/api/payments/sandbox/checkout/${paymentId}/`)
  if (page.status !== 200) throw new Error(`checkout page answered ${page.status}`)
  return checkoutPost(api, paymentId, action, formFields(await page.text(), action))
}

export async function orderRow(api: TestApi, id: string) {
  const [o] = await api.db.select().from(orders).where(eq(orders.id, id))
  return o!
}

export async function soldCodes(api: TestApi, productId: number) {
  return api.db
    .select()
    .from(voucherCodes)
    .where(and(eq(voucherCodes.productId, productId)))
}
