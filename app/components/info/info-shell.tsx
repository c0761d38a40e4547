import { Link, NavLink } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useT } from '#app/i18n/i18n-context'
import { INFO_PAGES } from './info-pages'

/** The frame of every info page: breadcrumbs, the heading and the section menu. */
export function InfoShell({
  title,
  isIndex = false,
  children,
}: {
  title: string
  /** the /info page itself: no crumb of its own section */
  isIndex?: boolean
  children: ReactNode
}) {
  const t = useT()
  return (
    <div className="info">
      <nav className="info-breadcrumbs" aria-label={t('info.breadcrumbs')}>
        <ol>
          <li>
            <Link to="/">{t('info.home')}</Link>
          </li>
          {isIndex ? null : (
            <li>
              <Link to="/info">{t('info.title')}</Link>
            </li>
          )}
          <li aria-current="page">{title}</li>
        </ol>
      </nav>
      <div className="info-layout">
        <article className="info-main">
          <h1>{title}</h1>
          {children}
        </article>
        <nav className="info-menu" aria-label={t('info.section_nav')}>
          <ul>
            {INFO_PAGES.map((p) => (
              <li key={p.path}>
                <NavLink to={p.path}>{t(`${p.key}.title`)}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </div>
  )
}
