import { useRouteLoaderData } from '@remix-run/react'
import type { loadAccountShell } from '#app/lib/account.server'

/** What the root loader spreads into its data from loadAccountShell (typed here, not through root.tsx,
 * whose components use this hook: importing root's loader type made an import cycle). */
type AccountShell = Awaited<ReturnType<typeof loadAccountShell>>['account']

/** The account part of the root loader's data (user, popups, chat widget). */
export function useAccountData() {
  const data = useRouteLoaderData('root') as Partial<AccountShell> | undefined
  return {
    user: data?.user ?? null,
    authProviders: data?.authProviders ?? null,
    lastOrders: data?.lastOrders ?? null,
    chatWidgetUrl: data?.chatWidgetUrl ?? null,
  }
}
