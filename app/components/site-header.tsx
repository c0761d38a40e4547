import { Link, NavLink, useLocation } from '@remix-run/react'
import { lazy, Suspense } from 'react'
import { useT } from '#app/i18n/i18n-context'
import { UserChatWidget } from './user-chat-widget'
import { UserMenu } from './user-menu'

// Loaded only on a URL that opens a popup (the server renders it too, so it works without JS).
const AccountPopups = lazy(() => import('./account-popups'))
const POPUP_PARAMS = /[?&](auth|last-orders)=1(&|$)/

export function SiteHeader({ demoStrip = false, logo = '' }: { demoStrip?: boolean; logo?: string }) {
  const t = useT()
  const { search } = useLocation()
  return (
    <>
      <header className="site-header">
        <a className="skip-link" href="#main">
          {t('nav.skip_to_content')}
        </a>
        {/* demo mode or sandbox payments: nobody should mistake this shop for a real one */}
        {demoStrip ? <p className="demo-strip">{t('shell.demo_strip')}</p> : null}
        <div className="site-header__inner">
          <Link to="/" className="logo" aria-label={t('meta.product_name')}>
            {/* the owner's logo (issue 37) or the built-in mark */}
            <img src={logo || '/images/logo.svg'} alt="" width="32" height="32" />
            <span>{t('meta.product_name')}</span>
          </Link>
          <nav aria-label={t('nav.main_menu')} className="site-nav">
            <NavLink to="/" end>
              {t('nav.catalogue')}
            </NavLink>
            <NavLink to="/gifts">{t('nav.gifts')}</NavLink>
          </nav>
          <UserMenu />
        </div>
      </header>
      {/* account popups kept in the URL (?auth=1, ?last-orders=1) and the support chat */}
      {POPUP_PARAMS.test(search) ? (
        <Suspense fallback={null}>
          <AccountPopups />
        </Suspense>
      ) : null}
      <UserChatWidget />
    </>
  )
}
