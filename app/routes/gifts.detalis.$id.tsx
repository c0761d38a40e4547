import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node'
import { GiftDetailPage, giftDetailMeta } from '#app/components/gifts/gift-detail-page'
import { loadGiftDetail } from '#app/components/gifts/gift-loaders.server'
import { purchaseGift } from '#app/components/gifts/gift-purchase.server'
import { giftLinks } from '#app/components/gifts/gift-links'

export const loader = (args: LoaderFunctionArgs) => loadGiftDetail(args)
export const action = (args: ActionFunctionArgs) => purchaseGift(args)
export const links = giftLinks
export const meta = giftDetailMeta
export default GiftDetailPage
