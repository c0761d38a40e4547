import type { ApiDeps } from '../../context'
import type { Tx } from '../../db/client'
import type { OrderKind, orders } from '../../db/schema'

export type OrderRow = typeof orders.$inferSelect

/** What a supplier did with a paid order. */
export type DeliveryResult =
  | { outcome: 'done' } // delivered now (codes taken from inventory, top-up confirmed)
  | { outcome: 'sent'; supplierOrderId?: string } // accepted by the supplier, completion follows
  | { outcome: 'manual' } // handed to a person at the delivery desk (stays `sent` until they act)
  | { outcome: 'failed'; reason: string } // nothing delivered; the order ends failed with this reason

/** Delivers paid orders of some kinds. Runs inside the transaction that moves the order to sending. */
export interface Fulfiller {
  kinds: readonly OrderKind[]
  /** Only for games whose `supplier` column has this value (e.g. 'moogold'); any supplier when unset. */
  supplier?: string
  /** Delivers after the payment (a person, or a supplier that confirms later): the payment is an advance. */
  deliversLater?: true
  deliver(tx: Tx, order: OrderRow, deps: ApiDeps): Promise<DeliveryResult>
  /** For orders left `sent`: asks the supplier whether they are finished (no transaction held). */
  refresh?(order: OrderRow, deps: ApiDeps): Promise<DeliveryResult>
}
