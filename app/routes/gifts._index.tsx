import type { LoaderFunctionArgs } from '@remix-run/node'
import { GiftListPage, giftListMeta } from '#app/components/gifts/gift-list-page'
import { loadGiftList } from '#app/components/gifts/gift-loaders.server'
import { giftLinks } from '#app/components/gifts/gift-links'

export const loader = (args: LoaderFunctionArgs) => loadGiftList(args)
export const links = giftLinks
export const meta = giftListMeta
export default GiftListPage
