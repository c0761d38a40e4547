import { useT } from '#app/i18n/i18n-context'

export function StatusBadge({ status }: { status: string }) {
  const t = useT()
  return <span className={`admin-status admin-status--${status}`}>{t(`admin.status.${status}`)}</span>
}
