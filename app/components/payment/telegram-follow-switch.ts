// Whether the shop has a Telegram bot for «Следить в Telegram» (the root loader's shop settings):
// apart from the section itself, which the pay page loads on demand.
import { useRouteLoaderData } from '@remix-run/react'

export function useTelegramFollow(): boolean {
  const root = useRouteLoaderData('root') as { shop?: { telegram_follow?: boolean } } | undefined
  return root?.shop?.telegram_follow === true
}
