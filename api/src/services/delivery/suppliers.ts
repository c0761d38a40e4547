// Who may deliver a game's orders (decision 042). `manual` (a person at the delivery desk) is the
// default of a new game; `moogold` calls MooGold; `sandbox` "delivers" at once and exists only
// where sandbox payments are on (demo, tests, a staging shop with SANDBOX_PAYMENTS=1).
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import type { ApiConfig } from '../../env'
import { games } from '../../db/schema'
import { refuseField } from '../../lib/domain-error'

export const SUPPLIERS = ['manual', 'moogold', 'sandbox'] as const
export type Supplier = (typeof SUPPLIERS)[number]

/** A supplier chosen in the back-office: `sandbox` is refused where sandbox payments are off. */
export function checkSupplier(supplier: Supplier | undefined, config: Pick<ApiConfig, 'sandboxPayments'>) {
  if (supplier === 'sandbox' && !config.sandboxPayments) throw refuseField('supplier', 'supplier_sandbox_off')
}

/**
 * At start-up without sandbox payments: games still saying `sandbox` (a database the demo seeded,
 * or made before `manual` existed) are moved to `manual`, so their paid orders wait for a person
 * instead of being marked done with nothing delivered. Returns the games moved (the caller logs
 * their names). A no-op where sandbox payments are on.
 */
export async function retireSandboxSuppliers(
  db: Db,
  config: Pick<ApiConfig, 'sandboxPayments'>,
): Promise<Array<{ id: number; title: string }>> {
  if (config.sandboxPayments) return []
  const moved = await db
    .update(games)
    .set({ supplier: 'manual' })
    .where(eq(games.supplier, 'sandbox'))
    .returning({ id: games.id, title: games.title })
  return moved.sort((a, b) => a.id - b.id)
}
