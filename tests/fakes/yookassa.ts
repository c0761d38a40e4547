// A local stand-in for YooKassa's API v3, written from its public documentation: HTTP Basic auth
// (shop id : secret key, else 401), an Idempotence-Key on every POST (400 without one; the same key
// within the shop gets the first answer again), payments that start `pending` and change only when
// the test says so (succeed, cancel with a reason), refunds of succeeded payments, and
// notifications ({type: "notification", event, object}) the test asks to be posted to the shop,
// and the lists of payments and refunds (GET /payments, GET /refunds: `created_at.gte`/`.lt`,
// `limit` 1–100, default 10, newest first, `{type: "list", items, next_cursor}` with an opaque
// cursor for the next page).
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
  cancellation_details?: { party: string; reason: string }
}

/**
 * A receipt made by POST /receipts (the settlement of an advance: «чек зачёта предоплаты»), as
 * YooKassa's docs describe it: of a succeeded payment, with `settlements`; `pending` until the test
 * registers it (or registered at once when `receiptStatus` says so), then its fiscal attributes.
 */
export interface YkReceipt {
  id: string
  type: 'payment' | 'refund'
  payment_id: string
  status: 'pending' | 'succeeded' | 'canceled'
  items: Array<{ payment_mode: string; amount: { value: string } }>
  settlements: Array<{ type: string; amount: { value: string; currency: string } }>
  fiscal_document_number?: string
  fiscal_storage_number?: string
  fiscal_attribute?: string
  registered_at?: string
}

export interface FakeYookassa {
  server: Server
  /** Receipts made by POST /receipts, by id. */
  receipts: Map<string, YkReceipt>
  /** New receipts start in this state. */
  receiptStatus: 'pending' | 'succeeded'
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
  /**
   * A refund YooKassa answered `pending` ends as its docs say: `succeeded` (paid back) or `canceled`
   * (with cancellation_details; the payment's refunded amount is given back).
   */
  finishRefund(id: string, status: 'succeeded' | 'canceled'): YkRefund
  /**
   * A payment that succeeded at YooKassa without the shop asking for it (reconciliation tests):
   * `metadata` as the test says (e.g. an order id and no payment id), `createdAt` when it was made.
   */
  plant(
    amount: { value: string; currency: string },
    metadata?: Record<string, string>,
    createdAt?: Date,
  ): YkPayment
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
  const receipts = new Map<string, YkReceipt>()
  // Idempotence-Key → the first answer (status, body)
  const answered = new Map<string, [number, string]>()
  const auth = `Basic ${Buffer.from(`${YK_SHOP}:${YK_SECRET}`).toString('base64')}`
  let baseUrl = ''

  const error = (code: string, description: string) =>
    JSON.stringify({ type: 'error', id: randomUUID(), code, description })

  let fd = 5000
  const registered = (r: YkReceipt): YkReceipt => {
    fd += 1
    return Object.assign(r, {
      status: 'succeeded' as const,
      fiscal_document_number: String(fd),
      fiscal_storage_number: '9960440300000001',
      fiscal_attribute: '2840192048',
      registered_at: '2026-12-01T18:00:00.000Z',
    })
  }
  function createReceipt(body: Record<string, unknown>): [number, string] {
    const p = payments.get(String(body.payment_id ?? ''))
    if (body.type !== 'payment' || !p)
      return [400, error('invalid_request', 'type payment with the id of a payment is required')]
    if (p.status !== 'succeeded') return [400, error('invalid_request', 'payment is not succeeded')]
    const items = body.items as YkReceipt['items'] | undefined
    const settlements = body.settlements as YkReceipt['settlements'] | undefined
    const customer = body.customer as { email?: string } | undefined
    if (
      !Array.isArray(items) ||
      items.length === 0 ||
      !Array.isArray(settlements) ||
      settlements.length === 0
    )
      return [400, error('invalid_request', 'items and settlements are required')]
    if (!customer?.email) return [400, error('invalid_request', 'customer email or phone is required')]
    const r: YkReceipt = {
      id: `rc-${randomUUID()}`,
      type: 'payment',
      payment_id: p.id,
      status: 'pending',
      items,
      settlements,
    }
    receipts.set(r.id, fake.receiptStatus === 'succeeded' ? registered(r) : r)
    return [200, JSON.stringify(r)]
  }

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

