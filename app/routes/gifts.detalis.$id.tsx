import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { GiftDetailPage, giftDetailMeta } from '#app/components/gifts/gift-detail-page'
import { loadGiftDetail } from '#app/components/gifts/gift-loaders.server'
import { purchaseGift } from '#app/components/gifts/gift-purchase.server'
import { giftLinks } from '#app/components/gifts/gift-links'
import { sharedPageHeaders } from '#app/lib/shared-page.server'

export const loader = (args: LoaderFunctionArgs) => loadGiftDetail(args)
// a signed-out visitor's page may come from the page cache (decision 038)
export const headers = sharedPageHeaders
export const action = (args: ActionFunctionArgs) => purchaseGift(args)
export const links = giftLinks
export const meta = giftDetailMeta
export default GiftDetailPage
