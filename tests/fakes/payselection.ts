// A local stand-in for the Payselection gateway: checks request signatures, creates payment pages
// answers the order status call (GET /orders/{id}) from `states` and accepts refunds (or, with
// `declineRefunds`, refuses them as the gateway does: 400 RefundDeclined).
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const PS_SITE = '21044'
export const PS_SECRET = 'ps-secret-key'

export interface PsRequest {
  method: string
  path: string
  body: string
  headers: Record<string, string | string[] | undefined>
}

export interface FakePayselection {
  server: Server
  url: string
  /** Every correctly signed request, in order. */
  log: PsRequest[]
  /** The transactions answered for an order id (our payment id); none: an empty list. */
  states: Map<string, unknown[]>
  /** true: every refund request is answered 400 RefundDeclined (it is still logged). */
  declineRefunds: boolean
  /** The refund requests logged for a transaction, in order (a retry repeats its X-REQUEST-ID). */
  refundsOf(transactionId: string): PsRequest[]
  env: Record<string, string>
  close(): Promise<void>
}

export async function startFakePayselection(): Promise<FakePayselection> {
  const log: PsRequest[] = []
  const states = new Map<string, unknown[]>()
  const knobs = { declineRefunds: false }
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => {
      body += d
    })
    req.on('end', () => {
      const path = req.url ?? ''
      const id = String(req.headers['x-request-id'] ?? '')
      const expected = createHmac('sha256', PS_SECRET)
        .update(`${req.method}\n${path}\n${PS_SITE}\n${id}\n${body}`)
        .digest('hex')
      // one request per connection: no idle keep-alive socket for the client to race against
      res.setHeader('connection', 'close')
      res.setHeader('content-type', 'application/json')
      if (req.headers['x-site-id'] !== PS_SITE || req.headers['x-request-signature'] !== expected || !id) {
        res.statusCode = 401
        res.end(JSON.stringify({ Code: 'InvalidSignature' }))
        return
      }
      log.push({ method: req.method ?? '', path, body, headers: req.headers })
      if (req.method === 'POST' && path === '/webpayments/create') {
        const orderId = (JSON.parse(body) as { PaymentRequest: { OrderId: string } }).PaymentRequest.OrderId
        res.end(JSON.stringify(`https://webform.payselection.test/pay/${orderId}`))
      } else if (req.method === 'GET' && path.startsWith('/orders/')) {
        res.end(JSON.stringify(states.get(decodeURIComponent(path.slice('/orders/'.length))) ?? []))
      } else if (req.method === 'POST' && path === '/payments/refund') {
        if (knobs.declineRefunds) {
          res.statusCode = 400
          res.end(JSON.stringify({ Code: 'RefundDeclined' }))
          return
        }
        // a refund is accepted; the log holds what was asked (a repeated X-REQUEST-ID is one refund)
        res.end(JSON.stringify({ TransactionId: `R-${id.slice(0, 8)}`, TransactionState: 'success' }))
      } else {
        res.statusCode = 404
        res.end('{}')
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    server,
    url,
    log,
    states,
    get declineRefunds() {
      return knobs.declineRefunds
    },
    set declineRefunds(v: boolean) {
      knobs.declineRefunds = v
    },
    refundsOf: (transactionId) =>
      log.filter(
        (r) =>
          r.path === '/payments/refund' &&
          (JSON.parse(r.body) as { TransactionId?: string }).TransactionId === transactionId,
      ),
    env: { PAYSELECTION_SITE_ID: PS_SITE, PAYSELECTION_SECRET_KEY: PS_SECRET, PAYSELECTION_API_URL: url },
    close: () => new Promise((r) => server.close(() => r())),
  }
}
