// A local stand-in for YooKassa's API v3, written from its public documentation: HTTP Basic auth
// (shop id : secret key, else 401), an Idempotence-Key on every POST (400 without one; the same key
// within the shop gets the first answer again), payments that start `pending` and change only when
// the test says so (succeed, cancel with a reason), refunds of succeeded payments, and
// notifications ({type: "notification", event, object}) the test asks to be posted to the shop.
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const YK_SHOP = '501234'
export const YK_SECRET = 'test_yk_secret_key'

export interface YkRequest {
  method: string
  path: string
  body: string
  idempotenceKey: string | undefined
}

export interface YkPayment {
  id: string
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled'
  paid: boolean
  amount: { value: string; currency: string }
  description?: string
  confirmation: { type: string; confirmation_url?: string; confirmation_data?: string; return_url?: string }
  payment_method: {
    type: string
    id: string
    saved: boolean
    /** A card payment's card, as YooKassa returns it once paid (never the full number). */
    card?: {
      first6: string
      last4: string
      expiry_month: string
      expiry_year: string
      card_type: string
      issuer_country?: string
    }
  }
  cancellation_details?: { party: string; reason: string }
  created_at: string
  metadata: Record<string, string>
  receipt?: unknown
  refunded_amount?: { value: string; currency: string }
}

export interface YkRefund {
  id: string
  payment_id: string
  status: 'pending' | 'succeeded' | 'canceled'
  amount: { value: string; currency: string }
  created_at: string
  receipt?: unknown
}

export interface FakeYookassa {
  server: Server
  url: string
  /** Every authenticated request, in order. */
  log: YkRequest[]
  payments: Map<string, YkPayment>
  refunds: Map<string, YkRefund>
  /** New refunds start in this state (`succeeded` unless a test wants YooKassa to take its time). */
  refundStatus: 'pending' | 'succeeded' | 'canceled'
  env: Record<string, string>
  /** The payment YooKassa made for our payment id (from the metadata we sent). */
  paymentOf(ourPaymentId: string): YkPayment | undefined
  /** The payer paid; `card` is what YooKassa then says about the card (first6, last4, issuer country). */
  succeed(
    id: string,
    amount?: { value: string; currency: string },
    card?: { first6: string; last4: string; issuer_country?: string },
  ): YkPayment
  cancel(id: string, reason: string, party?: string): YkPayment
  /** The notification YooKassa would post for an event about an object. */
  notification(
    event: string,
    object: YkPayment | YkRefund,
  ): { type: 'notification'; event: string; object: unknown }
  /** Posts that notification to a shop (e2e: the shop's /api/payments/yookassa/notify/). */
  notify(shopUrl: string, event: string, object: YkPayment | YkRefund): Promise<number>
  close(): Promise<void>
}

const money = (v: unknown) => typeof v === 'string' && /^\d+\.\d{2}$/.test(v)

