// Local stand-ins for the suppliers' role-check calls, for unit and API tests (never the internet):
//   POST /smileone/smilecoin/api/getrole              Smile One: form body, double-MD5 `sign`
//   GET  /apigames/merchant/{id}/cek-username/{game}  apigames: `signature` = MD5(merchant id + key)
// Each checks the signature the way its provider documents it (written here independently of the
// adapters) and answers by the player id:
//   11111111 found · 22222222 not found · 33333333 answers after `slowMs` · 44444444 HTTP 500
// Every call is recorded in `calls`.
import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export const FAKE_SMILE = { uid: '1041302', email: 'agent@example.test', key: 'smile-key-123' }
export const FAKE_APIGAMES = { merchantId: 'M0001TEST', secretKey: 'apigames-secret-456' }
export const PLAYERS = { found: '11111111', missing: '22222222', slow: '33333333', broken: '44444444' }

export interface SupplierCall {
  provider: 'smileone' | 'apigames'
  params: Record<string, string>
  signatureOk: boolean
}

export interface FakeSuppliers {
  origin: string
  /** Environment that points the shop's adapters at this fake. */
  env: Record<string, string>
  calls: SupplierCall[]
  close(): Promise<void>
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex')

async function formOf(req: IncomingMessage): Promise<Record<string, string>> {
  let raw = ''
  for await (const chunk of req) raw += chunk
  return Object.fromEntries(new URLSearchParams(raw))
}

export async function startFakeSuppliers(opts: { slowMs?: number } = {}): Promise<FakeSuppliers> {
  const slowMs = opts.slowMs ?? 2000
  const calls: SupplierCall[] = []
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake')
    res.setHeader('connection', 'close')
    res.setHeader('content-type', 'application/json')
    const send = (status: number, body: unknown) => {
      res.statusCode = status
      res.end(JSON.stringify(body))
    }
    let params: Record<string, string>
    let provider: SupplierCall['provider']
    let signatureOk: boolean
    if (req.method === 'POST' && url.pathname === '/smileone/smilecoin/api/getrole') {
      provider = 'smileone'
      params = await formOf(req)
      const { sign, ...rest } = params
      const base = Object.keys(rest)
        .sort()
        .map((k) => `${k}=${rest[k]}&`)
        .join('')
      signatureOk =
        sign === md5(md5(`${base}${FAKE_SMILE.key}`)) &&
        rest.uid === FAKE_SMILE.uid &&
        rest.email === FAKE_SMILE.email &&
        /^\d+$/.test(rest.time ?? '')
    } else {
      const m = /^\/apigames\/merchant\/([^/]+)\/cek-username\/([^/]+)$/.exec(url.pathname)
      if (req.method !== 'GET' || !m) return send(404, { message: 'no such path' })
      provider = 'apigames'
      params = { ...Object.fromEntries(url.searchParams), merchant: m[1]!, game: m[2]! }
      signatureOk =
        params.merchant === FAKE_APIGAMES.merchantId &&
        params.signature === md5(`${FAKE_APIGAMES.merchantId}${FAKE_APIGAMES.secretKey}`)
    }
    calls.push({ provider, params, signatureOk })
    const id = provider === 'smileone' ? (params.userid ?? '') : (params.user_id ?? '')
    if (!signatureOk)
      return provider === 'smileone'
        ? send(200, { status: 402, message: 'sign error' })
        : send(200, { status: 0, rc: 401, message: 'Signature tidak valid', data: null })
    if (id.startsWith(PLAYERS.slow)) await new Promise((r) => setTimeout(r, slowMs))
    if (id.startsWith(PLAYERS.broken)) return send(500, { message: 'internal error' })
    const found = id.startsWith(PLAYERS.found)
    if (provider === 'smileone') {
      return found
        ? send(200, { status: 200, message: 'success', username: `Smile Hero ${params.zoneid ?? ''}`.trim() })
        : send(200, { status: 201, message: 'role does not exist' })
    }
    return found
      ? send(200, {
          status: 1,
          rc: 0,
          message: 'Data ditemukan',
          data: { is_valid: true, username: 'Api Hero' },
        })
      : send(200, {
          status: 1,
          rc: 0,
          message: 'Data tidak ditemukan',
          data: { is_valid: false, username: null },
        })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    calls,
    env: {
      SMILEONE_UID: FAKE_SMILE.uid,
      SMILEONE_EMAIL: FAKE_SMILE.email,
      SMILEONE_KEY: FAKE_SMILE.key,
      SMILEONE_API_URL: `${origin}/smileone/smilecoin/api`,
      APIGAMES_MERCHANT_ID: FAKE_APIGAMES.merchantId,
      APIGAMES_SECRET_KEY: FAKE_APIGAMES.secretKey,
      APIGAMES_API_URL: `${origin}/apigames`,
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
