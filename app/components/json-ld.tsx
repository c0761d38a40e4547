import { jsonLdText } from '#app/lib/seo'

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
