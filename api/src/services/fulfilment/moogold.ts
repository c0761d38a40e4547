import { asc, eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Tx } from '../../db/client'
import { orderProducts, orders, products, supplyServers } from '../../db/schema'
import { message } from '../../lib/errors'
import { hmacSha256Hex } from '../../providers/signing'
import type { DeliveryResult, Fulfiller, OrderRow } from './types'

const TIMEOUT_MS = 15_000
export const MOOGOLD_CREATE_PATH = 'order/create_order'
export const MOOGOLD_DETAIL_PATH = 'order/order_detail'

/** MooGold request auth: HMAC-SHA256 hex of payload + timestamp + path, keyed with the secret key. */
export function signMoogold(secretKey: string, payload: string, timestamp: string, path: string): string {
  return hmacSha256Hex(secretKey, `${payload}${timestamp}${path}`)
}

interface MoogoldAnswer {
  status?: boolean
  message?: string
  err_code?: string | number
  err_message?: string
  order_id?: string | number
  order_status?: string
}

/** One signed POST to the MooGold API; the parsed answer or a reason it failed. */
async function postMoogold(
  deps: ApiDeps,
  path: string,
  data: Record<string, unknown>,
  partnerOrderId: string,
): Promise<{ ok: true; answer: MoogoldAnswer } | { ok: false; reason: string }> {
  const cfg = deps.config.moogold
  if (!cfg) return { ok: false, reason: message('supplier_not_configured') }
  const payload = JSON.stringify({ path, data, partnerOrderId })
  const timestamp = String(Math.floor(Date.now() / 1000))
  let res: Response
  try {
    res = await deps.fetch(`${cfg.apiUrl.replace(/\/$/, '')}/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        timestamp,
        auth: signMoogold(cfg.secretKey, payload, timestamp, path),
        authorization: `Basic ${Buffer.from(`${cfg.partnerId}:${cfg.secretKey}`).toString('base64')}`,
      },
      body: payload,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch {
    return { ok: false, reason: message('supplier_unreachable') }
  }
  let answer: MoogoldAnswer
  try {
    answer = (await res.json()) as MoogoldAnswer
  } catch {
    return { ok: false, reason: message('supplier_failed', { reason: `HTTP ${res.status}` }) }
  }
  if (!res.ok || answer.status === false || answer.err_code !== undefined) {
    const why = answer.err_message || answer.message || `HTTP ${res.status}`
    return { ok: false, reason: message('supplier_failed', { reason: why }) }
  }
  return { ok: true, answer }
}

/**
 * Delivers supply-channel orders of games whose supplier is 'moogold': one MooGold order per line
 * (product-id = products.supplier_ref, the game's user id and server). A refusal ends the order
 * failed with the supplier's reason; "completed" answers finish it, others leave it `sent`.
 */
export const moogoldFulfiller: Fulfiller = {
  kinds: ['MooGoldOrder'],
  supplier: 'moogold',
  deliversLater: true,
  async deliver(tx: Tx, order: OrderRow, deps: ApiDeps): Promise<DeliveryResult> {
    const lines = await tx
      .select({
        id: orderProducts.id,
        quantity: orderProducts.quantity,
        supplierRef: products.supplierRef,
        title: products.title,
      })
      .from(orderProducts)
      .innerJoin(products, eq(products.id, orderProducts.productId))
      .where(eq(orderProducts.orderId, order.id))
      .orderBy(asc(orderProducts.id))
    if (lines.length === 0) return { outcome: 'failed', reason: message('fulfilment_empty_order') }
    let server = order.moogoldServerCustomId ?? ''
    if (!server && order.moogoldServer !== null) {
      const [s] = await tx
        .select({ code: supplyServers.code })
        .from(supplyServers)
        .where(eq(supplyServers.id, order.moogoldServer))
      server = s?.code ?? ''
    }
    const ids: string[] = []
    let completed = true
    for (const line of lines) {
      if (!line.supplierRef)
        return { outcome: 'failed', reason: message('supplier_product_unknown', { title: line.title }) }
      const r = await postMoogold(
        deps,
        MOOGOLD_CREATE_PATH,
        {
          category: 1,
          'product-id': line.supplierRef,
          quantity: line.quantity,
          'User ID': order.moogoldUserId ?? '',
          ...(server ? { Server: server } : {}),
        },
        `${order.id}:${line.id}`,
      )
      if (!r.ok) return { outcome: 'failed', reason: r.reason }
      if (r.answer.status !== true)
        return { outcome: 'failed', reason: message('supplier_failed', { reason: r.answer.message ?? '—' }) }
      if (r.answer.order_id !== undefined) ids.push(String(r.answer.order_id))
      if (r.answer.order_status !== 'completed') completed = false
    }
    const supplierOrderId = ids.join(',')
    if (!completed) return { outcome: 'sent', supplierOrderId }
    await tx.update(orders).set({ supplierOrderId }).where(eq(orders.id, order.id))
    return { outcome: 'done' }
  },

  /** Checks every supplier order of a `sent` order: all completed → done; refunded/failed → failed. */
  async refresh(order: OrderRow, deps: ApiDeps): Promise<DeliveryResult> {
    const ids = (order.supplierOrderId ?? '').split(',').filter(Boolean)
    if (ids.length === 0) return { outcome: 'sent' }
    let completed = true
    for (const id of ids) {
      const r = await postMoogold(deps, MOOGOLD_DETAIL_PATH, { order_id: id }, order.id)
      if (!r.ok) return { outcome: 'sent' } // not an answer about the order: ask again later
      const state = r.answer.order_status ?? ''
      if (state === 'refunded' || state === 'failed' || state === 'cancelled')
        return { outcome: 'failed', reason: message('supplier_failed', { reason: state }) }
      if (state !== 'completed') completed = false
    }
    return completed ? { outcome: 'done' } : { outcome: 'sent' }
  },
}
