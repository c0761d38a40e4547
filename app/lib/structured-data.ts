// schema.org JSON-LD for product pages (games and gifts); <ProductJsonLd> renders it.
import { absoluteUrl, shortDescription } from './seo'

export type Availability = 'InStock' | 'OutOfStock'

export interface OfferInput {
  /** Money as the API sends it: a decimal string such as "199.00". */
  price: string
  inStock: boolean
  /** What this offer is for when a product has several (e.g. "60 UC"). */
  name?: string
  url?: string
  currency?: string
}

export interface ProductJsonLdInput {
  name: string
  description?: string | null
  image?: string | null
  /** Absolute origin for relative image and page URLs. */
  origin: string
  /** Path of the product's page. */
  path: string
  sku?: string | number
  brand?: string
  /** One offer (a gift) or several (a game's top-up packs). */
  offers: OfferInput | OfferInput[]
}

export interface ProductJsonLd {
  '@context': 'https://schema.org'
  '@type': 'Product'
  name: string
  url: string
  description?: string
  image?: string
  sku?: string
  brand?: { '@type': 'Brand'; name: string }
  offers: OfferJsonLd | OfferJsonLd[]
}

export interface OfferJsonLd {
  '@type': 'Offer'
  price: string
  priceCurrency: string
  availability: `https://schema.org/${Availability}`
  url: string
  name?: string
  itemCondition: 'https://schema.org/NewCondition'
}

/** A plain decimal price ("199.00"); anything else is a programming error. */
function checkedPrice(price: string): string {
  if (!/^\d+(\.\d{1,2})?$/.test(price)) throw new Error(`Not a price: ${price}`)
  return price
}

/** schema.org Product with its Offer(s): price, currency (RUB), availability (§ SEO). */
export function productJsonLd(input: ProductJsonLdInput): ProductJsonLd {
  const url = absoluteUrl(input.origin, input.path)
  const offer = (o: OfferInput): OfferJsonLd => ({
    '@type': 'Offer',
    ...(o.name ? { name: o.name } : {}),
    price: checkedPrice(o.price),
    priceCurrency: o.currency ?? 'RUB',
    availability: `https://schema.org/${o.inStock ? 'InStock' : 'OutOfStock'}`,
    itemCondition: 'https://schema.org/NewCondition',
    url: o.url ? absoluteUrl(input.origin, o.url) : url,
  })
  const description = input.description ? shortDescription(input.description, 5000) : ''
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: input.name,
    url,
    ...(description ? { description } : {}),
    ...(input.image ? { image: absoluteUrl(input.origin, input.image) } : {}),
    ...(input.sku !== undefined ? { sku: String(input.sku) } : {}),
    ...(input.brand ? { brand: { '@type': 'Brand' as const, name: input.brand } } : {}),
    offers: Array.isArray(input.offers) ? input.offers.map(offer) : offer(input.offers),
  }
}

/** JSON for an inline `<script type="application/ld+json">`: `<` escaped so it cannot close the tag. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
