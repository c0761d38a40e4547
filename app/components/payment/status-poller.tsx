import { useRevalidator } from '@remix-run/react'
import { useEffect, useRef } from 'react'

export const POLL_INTERVAL_MS = 2500

/**
 * While the shopper pays elsewhere (or the order is being delivered), asks the storefront for
 * the order status every 2.5 s; once the status or the payment status changes, the page data is
 * loaded again and polling stops (the new page decides whether to poll on).
 */
export function StatusPoller({
  orderId,
  status,
  paymentStatus,
}: {
  orderId: string
  status: string
  paymentStatus: string | null
}) {
  const revalidator = useRevalidator()
  const revalidate = useRef(revalidator.revalidate)
  revalidate.current = revalidator.revalidate

  useEffect(() => {
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const tick = async () => {
      try {
        const res = await fetch(`/orders/${orderId}/status`, {
          headers: { accept: 'application/json' },
          cache: 'no-store',
        })
        if (res.ok) {
          const now = (await res.json()) as { status?: string; paymentStatus?: string | null }
          if (now.status !== status || (now.paymentStatus ?? null) !== paymentStatus) {
            if (!stopped) revalidate.current()
            return
          }
        }
      } catch {
        // offline for a moment: try again at the next tick
      }
      if (!stopped) timer = setTimeout(tick, POLL_INTERVAL_MS)
    }
    timer = setTimeout(tick, POLL_INTERVAL_MS)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [orderId, status, paymentStatus])
  return null
}
