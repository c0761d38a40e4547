// The order card's receipts (/admin/orders/{id}) as DeferredOrderForm does the order form: the
// server renders them in full, the browser fetches their code after the page is interactive and
// keeps the server's HTML until then. The receipt card's code was what took the order card's
// first-load JavaScript over its 95 KB budget (issue 46); /admin/receipts loads it at once.
import { type ComponentProps, type ComponentType, lazy, Suspense, useState } from 'react'
import { ReceiptCard as ServerReceiptCard } from './receipt-card'

type Props = ComponentProps<typeof ServerReceiptCard>

let loaded: ComponentType<Props> | null = null

const BrowserReceiptCard = lazy(() =>
  import('./receipt-card').then((m) => {
    loaded = m.ReceiptCard
    return { default: m.ReceiptCard }
  }),
)

export function DeferredReceiptCard(props: Props) {
  // once the chunk came (a later order card opened in the app), the card renders at once
  const [Ready] = useState(() => (import.meta.env.SSR ? ServerReceiptCard : loaded))
  return (
    <Suspense fallback={null}>{Ready ? <Ready {...props} /> : <BrowserReceiptCard {...props} />}</Suspense>
  )
}
