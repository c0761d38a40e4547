import { Link } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'

/** Previous / next links that keep the other query parameters (plain links: no script needed). */
export function Pager({
  page,
  count,
  pageSize,
  search,
}: {
  page: number
  count: number
  pageSize: number
  search: string
}) {
  const t = useT()
  const pages = Math.max(1, Math.ceil(count / pageSize))
  if (pages <= 1) return null
  const to = (p: number) => {
    const q = new URLSearchParams(search)
    q.set('page', String(p))
    return `?${q}`
  }
  return (
    <nav className="admin-pager" aria-label={t('admin.common.pages_label')}>
      {page > 1 ? (
        <Link to={to(page - 1)} rel="prev">
          {t('admin.common.prev')}
        </Link>
      ) : null}
      <span>{t('admin.common.page', { page, pages })}</span>
      {page < pages ? (
        <Link to={to(page + 1)} rel="next">
          {t('admin.common.next')}
        </Link>
      ) : null}
    </nav>
  )
}

/** A positive page number from the query, 1 when absent or not one. */
export function pageFrom(search: URLSearchParams): number {
  const raw = search.get('page') ?? ''
  return /^[1-9]\d{0,5}$/.test(raw) ? Number(raw) : 1
}
