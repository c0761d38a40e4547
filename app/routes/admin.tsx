// /admin: the back-office shell (staff only; everyone else gets the unknown-address 404).
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { NavLink, Outlet, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import { useMemo } from 'react'
import { I18nProvider, useT } from '#app/i18n/i18n-context'
import { type Messages, readMessages } from '#app/i18n/translate'
import { ADMIN_MESSAGES, staffApi } from '#app/lib/admin/admin.server'
import type { RootLoaderData } from '#app/root'
import { SHOP_VERSION } from '#app/lib/version.server'
import adminCss from '#app/styles/admin.css?url'

export const links = () => [{ rel: 'stylesheet', href: adminCss }]

export const meta: MetaFunction = () => [{ name: 'robots', content: 'noindex, nofollow' }]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, me } = await staffApi(request, context)
  const headers = new Headers(api.headers)
  headers.set('cache-control', 'no-store')
  return data({ me, messages: ADMIN_MESSAGES, version: SHOP_VERSION }, { headers })
}

/** The sections; support members see the orders only. */
const SECTIONS = [
  { to: '/admin', key: 'overview', owner: true, end: true },
  { to: '/admin/orders', key: 'orders', owner: false },
  { to: '/admin/delivery', key: 'delivery', owner: false },
  { to: '/admin/data-requests', key: 'data_requests', owner: false, label: 'admin.data_requests.nav' },
  { to: '/admin/telegram', key: 'telegram', owner: false },
  { to: '/admin/games', key: 'games', owner: true },
  { to: '/admin/gifts', key: 'gifts', owner: true },
  { to: '/admin/articles', key: 'articles', owner: true },
  { to: '/admin/stock', key: 'stock', owner: true },
  { to: '/admin/promo', key: 'promo', owner: true },
  { to: '/admin/payments', key: 'payments', owner: true },
  { to: '/admin/reconciliation', key: 'reconciliation', owner: true },
  { to: '/admin/seller', key: 'seller', owner: true, label: 'admin.seller.nav' },
  { to: '/admin/receipts', key: 'receipts', owner: true, label: 'admin.receipts.nav' },
  { to: '/admin/kinds', key: 'kinds', owner: true },
  { to: '/admin/audit', key: 'audit', owner: true },
  { to: '/admin/shop', key: 'shop', owner: true },
  { to: '/admin/antifraud', key: 'antifraud', owner: true },
  { to: '/admin/blocks', key: 'blocks', owner: true },
] as const

function AdminNav({ role }: { role: 'owner' | 'support' }) {
  const t = useT()
  return (
    <nav className="admin-nav" aria-label={t('admin.nav.label')}>
      <ul>
        {SECTIONS.filter((s) => role === 'owner' || !s.owner).map((s) => (
          <li key={s.key}>
            <NavLink to={s.to} end={'end' in s ? s.end : false} prefetch="intent">
              {t('label' in s ? s.label : `admin.nav.${s.key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}

export default function AdminLayout() {
  const { me, messages, version } = useLoaderData<typeof loader>()
  const root = useRouteLoaderData('root') as RootLoaderData | undefined
  const all = useMemo(
    () => ({ ...readMessages(root?.messages), admin: messages as Messages }),
    [root?.messages, messages],
  )
  return (
    <I18nProvider locale={root?.locale ?? 'ru'} messages={all}>
      <AdminShell me={me} version={version} />
    </I18nProvider>
  )
}

function AdminShell({ me, version }: { me: { email: string; role: 'owner' | 'support' }; version: string }) {
  const t = useT()
  return (
    <div className="admin">
      <header className="admin__head">
        <p className="admin__title">{t('admin.title')}</p>
        <p className="admin__who">
          {me.email} · {t(`admin.roles.${me.role}`)}
        </p>
      </header>
      <AdminNav role={me.role} />
      <div className="admin__body">
        <Outlet />
      </div>
      <footer className="admin__foot">{t('admin.version', { version })}</footer>
    </div>
  )
}
