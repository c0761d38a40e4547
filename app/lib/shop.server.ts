// The shop's name, logo and support contacts for every page (issue 37), from /api/shop/. The name
// is remembered for this process so that every translator fills it into the messages (app/i18n/
// shop-name.server.ts). A failing answer keeps the last name known, never fails the page.
import type { AppLoadContext } from '@remix-run/node'
import { currentShopName, rememberShopName } from '#app/i18n/shop-name.server'
import { apiFor } from '#app/lib/api/client.server'

export interface ShopShell {
  name: string
  logo: string
  support_email: string
  support_phone: string
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
      }
    }
  } catch {}
  return { name: currentShopName(), logo: '', support_email: '', support_phone: '' }
}
