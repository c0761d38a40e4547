// ATOL Online v5 client (the `atol` transport): getToken, then sell / sell_refund, then report until
// the cash register answers done or fail. ATOL de-duplicates by external_id, so sending a receipt
// again after a crash answers the registration already made instead of printing a second receipt.
import type { ApiConfig } from '../../env'
import { atolV5Body, type ReceiptDoc } from './formats'

type AtolConfig = NonNullable<ApiConfig['atol']>

const TIMEOUT_MS = 15_000

/** ATOL answered with an error about the receipt itself (bad INN, bad items): resending will not help. */
export class AtolRefusal extends Error {}
/** ATOL could not be reached or answered something unusable: try again later. */
export class AtolUnavailable extends Error {}

interface AtolError {
  code?: number
  text?: string
}

async function call(
  fetchFn: typeof fetch,
  cfg: AtolConfig,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token?: string,
): Promise<Record<string, unknown>> {
  let res: Response
  try {
    res = await fetchFn(`${cfg.apiUrl.replace(/\/$/, '')}/${path}`, {
      method,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(token ? { Token: token } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (e) {
    throw new AtolUnavailable(`ATOL unreachable: ${(e as Error).message}`)
  }
  const text = await res.text()
  let json: Record<string, unknown>
  try {
    json = JSON.parse(text) as Record<string, unknown>
  } catch {
    throw new AtolUnavailable(`ATOL answered ${res.status} with a body that is not JSON`)
  }
  if (res.status >= 500) throw new AtolUnavailable(`ATOL answered ${res.status}`)
  // an answer that still names the registration (a repeated external_id) is not a refusal
  const err = json.error as AtolError | null | undefined
  if (err && typeof json.uuid !== 'string') {
    const msg = `${err.code ?? res.status}: ${err.text ?? 'error'}`
    // an expired or wrong token is ours to fix by asking for a new one: a retry, not a refusal
    if (res.status === 401) throw new AtolUnavailable(`ATOL token refused (${msg})`)
    throw new AtolRefusal(msg)
  }
  if (!res.ok) throw new AtolUnavailable(`ATOL answered ${res.status}`)
  return json
}

async function token(fetchFn: typeof fetch, cfg: AtolConfig): Promise<string> {
  const json = await call(fetchFn, cfg, 'POST', 'getToken', { login: cfg.login, pass: cfg.password })
  if (typeof json.token !== 'string' || !json.token) throw new AtolUnavailable('ATOL gave no token')
  return json.token
}

/** Sends a receipt for registration; the uuid of ATOL's registration (the same for a repeated external_id). */
export async function atolRegister(fetchFn: typeof fetch, cfg: AtolConfig, doc: ReceiptDoc, at: Date) {
  const t = await token(fetchFn, cfg)
  const json = await call(
    fetchFn,
    cfg,
    'POST',
    `${encodeURIComponent(cfg.group)}/${doc.kind}`,
    atolV5Body(doc, at),
    t,
  )
  if (typeof json.uuid !== 'string' || !json.uuid) throw new AtolUnavailable('ATOL gave no uuid')
  return json.uuid
}

export type AtolReport =
  | { status: 'wait' }
  | { status: 'done'; fiscal: Record<string, unknown> }
  | { status: 'fail'; error: string }

/** Where ATOL is with a registration. */
export async function atolReport(fetchFn: typeof fetch, cfg: AtolConfig, uuid: string): Promise<AtolReport> {
  const t = await token(fetchFn, cfg)
  let json: Record<string, unknown>
  try {
    json = await call(
      fetchFn,
      cfg,
      'GET',
      `${encodeURIComponent(cfg.group)}/report/${encodeURIComponent(uuid)}`,
      undefined,
      t,
    )
  } catch (e) {
    // a report with an error object and no uuid is the cash register's refusal of the receipt
    if (e instanceof AtolRefusal) return { status: 'fail', error: e.message }
    throw e
  }
  if (json.status === 'done') {
    const p = (json.payload ?? {}) as Record<string, unknown>
    return {
      status: 'done',
      fiscal: {
        fn_number: String(p.fn_number ?? ''),
        fiscal_document_number: String(p.fiscal_document_number ?? ''),
        fiscal_document_attribute: String(p.fiscal_document_attribute ?? ''),
        receipt_datetime: String(p.receipt_datetime ?? ''),
        // the fiscal data operator's page of the check, when the cash register names one
        ...(typeof p.ofd_receipt_url === 'string' && p.ofd_receipt_url
          ? { ofd_receipt_url: p.ofd_receipt_url }
          : {}),
      },
    }
  }
  if (json.status === 'fail') {
    const err = (json.error ?? {}) as AtolError
    return { status: 'fail', error: `${err.code ?? ''}: ${err.text ?? 'error'}` }
  }
  return { status: 'wait' }
}
