import type { LoaderFunctionArgs } from '@remix-run/node'
import { GiftListPage, giftListMeta } from '#app/components/gifts/gift-list-page'
import { loadGiftList } from '#app/components/gifts/gift-loaders.server'
import { giftLinks } from '#app/components/gifts/gift-links'
import { sharedPageHeaders } from '#app/lib/shared-page.server'

// `/gifts/{page}`. `/gifts/detalis/{id}` is its own route (a static segment outranks `$page`), and
// a bare `/gifts/detalis` lands here as a non-numeric page: the route validity 404.
export const loader = (args: LoaderFunctionArgs) => loadGiftList(args)
// a signed-out visitor's page may come from the page cache (decision 038)
export const headers = sharedPageHeaders
export const links = giftLinks
export const meta = giftListMeta
export default GiftListPage
