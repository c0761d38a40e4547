// The shop's name, logo and support contacts for every page (issue 37), from /api/shop/. The name
// is remembered for this process so that every translator fills it into the messages (app/i18n/
// shop-name.server.ts). A failing answer keeps the last name known, never fails the page.
import type { AppLoadContext } from '@remix-run/node'
import { currentShopName, rememberShopName } from '#app/i18n/shop-name.server'
import { apiFor } from '#app/lib/api/client.server'
import { DEFAULT_SHOP_TIMEZONE } from '../../shared/shop-time'

export interface ShopShell {
  name: string
  logo: string
  support_email: string
  support_phone: string
  /** When support answers, the owner's words (issue 50); '' when not said. */
  support_hours: string
  /** The shop has a Telegram bot: the pay page offers «Следить в Telegram» (issue 49). */
  telegram_follow: boolean
  /** The shop's time zone every time is shown in (decision 136). */
  time_zone: string
  /** The owner's line under the name in the footer (issue 47); '' for the built-in one. */
  tagline: string
}

export async function loadShop(request: Request, context: AppLoadContext): Promise<ShopShell> {
  try {
    const { data } = await apiFor(request, context).client.GET('/api/shop/')
    if (data) {
      rememberShopName(data.name)
      return {
        name: data.name,
        logo: data.logo,
        support_email: data.support_email,
        support_phone: data.support_phone,
        support_hours: data.support_hours ?? '',
        telegram_follow: data.telegram_follow === true,
        time_zone: data.time_zone ?? DEFAULT_SHOP_TIMEZONE,
        tagline: data.tagline ?? '',
      }
    }
  } catch {}
  return {
    name: currentShopName(),
    logo: '',
    support_email: '',
    support_phone: '',
    support_hours: '',
    telegram_follow: false,
    time_zone: DEFAULT_SHOP_TIMEZONE,
    tagline: '',
  }
}
