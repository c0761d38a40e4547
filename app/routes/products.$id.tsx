// /products/{id}: a game page with its order form (§2). A non-numeric id fails the validity check.
import type { ClientLoaderFunctionArgs } from '@remix-run/react'
import { data, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/node'
import { loadOrderForm } from '#app/components/order-form/deferred-order-form'
import { GamePage, gameMeta } from '#app/components/order-form/game-page'
import { productAction, productLoader } from '#app/components/order-form/product-page.server'
import { i18nServer } from '#app/i18n/i18n.server'
import { GAME_PAGE_STATE_KEYS, ORDER_FORM_KIND_KEYS, pickMessages } from '#app/i18n/namespaces'
import { packMessages } from '#app/i18n/translate'
import { loadLocaleMessages } from '#app/lib/locale-messages.server'
import orderFormCss from '#app/styles/order-form.css?url'
import { sharedPageHeaders } from '#app/lib/shared-page.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: orderFormCss }]
/**
 * The game page's data, with the texts that only its game's kind or the page's state shows (the
 * root's messages leave them out: app/i18n/namespaces.ts, issue 46).
 */
export async function loader(args: LoaderFunctionArgs) {
  const [page, locale] = await Promise.all([productLoader(args), i18nServer.getLocale(args.request)])
  const { game, repeating, repeatMissing, unavailable, rememberedHere } = page.data
  const keys = [
    ...(ORDER_FORM_KIND_KEYS[game.kind] ?? []),
    ...(game.playerCheck ? GAME_PAGE_STATE_KEYS.playerCheck : []),
    ...(repeating || repeatMissing ? GAME_PAGE_STATE_KEYS.repeat : []),
    ...(unavailable ? GAME_PAGE_STATE_KEYS.unavailable : []),
    ...(game.isAuthRequired ? GAME_PAGE_STATE_KEYS.signInPrompt : []),
    ...(rememberedHere ? GAME_PAGE_STATE_KEYS.remembered : []),
  ]
  const pageMessages = packMessages(pickMessages(loadLocaleMessages(locale), keys))
  return data({ ...page.data, pageMessages }, page.init ?? undefined)
}
// a signed-out visitor's page may come from the page cache (decision 038)
export const headers = sharedPageHeaders
export const action = productAction
export const meta = gameMeta

/**
 * Opened from another page of the shop: the page comes with its order form's code, so the form is
 * there with the page and nothing below it jumps (issue 50). The first load uses the server's data.
 */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [data] = await Promise.all([serverLoader<typeof productLoader>(), loadOrderForm()])
  return data
}

export default GamePage
