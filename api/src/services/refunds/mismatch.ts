// A provider event that does not fit the shop's record (decision 111): a refund.succeeded for a
// refund the shop moved to another route or never asked for, a payment that succeeded for an order
// that can no longer take it. Never a silent 200: an audit entry (the provider as the actor) and a
// line on the order's timeline, in one transaction; the staff alert check (alerts/checks.ts,
// `provider_mismatch`) reads the audit entries and mails staff once per entry.
import type { Db, Tx } from '../../db/client'
import { auditLog } from '../../db/schema'
import { message } from '../../lib/errors'
import { recordOrderEvent } from '../orders/events'

export const PROVIDER_MISMATCH = 'provider_mismatch'

export type MismatchKind =
  /** the provider paid back a refund the shop had moved to the balance or to a person */
  | 'refund_succeeded_elsewhere'
  /** the provider paid back a refund the shop has no provider refund for */
  | 'refund_unknown'
  /** the provider took a payment the shop refused (the order was cancelled, paid, changed) */
  | 'payment_refused'

export interface ProviderMismatch {
  provider: string
  kind: MismatchKind
  orderId: string | null
  /** The provider's id of the object the event names. */
  externalId: string
  /** What the shop has (refund id and route, payment id and status). */
  shop: Record<string, unknown>
  /** What the provider says (status, amount). */
  remote: Record<string, unknown>
}

export async function recordProviderMismatch(db: Db | Tx, m: ProviderMismatch): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(auditLog).values({
      actorUserId: null,
      actorEmail: `provider:${m.provider}`,
      action: PROVIDER_MISMATCH,
      entity: m.orderId ? 'order' : 'payment',
      entityId: m.orderId ?? m.externalId,
      before: m.shop,
      after: { kind: m.kind, external_id: m.externalId, ...m.remote },
    })
    if (m.orderId)
      await recordOrderEvent(tx, m.orderId, 'attention', {
        reason: message('provider_mismatch_event'),
        what: PROVIDER_MISMATCH,
        kind: m.kind,
        provider: m.provider,
        external_id: m.externalId,
      })
  })
}
