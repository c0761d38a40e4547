// The bar at the bottom of the order form (issue 50): what is picked, the price and the submit. It
// is sticky, so on a phone the action stays on the first screen while the packs are chosen; it is
// the form's own totals and submit, in the HTML without JavaScript too.
import type { ReactNode } from 'react'
import { useT } from '#app/i18n/i18n-context'
import type { Product } from '#app/lib/view-models/game'

interface Pick {
  products: Product[]
  quantities: Record<number, number>
  /** Before (and without) JavaScript a typed quantity is not followed: the line stays empty. */
  live: boolean
}

/** One line naming the chosen packs and their quantities («325 UC × 2, 60 UC × 1»). */
function PickSummary({ products, quantities, live }: Pick) {
  const t = useT()
  const chosen = products.filter((p) => (quantities[p.id] ?? 0) > 0)
  return (
    <p className="order-bar__pick" data-testid="order-pick">
      {!live
        ? null
        : chosen.length === 0
          ? t('products.pick_none')
          : chosen
              .map((p) => t('products.pick_item', { title: p.title, quantity: quantities[p.id] ?? 0 }))
              .join(', ')}
    </p>
  )
}

export function OrderBar({
  pick,
  totals,
  children,
}: {
  /** The packs and quantities to name, or null where the form has none (Steam's amount). */
  pick: Pick | null
  totals: ReactNode
  /** The submit button. */
  children: ReactNode
}) {
  return (
    <div className={pick ? 'order-bar' : 'order-bar order-bar--no-pick'}>
      {totals}
      {pick ? <PickSummary {...pick} /> : null}
      {children}
    </div>
  )
}
