// A local stand-in for the MooGold API: checks the auth headers and answers by product id
// (mg-fail refuses, mg-500 breaks, mg-slow stays "processing"); order_detail answers from `details`.
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const MOOGOLD_PARTNER = 'partner-1'
export const MOOGOLD_SECRET = 'moogold-secret'

export interface MoogoldSeen {
  path: string
  body: Record<string, unknown>
}

export interface FakeMoogold {
  server: Server
  url: string
  /** Every authenticated request, in order. */
  seen: MoogoldSeen[]
  /** order_status answered by order/order_detail per supplier order id (default "processing"). */
  details: Map<string, string>
  /** The environment that points the shop at this fake. */
  env: Record<string, string>
  close(): Promise<void>
}

export async function startFakeMoogold(): Promise<FakeMoogold> {
  const seen: MoogoldSeen[] = []
  const details = new Map<string, string>()
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (d) => {
      raw += d
    })
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\//, '')
      const ts = String(req.headers.timestamp ?? '')
      const expected = createHmac('sha256', MOOGOLD_SECRET).update(`${raw}${ts}${path}`).digest('hex')
      const basic = `Basic ${Buffer.from(`${MOOGOLD_PARTNER}:${MOOGOLD_SECRET}`).toString('base64')}`
      // one request per connection: no idle keep-alive socket for the client to race against
      res.setHeader('connection', 'close')
      res.setHeader('content-type', 'application/json')
      if (req.headers.auth !== expected || req.headers.authorization !== basic) {
        res.statusCode = 401
        res.end(JSON.stringify({ status: false, err_code: 401, err_message: 'Bad auth' }))
        return
      }
      const body = JSON.parse(raw) as { data: Record<string, unknown> }
      seen.push({ path, body })
      if (path === 'order/order_detail') {
        const id = String(body.data.order_id)
        res.end(JSON.stringify({ order_id: id, order_status: details.get(id) ?? 'processing' }))
        return
      }
      const product = String(body.data['product-id'])
      if (product === 'mg-fail')
        res.end(JSON.stringify({ status: false, err_code: 422, err_message: 'Invalid User ID' }))
      else if (product === 'mg-500') {
        res.statusCode = 500
        res.end('oops')
      } else
        res.end(
          JSON.stringify({
            status: true,
            message: 'Order created',
            order_id: 7000 + seen.length,
            order_status: product === 'mg-slow' ? 'processing' : 'completed',
          }),
        )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  return {
    server,
    url,
    seen,
    details,
    env: { MOOGOLD_PARTNER_ID: MOOGOLD_PARTNER, MOOGOLD_SECRET_KEY: MOOGOLD_SECRET, MOOGOLD_API_URL: url },
    close: () => new Promise((r) => server.close(() => r())),
  }
}
