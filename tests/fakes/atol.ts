// A local stand-in for ATOL Online v5, written from its public API description: getToken checks the
// login and password; sell / sell_refund need a valid Token, refuse a company INN whose check digits
// are wrong, and de-duplicate by external_id (the same uuid comes back); report answers the state the
// test sets (wait by default, or done with fiscal attributes); `mode` makes it fail or hang. Each item
// needs a `payment_method` ATOL v5 knows (tag 1214: full_prepayment … credit_payment) and each payment
// a `type` 0–9 (1 электронными, 2 предварительная оплата — зачёт аванса), else a 400.
import { randomUUID } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isValidInn } from '#api/services/receipts/requisites'

export const ATOL_LOGIN = 'atol-login'
export const ATOL_PASS = 'atol-pass'
export const ATOL_GROUP = 'group_test'

export interface AtolRegistration {
  uuid: string
  kind: 'sell' | 'sell_refund'
  externalId: string
  body: Record<string, unknown>
  /** what report answers for it */
  state: 'wait' | 'done' | 'fail'
}

export interface FakeAtol {
  url: string
  /** Registrations by external_id: one per receipt, however often it was sent. */
  registrations: Map<string, AtolRegistration>
  /** Every sell / sell_refund call, duplicates included. */
  calls: Array<{ kind: string; externalId: string }>
  /** normal; error: every call answers 500; hang: calls never answer (a timeout). */
  mode: 'normal' | 'error' | 'hang'
  /** State new registrations get (tests can also change one's `state`). */
  initialState: 'wait' | 'done' | 'fail'
  env: Record<string, string>
  close(): Promise<void>
}

export async function startFakeAtol(): Promise<FakeAtol> {
  const tokens = new Set<string>()
  const fake: FakeAtol = {
    url: '',
    registrations: new Map(),
    calls: [],
    mode: 'normal',
    initialState: 'done',
    env: {},
    close: async () => {},
  }
  let fd = 1000
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => {
      body += d
    })
    req.on('end', () => {
      if (fake.mode === 'hang') return
      res.setHeader('content-type', 'application/json')
      res.setHeader('connection', 'close')
      const send = (status: number, json: unknown) => {
        res.statusCode = status
        res.end(JSON.stringify(json))
      }
      if (fake.mode === 'error') return send(500, { error: { code: 1, text: 'internal' } })
      const path = (req.url ?? '').replace(/^\/possystem\/v5/, '')
      if (req.method === 'POST' && path === '/getToken') {
        const b = JSON.parse(body || '{}') as { login?: string; pass?: string }
        if (b.login !== ATOL_LOGIN || b.pass !== ATOL_PASS)
          return send(401, { token: null, error: { code: 12, text: 'Неверный логин или пароль' } })
        const t = randomUUID()
        tokens.add(t)
        return send(200, { token: t, error: null })
      }
      if (!tokens.has(String(req.headers.token ?? '')))
        return send(401, { error: { code: 11, text: 'Токен не найден или истёк' } })
      const m = /^\/([^/]+)\/(sell|sell_refund)$/.exec(path)
      if (req.method === 'POST' && m) {
        if (m[1] !== ATOL_GROUP) return send(400, { error: { code: 30, text: 'Группа ККТ не найдена' } })
        const b = JSON.parse(body) as {
          external_id?: string
          receipt?: {
            company?: { inn?: string }
            items?: Array<{ sum: number; payment_method?: string }>
            payments?: Array<{ type?: number; sum: number }>
            total?: number
          }
        }
        const externalId = String(b.external_id ?? '')
        fake.calls.push({ kind: m[2]!, externalId })
        const existing = fake.registrations.get(externalId)
        if (existing)
          return send(200, {
            uuid: existing.uuid,
            status: 'wait',
            error: { code: 33, text: 'В системе существует чек с external_id' },
          })
        const methods = [
          'full_prepayment',
          'prepayment',
          'advance',
          'full_payment',
          'partial_payment',
          'credit',
          'credit_payment',
        ]
        if (
          !(b.receipt?.items ?? []).every((i) => methods.includes(String(i.payment_method))) ||
          !(b.receipt?.payments ?? []).every((p) => Number.isInteger(p.type) && p.type! >= 0 && p.type! <= 9)
        )
          return send(400, { uuid: null, status: 'fail', error: { code: 32, text: 'Ошибка валидации чека' } })
        if (!isValidInn(String(b.receipt?.company?.inn ?? '')))
          return send(400, {
            uuid: null,
            status: 'fail',
            error: { code: 32, text: 'Неверный ИНН организации' },
          })
        const reg: AtolRegistration = {
          uuid: randomUUID(),
          kind: m[2] as 'sell' | 'sell_refund',
          externalId,
          body: b as Record<string, unknown>,
          state: fake.initialState,
        }
        fake.registrations.set(externalId, reg)
        return send(200, { uuid: reg.uuid, status: 'wait', error: null, timestamp: '' })
      }
      const r = /^\/([^/]+)\/report\/([^/]+)$/.exec(path)
      if (req.method === 'GET' && r) {
        const reg = [...fake.registrations.values()].find((x) => x.uuid === r[2])
        if (!reg) return send(404, { error: { code: 34, text: 'Документ не найден' } })
        if (reg.state === 'wait')
          return send(200, { uuid: reg.uuid, status: 'wait', error: null, payload: null })
        if (reg.state === 'fail')
          return send(200, {
            uuid: reg.uuid,
            status: 'fail',
            error: { code: 10, text: 'Ошибка ФН' },
            payload: null,
          })
        fd += 1
        return send(200, {
          uuid: reg.uuid,
          status: 'done',
          error: null,
          payload: {
            fn_number: '9287440300090728',
            fiscal_document_number: fd,
            fiscal_document_attribute: 1234567890,
            receipt_datetime: '27.11.2026 15:00:00',
            ofd_receipt_url: `https://ofd.example/check/${fd}`,
            total: (reg.body.receipt as { total?: number }).total,
          },
        })
      }
      send(404, { error: { code: 404, text: 'not found' } })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/possystem/v5`
  fake.env = { ATOL_LOGIN, ATOL_PASSWORD: ATOL_PASS, ATOL_GROUP, ATOL_API_URL: fake.url }
  fake.close = () =>
    new Promise((r) => {
      server.closeAllConnections()
      server.close(() => r())
    })
  return fake
}
