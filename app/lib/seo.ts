// Titles, descriptions, canonical links and Open Graph tags for the pages (JSON-LD lives in
// ./structured-data, so pages without it do not load it).
//
//   export const meta: MetaFunction<typeof loader> = (args) =>
//     pageMeta(args, { title: args.data?.title ?? '', description: args.data?.description ?? '' })
//
// The canonical origin is siteOrigin() (PUBLIC_URL, or localhost in the demo; never the Host
// header); the root loader passes it as `origin`, so meta functions need no request.

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
  /** The owner's shop name for `og:site_name` (issue 37); the built-in name when not known. */
  siteName?: string
}

type MetaTag =
  | { title: string }
  | { name: string; content: string }
  | { property: string; content: string }
  | { tagName: 'link'; rel: string; href: string }

/**
 * A public link: an absolute http(s) URL as it is, anything else as a path on `origin` — leading
 * slashes collapsed, so `//evil.example/..` is a path here, not another host (issue 38, finding
 * 4: it was a 500). Never throws: what cannot be parsed is the origin's front page.
 */
export function absoluteUrl(origin: string, pathOrUrl: string): string {
  const base = `${origin.replace(/\/$/, '')}/`
  try {
    if (/^https?:\/\//i.test(pathOrUrl)) return new URL(pathOrUrl).toString()
    // `./`: a path whose first segment looks like a scheme (`/javascript:x`) stays a path
    return new URL(`./${pathOrUrl.replace(/^[/\\]+/, '')}`, base).toString()
  } catch {
    return base
  }
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
    { property: 'og:site_name', content: input.siteName || SITE_NAME },
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

/** The owner's shop name the root loader passed (`shop.name`), for meta functions. */
function siteNameFromMatches(matches: MetaArgsLike['matches']): string {
  const root = matches.find((m) => m?.id === 'root')?.data as { shop?: { name?: unknown } } | undefined
  return typeof root?.shop?.name === 'string' && root.shop.name ? root.shop.name : SITE_NAME
}

/** `seoMeta` for a route's `meta` export: path, origin and shop name come from the meta arguments. */
export function pageMeta(
  args: MetaArgsLike,
  input: Omit<SeoInput, 'origin' | 'path' | 'siteName'> & { path?: string },
): MetaTag[] {
  return seoMeta({
    ...input,
    path: input.path ?? args.location.pathname,
    origin: originFromMatches(args.matches),
    siteName: siteNameFromMatches(args.matches),
  })
}
