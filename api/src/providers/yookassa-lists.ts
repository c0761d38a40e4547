// YooKassa's lists of payments and refunds (API v3 "lists of objects"), read by the reconciliation
// («Сверка», services/reconciliation): GET /payments and GET /refunds filtered by
// `created_at.gte`/`created_at.lt`, at most 100 objects a page, the next page asked with the
// `cursor` the previous one answered as `next_cursor` (absent on the last page).
import type { ApiDeps } from '../context'
import { ProviderError } from './types'
import { asPayment, asRefund, call, type YookassaPayment, type YookassaRefund } from './yookassa'

/** Objects YooKassa lists per page (its maximum). */
export const LIST_LIMIT = 100
/** A bound on the pages read for one period (100 000 objects), so a list that never ends stops. */
const LIST_MAX_PAGES = 1000

async function listAll(deps: ApiDeps, what: 'payments' | 'refunds', from: Date, to: Date) {
  const items: Record<string, unknown>[] = []
  let cursor: string | undefined
  for (let page = 0; page < LIST_MAX_PAGES; page++) {
    const q = new URLSearchParams({
      'created_at.gte': from.toISOString(),
      'created_at.lt': to.toISOString(),
      limit: String(LIST_LIMIT),
    })
    if (cursor) q.set('cursor', cursor)
    const body = await call(deps, 'GET', `/${what}?${q}`)
    if (body.type !== 'list' || !Array.isArray(body.items))
      throw new ProviderError(`yookassa answered the ${what} list with something that is not a list`)
    for (const item of body.items)
      if (item && typeof item === 'object') items.push(item as Record<string, unknown>)
    if (typeof body.next_cursor !== 'string' || !body.next_cursor) return items
    cursor = body.next_cursor
  }
  throw new ProviderError(`yookassa's ${what} list did not end after ${LIST_MAX_PAGES} pages`)
}

/** Every payment YooKassa created in [from, to). */
export async function listYookassaPayments(deps: ApiDeps, from: Date, to: Date): Promise<YookassaPayment[]> {
  return (await listAll(deps, 'payments', from, to)).map(asPayment)
}

/** Every refund YooKassa created in [from, to). */
export async function listYookassaRefunds(deps: ApiDeps, from: Date, to: Date): Promise<YookassaRefund[]> {
  return (await listAll(deps, 'refunds', from, to)).map(asRefund)
}
