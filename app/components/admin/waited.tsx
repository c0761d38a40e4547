// How long an order has waited for a person, in minutes or hours and minutes: the delivery desk's
// cards and the overview's oldest waiting order.
import { useT } from '#app/i18n/i18n-context'

/** «N мин» or «H ч M мин» for a wait of `seconds`. */
export function useWaitText(): (seconds: number) => string {
  const t = useT()
  return (seconds) => {
    const m = Math.floor(seconds / 60)
    return m < 60
      ? t('admin.delivery.minutes', { n: m })
      : t('admin.delivery.hours', { h: Math.floor(m / 60), m: m % 60 })
  }
}

/** «ждёт …» */
export function Waited({ seconds }: { seconds: number }) {
  const t = useT()
  const wait = useWaitText()
  return <>{t('admin.delivery.waited', { time: wait(seconds) })}</>
}
