// A request path that starts with `//` (or `/\`) is sent to the same path with the slashes
// collapsed, before any page is rendered (issue 38, finding 4). Such a path reached the pages as
// it was: `GET //evil.invalid/login` rendered the 404 page whose popup links, built from the
// page's path, pointed at `//evil.invalid/login?auth=1` — another host — and `//evil.example/..`
// was a 500 in the canonical link. The redirect's Location is a plain path on our origin.
import type { MiddlewareHandler } from 'hono'

const DOUBLED = /^\/[/\\]/

/** `//evil.example/x?q` → `/evil.example/x?q`; null for a path that is fine as it is. */
export function collapsedTarget(pathname: string, search: string): string | null {
  if (!DOUBLED.test(pathname)) return null
  return `/${pathname.replace(/^[/\\]+/, '')}${search}`
}

export function collapseDoubledSlashes(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url)
    const target = collapsedTarget(url.pathname, url.search)
    if (target === null) return next()
    // 308 keeps the method of a form post; GETs are what browsers and crawlers send here
    return new Response(null, {
      status: c.req.method === 'GET' || c.req.method === 'HEAD' ? 301 : 308,
      headers: { location: target, 'cache-control': 'no-store' },
    })
  }
}
