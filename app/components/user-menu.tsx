import { Form, Link, NavLink, useLocation } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { useAccountData } from './user-account-data'

/** `?name=1` added to the current page's URL: how the account popups are opened. */
export function usePopupHref(name: 'auth' | 'last-orders'): string {
  const location = useLocation()
  const params = new URLSearchParams(location.search)
  params.set(name, '1')
  return `${location.pathname}?${params}`
}

/** The header's account links: sign-in for guests; profile, last orders and sign-out otherwise. */
export function UserMenu() {
  const t = useT()
  const { user } = useAccountData()
  const authHref = usePopupHref('auth')
  const lastOrdersHref = usePopupHref('last-orders')
  const location = useLocation()
  if (!user) {
    return (
      <div className="site-header__account">
        <Link to={authHref} preventScrollReset rel="nofollow">
          {t('account.sign_in')}
        </Link>
      </div>
    )
  }
  return (
    <nav className="site-header__account" aria-label={t('account.user_menu')}>
      <Link to={lastOrdersHref} preventScrollReset rel="nofollow">
        {t('account.last_orders.link')}
      </Link>
      <NavLink to="/profile">{user.nickname || t('account.profile')}</NavLink>
      <Form method="post" action="/auth/logout">
        <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
        <button type="submit" className="button">
          {t('account.sign_out')}
        </button>
      </Form>
    </nav>
  )
}
