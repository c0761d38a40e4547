import type { LoaderFunctionArgs } from '@remix-run/node'
import { apiFor, must } from '#app/lib/api/client.server'
import { siteOrigin } from '#app/lib/seo.server'

/** Open pages that are not in the catalogue: home, gift lists and the info pages. */
export const STATIC_PATHS = [
  '/',
  '/gifts',
  '/info',
  '/info/contacts',
  '/info/privacy-policy',
  '/info/user-agreement',
  '/info/refunds',
  '/info/consent',
  '/info/TextBlock',
]

const PAGE = 100
/** A safety stop for a catalogue gone wrong: 50 000 URLs is a sitemap's limit. */
const MAX_PAGES = 500

/**
 * Every item of a limit/offset list, page after page until `next` is empty. A list the API cannot
 * give is logged and left out: the rest of the sitemap is still worth serving.
 */
async function collect<T>(
  what: string,
  fetchPage: (offset: number) => Promise<{ results: T[]; next?: string | null }>,
): Promise<T[]> {
  const items: T[] = []
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const { results, next } = await fetchPage(page * PAGE)
      items.push(...results)
      if (!next || results.length === 0) break
    }
  } catch (error) {
    console.error(`sitemap.xml: could not list ${what}`, error)
  }
  return items
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

export function sitemapXml(origin: string, paths: string[]): string {
  const urls = [...new Set(paths)].map(
    (p) => `  <url><loc>${escapeXml(new URL(p, origin).toString())}</loc></url>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

/** /sitemap.xml: every game page (all pages of GET /api/games/), every gift, the info pages. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { client } = apiFor(request, context)
  const [games, gifts] = await Promise.all([
    collect('games', (offset) =>
      must(client.GET('/api/games/', { params: { query: { limit: PAGE, offset } } })),
    ),
    collect('gifts', (offset) =>
      must(client.GET('/api/gifts/', { params: { query: { limit: PAGE, offset } } })),
    ),
  ])
  const paths = [
    ...STATIC_PATHS,
    ...games.filter((g) => g.is_active !== false).map((g) => `/products/${g.id}`),
    ...gifts.map((g) => `/gifts/detalis/${g.id}`),
  ]
  return new Response(sitemapXml(siteOrigin(request), paths), {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  })
}
