// The owner's block lists (issue 34, decision 091): an email, an email domain, a client address or
// network, a card (kept only as its keyed hash). Entries are added one by one or all at once from an
// order (its email, the addresses that started its payments, the cards that paid); every change is
// audited. The gate (gate.ts) refuses a blocked buyer's order and payment start; a payment that
// still succeeds for a blocked buyer is held for review at settlement (review.ts).
import { and, asc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type BlockKind, blockList, orders, payments } from '../../db/schema'
import { isAddressOrCidr, networkOf } from '../../lib/address-ranges'
import { refuse } from '../../lib/domain-error'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { emailKey } from '../identity/email-key'
import { formatOrderNumber } from '../../../../shared/order-number'
import { cardHash } from './card'

export type BlockRow = typeof blockList.$inferSelect

/** The kinds of entry (the back-office's form offers them). */
export { BLOCK_KINDS } from '../../db/schema'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const DOMAIN = /^(?=.{3,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/
const HASH = /^[0-9a-f]{64}$/
/** "411111******1111", "4111 11** **** 1111" or "411111 1111": a card's bin and last digits. */
const CARD = /^(\d{6})[\s*Xx•]*(\d{4})$/

/**
 * The stored value of an entry the owner typed, or a 400 with a Russian message: emails and
 * domains in lower case, addresses and networks as typed when valid, a card as its keyed hash (from
 * its first 6 and last 4 digits, or a hash copied from an order).
 */
export function normaliseBlock(kind: BlockKind, raw: string, cardKey: string): string {
  const v = raw.trim()
  switch (kind) {
    case 'email': {
      const e = v.toLowerCase()
      if (!EMAIL.test(e) || e.length > 254) throw refuse('block_value_email')
      // kept as the mailbox's key: its aliases are blocked with it (issue 42)
      return emailKey(e)
    }
    case 'domain': {
      const d = v.toLowerCase().replace(/^@/, '')
      if (!DOMAIN.test(d)) throw refuse('block_value_domain')
      return d
    }
    case 'network':
      if (v.length > 64 || !isAddressOrCidr(v)) throw refuse('block_value_network')
      return v.toLowerCase()
    case 'card': {
      const lower = v.toLowerCase()
      if (HASH.test(lower)) return lower
      const m = CARD.exec(v.replace(/\s+/g, ' '))
      const hash = m ? cardHash(cardKey, { first6: m[1], last4: m[2] }) : null
      if (!hash) throw refuse('block_value_card')
      return hash
    }
  }
}

export const listBlocks = (db: Db | Tx) => db.select().from(blockList).orderBy(asc(blockList.id))

/** Adds an entry (an existing one is returned as it is, `added` false); audited when added. */
export const addBlock = (
  db: Db,
  staff: StaffMember,
  entry: { kind: BlockKind; value: string; note: string | null },
) => db.transaction((tx) => insertBlock(tx, staff, entry))

async function insertBlock(
  tx: Tx,
  staff: StaffMember,
  entry: { kind: BlockKind; value: string; note: string | null },
): Promise<{ row: BlockRow; added: boolean }> {
  const [row] = await tx
    .insert(blockList)
    .values({ ...entry, createdBy: staff.email })
    .onConflictDoNothing()
    .returning()
  if (row) {
    await audit(tx, staff, {
      action: 'block.add',
      entity: 'block',
      entityId: row.id,
      after: { kind: row.kind, value: row.value, note: row.note },
    })
    return { row, added: true }
  }
  const [existing] = await tx
    .select()
    .from(blockList)
    .where(and(eq(blockList.kind, entry.kind), eq(blockList.value, entry.value)))
  if (!existing) throw refuse('block_conflict')
  return { row: existing, added: false }
}

/** Removes an entry; audited. False when there was none. */
export async function removeBlock(db: Db, staff: StaffMember, id: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(blockList).where(eq(blockList.id, id)).returning()
    if (!row) return false
    await audit(tx, staff, {
      action: 'block.remove',
      entity: 'block',
      entityId: row.id,
      before: { kind: row.kind, value: row.value, note: row.note },
    })
    return true
  })
}

/** What an order gives to block: its email, its payments' client addresses and cards. */
export async function orderTraits(tx: Tx, orderId: string, ipv6Prefix: number) {
  const [order] = await tx.select({ email: orders.email }).from(orders).where(eq(orders.id, orderId))
  if (!order) throw refuse('order_not_found')
  const paid = await tx
    .select({ address: payments.clientAddress, card: payments.cardHash })
    .from(payments)
    .where(eq(payments.orderId, orderId))
  const traits: Array<{ kind: BlockKind; value: string }> = []
  const seen = new Set<string>()
  const push = (kind: BlockKind, value: string | null) => {
    if (!value || value === 'unknown' || seen.has(`${kind}:${value}`)) return
    seen.add(`${kind}:${value}`)
    traits.push({ kind, value })
  }
  push('email', order.email?.trim() ? emailKey(order.email) : null)
  for (const p of paid) {
    // an IPv6 buyer's whole network (issue 42)
    push('network', p.address && isAddressOrCidr(p.address) ? networkOf(p.address, ipv6Prefix) : null)
    push('card', p.card)
  }
  return traits
}

/** Blocks everything of an order at once (email, addresses, cards); the entries added. */
export async function blockOrder(db: Db, staff: StaffMember, orderId: string, ipv6Prefix: number) {
  return db.transaction(async (tx) => {
    const traits = await orderTraits(tx, orderId, ipv6Prefix)
    const [order] = await tx.select({ number: orders.number }).from(orders).where(eq(orders.id, orderId))
    // the number people read out (decision 135); orderTraits has refused a missing order
    const note = `заказ ${order ? formatOrderNumber(order.number) : orderId}`
    const out: Array<{ row: BlockRow; added: boolean }> = []
    for (const t of traits) out.push(await insertBlock(tx, staff, { ...t, note }))
    return out
  })
}
