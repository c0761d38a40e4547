// Revenue per day as bars (SVG drawn on the server, no script), with the same figures as a table
// for screen readers and for reading exact amounts.
import { useT } from '#app/i18n/i18n-context'

interface DayAmount {
  day: string
  amount: string
}

/** Kopecks from "1234.50" — integers only, for drawing. */
const minor = (amount: string) => {
  const [whole = '0', frac = ''] = amount.split('.')
  return Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2))
}

/** Every day of the period, oldest first, with zero where nothing was paid. */
export function fillDays(rows: DayAmount[], days: number, today: string): DayAmount[] {
  const byDay = new Map(rows.map((r) => [r.day, r.amount]))
  const end = Date.parse(`${today}T00:00:00Z`)
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10)
    return { day, amount: byDay.get(day) ?? '0.00' }
  })
}

export function RevenueChart({
  rows,
  currency,
  total,
}: {
  rows: DayAmount[]
  currency: string
  total: string
}) {
  const t = useT()
  const values = rows.map((r) => minor(r.amount))
  const max = Math.max(1, ...values)
  const w = 100 / rows.length
  return (
    <figure className="admin-chart">
      <svg
        viewBox="0 0 100 40"
        preserveAspectRatio="none"
        role="img"
        aria-label={t('admin.overview.revenue_chart', { currency, total })}
      >
        {values.map((v, i) => {
          const h = (v / max) * 38
          return (
            <rect
              key={rows[i]!.day}
              x={i * w + w * 0.15}
              y={40 - h}
              width={w * 0.7}
              height={h}
              className="admin-chart__bar"
            >
              <title>{`${rows[i]!.day}: ${rows[i]!.amount} ${currency}`}</title>
            </rect>
          )
        })}
      </svg>
      <figcaption className="admin-chart__axis">
        <span>{rows[0]?.day}</span>
        <span>{rows.at(-1)?.day}</span>
      </figcaption>
    </figure>
  )
}
