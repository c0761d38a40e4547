// The shop's time zone on the storefront and in the back-office (decision 136): from the root
// loader's shop settings, one formatter for every time a person reads.
import { useRouteLoaderData } from '@remix-run/react'
import { DEFAULT_SHOP_TIMEZONE, formatShopTime } from '../../shared/shop-time'

/** The shop's IANA time zone («Europe/Moscow» until the API says otherwise). */
export function useShopTimeZone(): string {
  const root = useRouteLoaderData('root') as { shop?: { time_zone?: string } } | undefined
  return root?.shop?.time_zone || DEFAULT_SHOP_TIMEZONE
}

/** A formatter of API times: "2026-11-23T07:40:00Z" → «23.11.2026 10:40 МСК». */
export function useWhen(): (iso: string) => string {
  const zone = useShopTimeZone()
  return (iso) => formatShopTime(iso, zone)
}
