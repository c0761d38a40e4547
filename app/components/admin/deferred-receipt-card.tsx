// The order card's receipts (/admin/orders/{id}) as DeferredOrderForm does the order form: the
// server renders them in full, the browser fetches their code after the page is interactive and
// keeps the server's HTML until then. The receipt card's code was what took the order card's
// first-load JavaScript over its 95 KB budget (issue 46); /admin/receipts loads it at once.
import {
  type ComponentProps,
  type ComponentType,
  type CSSProperties,
  lazy,
  Suspense,
  useEffect,
  useState,
} from 'react'
import { ReceiptCard as ServerReceiptCard } from './receipt-card'

type Props = ComponentProps<typeof ServerReceiptCard>

let loaded: ComponentType<Props> | null = null
let loading: Promise<{ default: ComponentType<Props> }> | null = null

function loadReceiptCard() {
  loading ??= import('./receipt-card').then((m) => {
    loaded = m.ReceiptCard
    return { default: m.ReceiptCard }
  })
  return loading
}

const BrowserReceiptCard = lazy(loadReceiptCard)

// the code is fetched once the browser is idle after the page's start, also for an order with no
// receipt yet: a receipt added a moment later finds it in (a new card has no server HTML to show)
if (!import.meta.env.SSR) {
  const w = window as Window & { requestIdleCallback?: (cb: () => void) => number }
  const later = w.requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 200))
  later(() => void loadReceiptCard())
}

/** The card's box takes no part in the layout: the receipts' list lays out the cards. */
const BOX: CSSProperties = { display: 'contents' }

export function DeferredReceiptCard(props: Props) {
  // how this card starts in the browser: its code already in (a later order card opened in the
  // app); the server's HTML of it on the page (the first load); else nothing to show until the code
  const [start] = useState<'ready' | 'server-html' | 'lazy'>(() =>
    import.meta.env.SSR || loaded
      ? 'ready'
      : document.getElementById(`receipt-${props.receipt.id}`)
        ? 'server-html'
        : 'lazy',
  )
  const [arrived, setArrived] = useState(loaded !== null)
  useEffect(() => {
    if (!loaded) void loadReceiptCard().then(() => setArrived(true))
  }, [])
  if (start === 'server-html' && !arrived) {
    // The server's HTML, kept as it is until the code is in: an element whose inner HTML React
    // does not own is neither hydrated nor touched by a later render. A Suspense boundary would not
    // keep it: any context change above (every revalidation, e.g. after a note is added) makes
    // React drop a boundary it cannot hydrate yet for its empty fallback (review finding L5).
    return <KeptServerHtml key="server-html" />
  }
  const Card = import.meta.env.SSR ? ServerReceiptCard : loaded
  return (
    <div key="card" style={BOX}>
      {Card ? (
        <Card {...props} />
      ) : (
        <Suspense fallback={null}>
          <BrowserReceiptCard {...props} />
        </Suspense>
      )}
    </div>
  )
}

/** A box whose inner HTML is the server's, left as it is (hydration and later renders alike). */
function KeptServerHtml() {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: an empty string: nothing is set
  return <div style={BOX} dangerouslySetInnerHTML={{ __html: '' }} suppressHydrationWarning />
}
