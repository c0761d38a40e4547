// Titles, descriptions, canonical links, Open Graph tags and schema.org JSON-LD for the pages.
//
//   export const meta: MetaFunction<typeof loader> = (args) =>
//     pageMeta(args, { title: args.data?.title ?? '', description: args.data?.description ?? '' })
//
// The canonical origin is PUBLIC_URL (else the request's origin); the root loader passes it as
// `origin`, so meta functions need no request.

import { SITE_NAME } from './site-name'

export { SITE_NAME }
const MAX_DESCRIPTION = 200

export interface SeoInput {
  title: string
  description: string
  /** Path of the canonical page, e.g. `/products/5` (query strings are not canonical). */
  path: string
  /** Absolute origin, e.g. `https://shop.example`. */
  origin: string
  /** Absolute or site-relative image for link previews. */
  image?: string | null
  type?: 'website' | 'product' | 'article'
  /** Pages that should not be indexed (e.g. an order's payment page). */
  noIndex?: boolean
}

type MetaTag =
  | { title: string }
  | { name: string; content: string }
  | { property: string; content: string }
  | { tagName: 'link'; rel: string; href: string }

export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin.replace(/\/$/, '')}/`).toString()
}

/** A description of sensible length: one line of text, cut at a word near 200 characters. */
export function shortDescription(text: string, max = MAX_DESCRIPTION): string {
  const flat = text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:—-]+$/, '')}…`
}

/** The meta descriptors of one page (Remix `meta` export). */
export function seoMeta(input: SeoInput): MetaTag[] {
  const url = absoluteUrl(input.origin, input.path)
  const description = shortDescription(input.description)
  const tags: MetaTag[] = [
    { title: input.title },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: SITE_NAME },
    { property: 'og:locale', content: 'ru_RU' },
    { property: 'og:type', content: input.type === 'product' ? 'product' : (input.type ?? 'website') },
    { property: 'og:title', content: input.title },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { name: 'twitter:card', content: input.image ? 'summary_large_image' : 'summary' },
  ]
  if (input.image) tags.push({ property: 'og:image', content: absoluteUrl(input.origin, input.image) })
  if (input.noIndex) tags.push({ name: 'robots', content: 'noindex, nofollow' })
  return tags
}

interface MetaArgsLike {
  location: { pathname: string }
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>
}

/** The site origin the root loader passed (`origin`), for meta functions. */
export function originFromMatches(matches: MetaArgsLike['matches']): string {
  const root = matches.find((m) => m?.id === 'root')?.data as { origin?: unknown } | undefined
  return typeof root?.origin === 'string' ? root.origin : 'http://localhost'
}

/** `seoMeta` for a route's `meta` export: path and origin come from the meta arguments. */
export function pageMeta(
  args: MetaArgsLike,
  input: Omit<SeoInput, 'origin' | 'path'> & { path?: string },
): MetaTag[] {
  return seoMeta({
    ...input,
    path: input.path ?? args.location.pathname,
    origin: originFromMatches(args.matches),
  })
}

// ---- schema.org JSON-LD ----

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
