import { Link, useLocation } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { withoutParam } from './auth-dialog'
import { useAccountData } from './user-account-data'
import { UserDialog } from './user-dialog'
import { UserOrderList } from './user-order-list'

/** The last-orders popup (§2, §4): orders created within 24 hours, opened by `?last-orders=1`. */
export function LastOrdersDialog() {
  const t = useT()
  const location = useLocation()
  const { user, lastOrders } = useAccountData()
  if (!user || !lastOrders) return null
  const back = withoutParam(location.pathname, location.search, 'last-orders')
  return (
    <UserDialog title={t('account.last_orders.title')} closeHref={back}>
      {lastOrders.length === 0 ? (
        <p className="user-dialog__empty">{t('account.last_orders.empty')}</p>
      ) : (
        <div className="last-orders">
          <UserOrderList orders={lastOrders} />
        </div>
      )}
      <p className="user-dialog__more">
        <Link to="/profile">{t('account.last_orders.all')}</Link>
      </p>
    </UserDialog>
  )
}