export async function startFakeYookassa(
  opts: { port?: number; shopUrl?: string } = {},
): Promise<FakeYookassa> {
  const log: YkRequest[] = []
  const payments = new Map<string, YkPayment>()
  const refunds = new Map<string, YkRefund>()
  // Idempotence-Key → the first answer (status, body)
  const answered = new Map<string, [number, string]>()
  const auth = `Basic ${Buffer.from(`${YK_SHOP}:${YK_SECRET}`).toString('base64')}`
  let baseUrl = ''

  const error = (code: string, description: string) =>
    JSON.stringify({ type: 'error', id: randomUUID(), code, description })

  function createPayment(body: Record<string, unknown>): [number, string] {
    const amount = body.amount as { value?: unknown; currency?: unknown } | undefined
    if (!money(amount?.value) || typeof amount?.currency !== 'string')
      return [400, error('invalid_request', 'amount is required')]
    const method = body.payment_method_data as { type?: string } | undefined
    const confirmation = body.confirmation as { type?: string; return_url?: string } | undefined
    const id = `2${randomUUID().slice(1)}`
    const p: YkPayment = {
      id,
      status: 'pending',
      paid: false,
      amount: { value: amount.value as string, currency: amount.currency },
      description: body.description as string | undefined,
      confirmation:
        confirmation?.type === 'qr'
          ? {
              type: 'qr',
              confirmation_data: `https://qr.nspk.ru/AS1000${id.slice(0, 8).toUpperCase()}?type=02`,
            }
          : {
              type: 'redirect',
              confirmation_url: `${baseUrl}/checkout/payments/${id}`,
              return_url: confirmation?.return_url,
            },
      payment_method: { type: method?.type ?? 'bank_card', id, saved: false },
      created_at: new Date().toISOString(),
      metadata: (body.metadata as Record<string, string>) ?? {},
      ...(body.receipt ? { receipt: body.receipt } : {}),
    }
    payments.set(id, p)
    return [200, JSON.stringify(p)]
  }

  function createRefund(body: Record<string, unknown>): [number, string] {
    const p = payments.get(String(body.payment_id ?? ''))
    if (!p) return [404, error('not_found', 'payment not found')]
    const amount = (body.amount ?? {}) as { value?: unknown; currency?: unknown }
    if (!money(amount.value)) return [400, error('invalid_request', 'amount is required')]
    if (p.status !== 'succeeded') return [400, error('invalid_request', 'payment is not succeeded')]
    const toKop = (v: string) => Math.round(Number(v) * 100)
    const already = toKop(p.refunded_amount?.value ?? '0.00')
    if (already + toKop(amount.value as string) > toKop(p.amount.value))
      return [400, error('invalid_request', 'refund amount exceeds the payment')]
    const r: YkRefund = {
      id: `3${randomUUID().slice(1)}`,
      payment_id: p.id,
      status: fake.refundStatus,
      amount: { value: amount.value as string, currency: String(amount.currency ?? p.amount.currency) },
      created_at: new Date().toISOString(),
      ...(body.receipt ? { receipt: body.receipt } : {}),
    }
    if (r.status !== 'canceled')
      p.refunded_amount = {
        value: ((already + toKop(r.amount.value)) / 100).toFixed(2),
        currency: p.amount.currency,
      }
    refunds.set(r.id, r)
    return [200, JSON.stringify(r)]
  }

  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => {
      body += d
    })
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? ''
      res.setHeader('connection', 'close')
      res.setHeader('content-type', 'application/json')
      const send = ([status, text]: [number, string]) => {
        res.statusCode = status
        res.end(text)
      }
      // the payer's side: the card page YooKassa would show (not part of the API)
      if (req.method === 'GET' && path.startsWith('/checkout/payments/')) {
        res.setHeader('content-type', 'text/html; charset=utf-8')
        return send([200, '<!doctype html><title>ЮKassa (тест)</title><h1>Оплата картой</h1>'])
      }
      // standalone (e2e): a health check, and the payer paying — the payment succeeds and
      // YooKassa's notification goes to the shop (tests/fakes/yookassa-server.ts)
      if (opts.shopUrl && req.method === 'GET' && path === '/health') return send([200, '{"ok":true}'])
      if (opts.shopUrl && req.method === 'POST' && path.startsWith('/_test/succeed/')) {
        const p = fake.paymentOf(decodeURIComponent(path.slice('/_test/succeed/'.length)))
        if (!p) return send([404, error('not_found', 'no payment for that id')])
        fake.succeed(p.id)
        void fake.notify(opts.shopUrl, 'payment.succeeded', p).then(
          (status) => send([200, JSON.stringify({ notified: status })]),
          (e: unknown) => send([502, error('notify_failed', String(e))]),
        )
        return
      }
      // standalone: the refunds YooKassa received for one of our payments (the e2e checks the amount)
      if (opts.shopUrl && req.method === 'GET' && path.startsWith('/_test/refunds/')) {
        const p = fake.paymentOf(decodeURIComponent(path.slice('/_test/refunds/'.length)))
        if (!p) return send([404, error('not_found', 'no payment for that id')])
        return send([200, JSON.stringify([...refunds.values()].filter((r) => r.payment_id === p.id))])
      }
      if (req.headers.authorization !== auth)
        return send([401, error('invalid_credentials', 'Basic auth with shopId:secretKey required')])
      const key = req.headers['idempotence-key'] as string | undefined
      log.push({ method: req.method ?? '', path, body, idempotenceKey: key })
      if (req.method === 'POST') {
        if (!key) return send([400, error('invalid_request', 'Idempotence-Key header is required')])
        const seen = answered.get(key)
        if (seen) return send(seen)
        let parsed: Record<string, unknown>
        try {
          parsed = JSON.parse(body) as Record<string, unknown>
        } catch {
          return send([400, error('invalid_request', 'body is not JSON')])
        }
        const answer =
          path === '/payments'
            ? createPayment(parsed)
            : path === '/refunds'
              ? createRefund(parsed)
              : ([404, error('not_found', 'no such method')] as [number, string])
        // YooKassa keeps the answer to a key (24 hours) and gives it again for a repeat
        if (answer[0] === 200) answered.set(key, answer)
        return send(answer)
      }
      if (req.method === 'GET' && path.startsWith('/payments/')) {
        const p = payments.get(decodeURIComponent(path.slice('/payments/'.length)))
        return send(p ? [200, JSON.stringify(p)] : [404, error('not_found', 'payment not found')])
      }
      if (req.method === 'GET' && path.startsWith('/refunds/')) {
        const r = refunds.get(decodeURIComponent(path.slice('/refunds/'.length)))
        return send(r ? [200, JSON.stringify(r)] : [404, error('not_found', 'refund not found')])
      }
      send([404, error('not_found', 'no such method')])
    })
  })
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const get = (id: string) => {
    const p = payments.get(id)
    if (!p) throw new Error(`fake yookassa: no payment ${id}`)
    return p
  }
  const fake: FakeYookassa = {
    server,
    url: baseUrl,
    log,
    payments,
    refunds,
    refundStatus: 'succeeded',
    env: { YOOKASSA_SHOP_ID: YK_SHOP, YOOKASSA_SECRET_KEY: YK_SECRET, YOOKASSA_API_URL: baseUrl },
    paymentOf: (ourId) => [...payments.values()].find((p) => p.metadata.payment_id === ourId),
    succeed(id, amount, card) {
      const p = get(id)
      Object.assign(p, { status: 'succeeded', paid: true, ...(amount ? { amount } : {}) })
      if (card)
        p.payment_method.card = { expiry_month: '12', expiry_year: '2030', card_type: 'Visa', ...card }
      return p
    },
    cancel(id, reason, party = 'payment_network') {
      const p = get(id)
      Object.assign(p, { status: 'canceled', paid: false, cancellation_details: { party, reason } })
      return p
    },
    notification: (event, object) => ({ type: 'notification', event, object: structuredClone(object) }),
    async notify(shopUrl, event, object) {
      const res = await fetch(`${shopUrl.replace(/\/$/, '')}/api/payments/yookassa/notify/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fake.notification(event, object)),
      })
      await res.text()
      return res.status
    },
    close: () => new Promise((r) => server.close(() => r())),
  }
  return fake
}
