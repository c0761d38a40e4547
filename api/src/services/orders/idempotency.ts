import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { orders } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import type { OrderRow } from './access'

const KEY_RE = /^[\x21-\x7e]{1,255}$/

/** The Idempotency-Key header, checked: 1–255 visible ASCII characters; undefined when absent. */
export function idempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const key = header.trim()
  if (!KEY_RE.test(key)) throw refuse('idempotency_key_invalid')
  return key
}

/** JSON with object keys sorted, so equal bodies hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value ?? null)
}

/** What a key is bound to: the kind of order, the (validated) body and the caller. */
export function requestHash(kind: string, body: unknown, userId: number | null): string {
  return createHash('sha256')
    .update(canonical({ kind, body, user: userId }))
    .digest('hex')
}

/**
 * The order already made with this key, when the request is the same one again; a 409 when the
 * key was used for a different request (another body, kind or caller); null when unused.
 */
export async function findReplay(db: Db | Tx, key: string, hash: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.idempotencyKey, key))
  if (!row) return null
  if (row.requestHash !== hash) throw refuse('idempotency_conflict')
  return row
}

/** True for a unique-constraint violation, however the driver wraps it. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (typeof e === 'object' && (e as { code?: unknown }).code === '23505') return true
    e = (e as { cause?: unknown }).cause
  }
  return false
}