  /** GET /payments or /refunds: the objects created in the period, newest first, a page at a time. */
  function list(objects: Array<YkPayment | YkRefund>, query: URLSearchParams): [number, string] {
    const limitText = query.get('limit') ?? '10'
    const limit = Number(limitText)
    if (!/^\d+$/.test(limitText) || limit < 1 || limit > 100)
      return [400, error('invalid_request', 'limit must be from 1 to 100')]
    const bound = (name: string) => {
      const v = query.get(name)
      if (v === null) return null
      const t = Date.parse(v)
      return Number.isNaN(t) ? Number.NaN : t
    }
    const gte = bound('created_at.gte')
    const lt = bound('created_at.lt')
    if (Number.isNaN(gte) || Number.isNaN(lt))
      return [400, error('invalid_request', 'created_at filters must be ISO 8601 date-times')]
    const cursor = query.get('cursor')
    let offset = 0
    if (cursor !== null) {
      offset = Number(Buffer.from(cursor, 'base64url').toString())
      if (!Number.isSafeInteger(offset) || offset < 0)
        return [400, error('invalid_request', 'cursor is not valid')]
    }
    const matching = objects
      .filter((o) => {
        const t = Date.parse(o.created_at)
        return (gte === null || t >= gte) && (lt === null || t < lt)
      })
      .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? -1 : 1))
    const items = matching.slice(offset, offset + limit)
    const next =
      offset + limit < matching.length ? Buffer.from(String(offset + limit)).toString('base64url') : null
    return [200, JSON.stringify({ type: 'list', items, ...(next ? { next_cursor: next } : {}) })]
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
      // standalone (e2e): a payment that succeeded at YooKassa which the shop never asked for
      if (opts.shopUrl && req.method === 'POST' && path === '/_test/plant') {
        let b: { value?: string; currency?: string; metadata?: Record<string, string> }
        try {
          b = JSON.parse(body) as typeof b
        } catch {
          return send([400, error('invalid_request', 'body is not JSON')])
        }
        if (!money(b.value)) return send([400, error('invalid_request', 'value is required')])
        const p = fake.plant({ value: b.value as string, currency: b.currency ?? 'RUB' }, b.metadata ?? {})
        return send([200, JSON.stringify(p)])
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
              : path === '/receipts'
                ? createReceipt(parsed)
                : ([404, error('not_found', 'no such method')] as [number, string])
        // YooKassa keeps the answer to a key (24 hours) and gives it again for a repeat
        if (answer[0] === 200) answered.set(key, answer)
        return send(answer)
      }
      const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '')
      if (req.method === 'GET' && path === '/payments') return send(list([...payments.values()], query))
      if (req.method === 'GET' && path === '/refunds') return send(list([...refunds.values()], query))
      if (req.method === 'GET' && path.startsWith('/payments/')) {
        const p = payments.get(decodeURIComponent(path.slice('/payments/'.length)))
        return send(p ? [200, JSON.stringify(p)] : [404, error('not_found', 'payment not found')])
      }
      if (req.method === 'GET' && path.startsWith('/receipts/')) {
        const r = receipts.get(decodeURIComponent(path.slice('/receipts/'.length)))
        return send(r ? [200, JSON.stringify(r)] : [404, error('not_found', 'receipt not found')])
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
    receipts,
    receiptStatus: 'succeeded',
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
    finishRefund(id, status) {
      const r = refunds.get(id)
      if (r?.status !== 'pending') throw new Error(`fake yookassa: no pending refund ${id}`)
      r.status = status
      const p = payments.get(r.payment_id)
      if (status === 'canceled') {
        r.cancellation_details = { party: 'yoo_money', reason: 'rejected_by_payee' }
        if (p?.refunded_amount) {
          const left =
            Math.round(Number(p.refunded_amount.value) * 100) - Math.round(Number(r.amount.value) * 100)
          p.refunded_amount = { value: (left / 100).toFixed(2), currency: p.amount.currency }
        }
      }
      return r
    },
    plant(amount, metadata = {}, createdAt = new Date()) {
      const id = `2${randomUUID().slice(1)}`
      const p: YkPayment = {
        id,
        status: 'succeeded',
        paid: true,
        amount,
        confirmation: { type: 'redirect', confirmation_url: `${baseUrl}/checkout/payments/${id}` },
        payment_method: { type: 'bank_card', id, saved: false },
        created_at: createdAt.toISOString(),
        metadata,
      }
      payments.set(id, p)
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
