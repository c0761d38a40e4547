import { useLocation, useRouteLoaderData } from '@remix-run/react'
import { jsonLdText, type ProductJsonLdInput, productJsonLd } from '#app/lib/structured-data'

/**
 * Structured data for search engines. A `application/ld+json` block is data, not a script, so the
 * Content-Security-Policy does not need a nonce for it.
 *
 *   <JsonLd data={productJsonLd({ name, origin, path, offers })} />
 */
export function JsonLd({ data }: { data: unknown }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped JSON, see jsonLdText
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
}

/** The shop's canonical origin, as the root loader found it (siteOrigin(): never the Host header). */
export function useSiteOrigin(): string {
  const root = useRouteLoaderData('root') as { origin?: string } | undefined
  return root?.origin ?? ''
}

/**
 * schema.org Product/Offer JSON-LD for the current page (origin and path filled in). Renders
 * nothing when there is no offer.
 *
 *   <ProductJsonLd name={gift.title} image={gift.logo} description={gift.description}
 *     offers={{ price: toMoney(gift.currentPrice), inStock: gift.inStock }} />
 */
export function ProductJsonLd(props: Omit<ProductJsonLdInput, 'origin' | 'path'> & { path?: string }) {
  const origin = useSiteOrigin()
  const { pathname } = useLocation()
  const offers = Array.isArray(props.offers) ? props.offers : [props.offers]
  if (!origin || offers.length === 0) return null
  return <JsonLd data={productJsonLd({ ...props, origin, path: props.path ?? pathname })} />
}
