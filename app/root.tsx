import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react'
import type { ReactNode } from 'react'
import { describeError, ErrorScreen } from '#app/components/error-screen'
import { SiteFooter } from '#app/components/site-footer'
import { SiteHeader } from '#app/components/site-header'
import { I18nProvider } from '#app/i18n/i18n-context'
import { getServerT, messagesFor } from '#app/i18n/i18n.server'
import { createT, type Messages } from '#app/i18n/translate'
import ruCommon from '../locales/ru/common.json'
import appCss from '#app/styles/app.css?url'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: appCss },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

export async function loader({ request }: LoaderFunctionArgs) {
  const { locale } = await getServerT(request)
  return { locale, messages: messagesFor(locale) }
}

/** Only the error screen's title lives here; every page sets its own. */
export const meta: MetaFunction<typeof loader> = ({ data, error }) => {
  if (!error) return []
  const t = createT((data?.messages ?? ruCommon) as Messages)
  return [{ title: `${t('meta.product_name')} ${describeError(error).status}` }]
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root')
  const locale = data?.locale ?? 'ru'
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
        <I18nProvider locale={locale} messages={(data?.messages ?? {}) as Messages}>
          <SiteHeader />
          <main id="main" className="page">
            {children}
          </main>
          <SiteFooter />
        </I18nProvider>
        <ScrollRestoration />
        <Scripts />
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
