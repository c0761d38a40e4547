// «Назад» / «Дальше» under a paged list of the profile (orders, balance history): plain links, so
// paging works without JavaScript; nothing when the list fits one page.
import { Link } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'

export function PrevNextPages(props: {
  label: string
  page: number
  hasPrevious: boolean
  hasNext: boolean
  href: (page: number) => string
}) {
  const t = useT()
  const { page, hasPrevious, hasNext, href } = props
  if (!hasPrevious && !hasNext) return null
  return (
    <nav className="order-history__pages" aria-label={props.label}>
      {hasPrevious ? (
        <Link to={href(page - 1)} rel="prev">
          {t('account.history.previous')}
        </Link>
      ) : null}
      {hasNext ? (
        <Link to={href(page + 1)} rel="next">
          {t('account.history.next')}
        </Link>
      ) : null}
    </nav>
  )
}
