import type { LoaderFunctionArgs } from '@remix-run/node'
import { siteOrigin } from '#app/lib/seo.server'

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /profile',
    'Disallow: /orders/',
    'Disallow: /auth/',
    'Disallow: /api/',
    '',
    `Sitemap: ${new URL('/sitemap.xml', origin).toString()}`,
    '',
  ].join('\n')
}

/** /robots.txt: everything open may be crawled; accounts, orders and sign-in returns may not. */
export function loader({ request }: LoaderFunctionArgs) {
  return new Response(robotsTxt(siteOrigin(request)), {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=86400' },
  })
}
