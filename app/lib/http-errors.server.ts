import { data } from '@remix-run/node'

/** 404 for a path no route matches (§8: non-fatal, 'Page not found: {path}'). */
export function pageNotFound(request: Request): never {
  const { pathname } = new URL(request.url)
  throw data({ message: `Page not found: ${pathname}` }, { status: 404 })
}

/** 404 for a route whose parameters fail its validity check (§5: 'Page Not Found: {path}'). */
export function invalidRoute(request: Request): never {
  const { pathname } = new URL(request.url)
  throw data({ message: `Page Not Found: ${pathname}` }, { status: 404 })
}

/** A positive page number from a route parameter, or a 404 via the validity check. */
export function pageParam(request: Request, raw: string | undefined): number {
  if (raw === undefined) return 1
  if (!/^[1-9]\d{0,5}$/.test(raw)) invalidRoute(request)
  return Number(raw)
}
