import { Form, Link, NavLink, useLocation } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useT } from '#app/i18n/i18n-context'
import { ownPath } from '#app/lib/return-to'
import { useAccountData } from './user-account-data'

/**
 * `?name=1` added to the current page's URL: how the account popups are opened. Only the query
 * changes; the path is the page's own, collapsed so that it can never name another host.
 */
export function usePopupHref(name: 'auth' | 'last-orders'): string {
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  params.set(name, '1')
  return `${ownPath(location.pathname)}?${params}`
}

/**
 * The header's account links: sign-in for guests; profile, last orders and sign-out otherwise.
 * A signed-in user's three links do not fit one 360 px row next to the logo and the catalogue
 * links, so phones get them in a `<details>` menu (works without JavaScript) and wider screens
 * inline; CSS shows one of the two.
 */
export function UserMenu() {
  const t = useT()
  const { user } = useAccountData()
  // a client-side navigation keeps the header: close the phone menu when the page changes
  const menu = useRef<HTMLDetailsElement>(null)
  const { key } = useLocation()
  useEffect(() => {
    if (key && menu.current) menu.current.open = false
  }, [key])
  if (!user) return <GuestMenu />
  const name = user.nickname || t('account.profile')
  return (
    <>
      <nav className="site-header__account site-header__account--wide" aria-label={t('account.user_menu')}>
        <AccountLinks name={name} />
      </nav>
      <details className="account-menu" ref={menu}>
        <summary className="account-menu__toggle">
          {/* the whole name, of which CSS shows the first letter: the page holds the name as it
              is, which a signed-in page made from a template can fill in (decision 098) */}
          <span className="account-menu__initial" aria-hidden="true">
            <span className="account-menu__letter">{name}</span>
          </span>
          <span className="visually-hidden">{t('account.user_menu')}</span>
        </summary>
        <nav className="account-menu__list" aria-label={t('account.user_menu')}>
          <AccountLinks name={name} />
        </nav>
      </details>
    </>
  )
}

function GuestMenu() {
  const t = useT()
  const authHref = usePopupHref('auth')
  return (
    <div className="site-header__account">
      <Link to={authHref} preventScrollReset rel="nofollow">
        {t('account.sign_in')}
      </Link>
    </div>
  )
}

function AccountLinks({ name }: { name: string }) {
  const t = useT()
  const lastOrdersHref = usePopupHref('last-orders')
  const location = useLocation()
  return (
    <>
      <Link to={lastOrdersHref} preventScrollReset rel="nofollow">
        {t('account.last_orders.link')}
      </Link>
      <NavLink to="/profile">{name}</NavLink>
      {/* a document navigation: the page starts over without the signed-out user's state, and the
          stored cart, cleared by the answer's Clear-Site-Data, is read afresh */}
      <Form method="post" action="/auth/logout" reloadDocument>
        <input type="hidden" name="returnTo" value={`${ownPath(location.pathname)}${location.search}`} />
        <button type="submit" className="button">
          {t('account.sign_out')}
        </button>
      </Form>
    </>
  )
}
