// /products/{id}: a game page with its order form (§2). A non-numeric id fails the validity check.
import type { ClientLoaderFunctionArgs } from '@remix-run/react'
import type { LinksFunction } from '@remix-run/node'
import { loadOrderForm } from '#app/components/order-form/deferred-order-form'
import { GamePage, gameMeta } from '#app/components/order-form/game-page'
import { productAction, productLoader } from '#app/components/order-form/product-page.server'
import orderFormCss from '#app/styles/order-form.css?url'
import { sharedPageHeaders } from '#app/lib/shared-page.server'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: orderFormCss }]
export const loader = productLoader
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
