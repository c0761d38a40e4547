import { useLocation } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { ownPath } from '#app/lib/return-to'
import { AuthForm } from './auth-form'
import { useAccountData } from './user-account-data'
import { UserDialog } from './user-dialog'

/** The page's URL without the popup's parameter (its close link); never another host's. */
function withoutParam(pathname: string, search: string, name: string): string {
  const params = new URLSearchParams(search)
  params.delete(name)
  const q = params.toString()
  return q ? `${ownPath(pathname)}?${q}` : ownPath(pathname)
}

/** The authentication popup over any page, opened by `?auth=1` (for guests only). */
export function AuthDialog() {
  const t = useT()
  const location = useLocation()
  const { user, authProviders } = useAccountData()
  const open = new URLSearchParams(location.search).get('auth') === '1'
  if (!open || user || location.pathname === '/auth') return null
  const back = withoutParam(location.pathname, location.search, 'auth')
  return (
    <UserDialog title={t('account.auth_title')} closeHref={back}>
      <AuthForm returnTo={back} providers={authProviders ?? []} />
    </UserDialog>
  )
}

export { withoutParam }
