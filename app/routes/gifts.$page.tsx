import type { LoaderFunctionArgs } from '@remix-run/node'
import { GiftListPage, giftListMeta } from '#app/components/gifts/gift-list-page'
import { loadGiftList } from '#app/components/gifts/gift-loaders.server'
import { giftLinks } from '#app/components/gifts/gift-links'

// `/gifts/{page}`. `/gifts/detalis/{id}` is its own route (a static segment outranks `$page`), and
// a bare `/gifts/detalis` lands here as a non-numeric page: the route validity 404.
export const loader = (args: LoaderFunctionArgs) => loadGiftList(args)
export const links = giftLinks
export const meta = giftListMeta
export default GiftListPage
