import { useRouteLoaderData } from '@remix-run/react'
import type { loader as rootLoader } from '#app/root'

/** The account part of the root loader's data (user, popups, chat widget). */
export function useAccountData() {
  const data = useRouteLoaderData<typeof rootLoader>('root')
  return {
    user: data?.user ?? null,
    authProviders: data?.authProviders ?? null,
    lastOrders: data?.lastOrders ?? null,
    chatWidgetUrl: data?.chatWidgetUrl ?? null,
  }
}
