import { Link } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { type GiftTab, giftListHref } from '#app/lib/view-models/gift'

/** The first and last pages and two on each side of the current one, in order. */
export function visiblePages(page: number, pageCount: number): number[] {
  const near = [1, page - 2, page - 1, page, page + 1, page + 2, pageCount]
  return [...new Set(near.filter((p) => p >= 1 && p <= pageCount))].sort((a, b) => a - b)
}

/** Previous/next and numbered page links; nothing when everything fits on one page. */
export function GiftPagination(props: { page: number; pageCount: number; tab: GiftTab; search: string }) {
  const t = useT()
  const { page, pageCount, tab, search } = props
  if (pageCount <= 1) return null
  const href = (p: number) => giftListHref({ page: p, tab, search })
  const pages = visiblePages(page, pageCount)
  return (
    <nav className="gift-pagination" aria-label={t('gifts.pagination.label')}>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className="button">
          {t('gifts.pagination.prev')}
        </Link>
      ) : null}
      <ul>
        {pages.map((p, i) => (
          <li key={p}>
            {i > 0 && p - (pages[i - 1] ?? p) > 1 ? <span aria-hidden="true">…</span> : null}
            <Link
              to={href(p)}
              className="gift-pagination__page"
              aria-current={p === page ? 'page' : undefined}
              aria-label={t('gifts.pagination.page', { page: p })}
            >
              {p}
            </Link>
          </li>
        ))}
      </ul>
      {page < pageCount ? (
        <Link to={href(page + 1)} rel="next" className="button">
          {t('gifts.pagination.next')}
        </Link>
      ) : null}
    </nav>
  )
}
