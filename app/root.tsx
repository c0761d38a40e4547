import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import type { ShouldRevalidateFunction } from '@remix-run/react'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import { type ReactNode, useMemo } from 'react'
import { describeError, ErrorScreen } from '#app/components/error-screen'
import { useNonce } from '#app/components/nonce'
import { NotificationArea } from '#app/components/notifications/notification-area'
import { ShellEffects } from '#app/components/shell-effects'
import { SiteFooter } from '#app/components/site-footer'
import { loadShop } from '#app/lib/shop.server'
import { loadSellerLine } from '#app/lib/seller-line.server'
import { SiteHeader } from '#app/components/site-header'
import { I18nProvider } from '#app/i18n/i18n-context'
import { getServerT } from '#app/i18n/i18n.server'
import { namespaceKey, namespacesFor, POPUP_PARAMS, pickMessages } from '#app/i18n/namespaces'
import { createT, type Messages, mergeMessages, packMessages, readMessages } from '#app/i18n/translate'
import { loadAccountShell } from '#app/lib/account.server'
import { loadLocaleMessages } from '#app/lib/locale-messages.server'
import { publicSentryConfig } from '#app/lib/sentry-options'
import { SITE_NAME } from '#app/lib/site-name'
import { siteOrigin } from '#app/lib/seo.server'
import { readToasts } from '#app/lib/toast.server'
import appCss from '#app/styles/app.css?url'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: appCss },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { locale } = await getServerT(request)
  // a form post's result, flashed in a cookie by redirectWithToast: shown once, then cleared
  const flash = readToasts(request)
  // the signed-in user (only when an access cookie exists) and the account popups' data
  const [{ account, headers: accountHeaders }, seller, shop] = await Promise.all([
    loadAccountShell(request, context),
    loadSellerLine(request, context),
    loadShop(request, context),
  ])
  for (const cookie of accountHeaders.getSetCookie()) flash.headers.append('set-cookie', cookie)
  return data(
    {
      locale,
      /** Only the namespaces this page uses (app/i18n/namespaces.ts), not the whole dictionary. */
      messages: packMessages(
        pickMessages(
          loadLocaleMessages(locale),
          shownKeys(namespacesFor(new URL(request.url)), account.user),
        ),
      ),
      toasts: flash.toasts,
      /** Canonical origin for meta tags (siteOrigin(): PUBLIC_URL, never the Host header). */
      origin: siteOrigin(request),
      /** The «Демо-магазин» strip: demo mode or sandbox payments (server/create-server.ts). */
      demoStrip: context.demoStrip === true,
      /** Browser error reporting; null (and no SDK loaded) without a DSN. */
      sentry: publicSentryConfig(process.env),
      /** The footer's seller line (name, ИНН, ОГРН) from the owner's requisites; null until set. */
      seller,
      /** The owner's shop name, logo and support contacts (issue 37); the name is in the messages too. */
      shop,
      /** user (profile or null), the auth popup's providers, last orders, chat widget URL. */
      ...account,
    },
    { headers: flash.headers },
  )
}

/**
 * A guest's page leaves out the header's texts for a signed-in user (app/components/user-menu.tsx;
 * issue 46: page weight); a sign-in or out always reloads the root's data (an action, or a new
 * document).
 */
const SIGNED_IN_SHELL_KEYS = [
  'account.last_orders.link',
  'account.profile',
  'account.sign_out',
  'account.user_menu',
]

function shownKeys(keys: readonly string[] | null, user: unknown): readonly string[] | null {
  return keys && !user ? [...keys, ...SIGNED_IN_SHELL_KEYS.map((k) => `!${k}`)] : keys
}

/**
 * The root's data (messages, the account) is reloaded after an action, a sign-in or out, a flash
 * redirect, when the next page needs other message namespaces, or when the account popups open;
 * not on every navigation, paging or filter change.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate
  if (namespaceKey(currentUrl) !== namespaceKey(nextUrl)) return true
  const popups = (u: URL) => POPUP_PARAMS.map((p) => u.searchParams.get(p)).join()
  if (popups(currentUrl) !== popups(nextUrl)) return true
  // a search change alone (paging, filters) keeps the root's data; a forced reload does not
  return currentUrl.search === nextUrl.search ? defaultShouldRevalidate : false
}

/** Only the error screen's title lives here; every page sets its own. */
export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  if (!error) return []
  // the product name from the messages, or the built-in one when the root loader itself failed
  const name = data?.messages ? createT(readMessages(data.messages))('meta.product_name') : SITE_NAME
  return [{ title: `${name} ${describeError(error).status}` }]
}

/** The root loader's data as components see it (`useRouteLoaderData<typeof loader>('root')`). */
export type RootLoaderData = NonNullable<ReturnType<typeof useRouteLoaderData<typeof loader>>>

/**
 * The page's messages: the root's, and what a page's own loader adds as `pageMessages` (packed
 * the same way; the game page sends its order form's texts for its game's kind, issue 46).
 */
function usePageMessages(packed: string | undefined): Messages {
  const pageParts = useMatches()
    .map((m) => (m.data as { pageMessages?: unknown } | null | undefined)?.pageMessages)
    .filter((p): p is string => typeof p === 'string')
    .join('\n')
  return useMemo(
    () =>
      pageParts
        .split('\n')
        .filter(Boolean)
        .reduce((all, part) => mergeMessages(all, readMessages(part)), readMessages(packed)),
    [packed, pageParts],
  )
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const nonce = useNonce()
  const locale = data?.locale ?? 'ru'
  const messages = usePageMessages(data?.messages)
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f1420" />
        <Meta />
        <Links />
      </head>
      <body>
        <I18nProvider locale={locale} messages={messages}>
          <SiteHeader demoStrip={data?.demoStrip === true} logo={data?.shop?.logo ?? ''} />
          <main id="main" className="page">
            {children}
          </main>
          <SiteFooter seller={data?.seller ?? null} shop={data?.shop ?? null} />
          <NotificationArea />
          <ShellEffects sentry={data?.sentry ?? null} />
        </I18nProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App() {
  return <Outlet />
}

export function ErrorBoundary() {
  return <ErrorScreen error={useRouteError()} />
}
