// The one place where the API's snake_case RokkyGift becomes the storefront's camelCase view model
// (§3). Money becomes integer kopecks here, so nothing downstream parses strings; the prices are
// also formatted here, on the server, so the browser needs no money code to show them.
import { assertGiftKind } from '#app/lib/api/resourcetypes'
import { formatMoney, type Kopecks, parseMoney, toMoney } from '#app/lib/money'
import type { components } from '#openapi/schema'

type Schemas = components['schemas']
export type GiftWire = Schemas['RokkyGift']
export type GiftDetailWire = Schemas['RokkyGiftDetail']

export interface Gift {
  id: number
  title: string
  type: string
  region: string
  /** Cashback percent. */
  cashback: number
  logo: string
  /** List price. */
  price: Kopecks
  /** Discounted price, or null when there is no discount. */
  discountPrice: Kopecks | null
  /** What the gift costs now: the discounted price when there is one. */
  currentPrice: Kopecks
  discountPercent: number
  inStock: boolean
  /** Display texts: the list price and the current price ("1 090,00 ₽"). */
  priceText: string
  currentPriceText: string
  /** The current price in the wire format ("1090.00"), for structured data. */
  currentPriceWire: string
}

export interface GiftDetail extends Gift {
  description: string
  tags: string[]
  created: string
}

function money(text: string, field: string): Kopecks {
  const value = parseMoney(text)
  if (value === null) throw new TypeError(`gift ${field} is not an amount: ${text}`)
  return value
}

/** `currency` is the display sign of the locale (common.currency). */
export function toGift(wire: GiftWire, currency: string): Gift {
  assertGiftKind(wire.resourcetype)
  const price = money(wire.price, 'price')
  const discountPrice = wire.discount_price === null ? null : money(wire.discount_price, 'discount_price')
  const currentPrice = discountPrice ?? price
  return {
    id: wire.id,
    title: wire.title,
    type: wire.type,
    region: wire.region,
    cashback: wire.cashback,
    logo: wire.logo,
    price,
    discountPrice,
    currentPrice,
    discountPercent: wire.discount_percent,
    inStock: wire.in_stock,
    priceText: formatMoney(price, currency),
    currentPriceText: formatMoney(currentPrice, currency),
    currentPriceWire: toMoney(currentPrice),
  }
}

export function toGiftDetail(wire: GiftDetailWire, currency: string): GiftDetail {
  return { ...toGift(wire, currency), description: wire.description, tags: wire.tags, created: wire.created }
}

/** The storefront address of a gift (the path is spelled `detalis`, §2). */
export function giftHref(id: number): string {
  return `/gifts/detalis/${id}`
}

/** The gift lists of the catalogue, as kept in the `tab` query parameter. */
export const GIFT_TABS = ['all', 'new', 'discounted'] as const
export type GiftTab = (typeof GIFT_TABS)[number]

export function parseGiftTab(raw: string | null): GiftTab {
  return raw === 'new' || raw === 'discounted' ? raw : 'all'
}

/** `/gifts` or `/gifts/{page}` with the list's query state (tab, search). */
export function giftListHref(state: { page: number; tab: GiftTab; search: string }): string {
  const q = new URLSearchParams()
  if (state.tab !== 'all') q.set('tab', state.tab)
  if (state.search) q.set('search', state.search)
  const query = q.toString()
  return `${state.page > 1 ? `/gifts/${state.page}` : '/gifts'}${query ? `?${query}` : ''}`
}
