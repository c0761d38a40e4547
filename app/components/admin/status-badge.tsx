import { useT } from '#app/i18n/i18n-context'

export function StatusBadge({ status }: { status: string }) {
  const t = useT()
  return <span className={`admin-status admin-status--${status}`}>{t(`admin.status.${status}`)}</span>
}

/** "2026-11-23T07:40:00.000Z" → "23.11.2026 07:40" (UTC, as the API stores it). */
export function formatWhen(iso: string): string {
  const d = iso.slice(0, 16)
  return `${d.slice(8, 10)}.${d.slice(5, 7)}.${d.slice(0, 4)} ${d.slice(11, 16)}`
}
