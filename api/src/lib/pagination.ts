import { z } from '@hono/zod-openapi'
import { wholeNumber } from './schemas'

export const DEFAULT_LIMIT = 20
export const MAX_LIMIT = 100

/** `limit`/`offset` query parameters (strings on the wire, validated as whole numbers). */
export const limitOffsetQuery = z.object({
  limit: wholeNumber({ max: MAX_LIMIT })
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' } }),
  offset: wholeNumber({ min: 0 })
    .optional()
    .openapi({ param: { name: 'offset', in: 'query' } }),
})

/** `page`/`page_size` query parameters. */
export const pageQuery = z.object({
  page: wholeNumber()
    .optional()
    .openapi({ param: { name: 'page', in: 'query' } }),
  page_size: wholeNumber({ max: MAX_LIMIT })
    .optional()
    .openapi({ param: { name: 'page_size', in: 'query' } }),
})

export function pageSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  })
}

/** Builds `{count, next, previous, results}` with links that keep the other query parameters. */
export function limitOffsetPage<T>(url: string, count: number, limit: number, offset: number, results: T[]) {
  const link = (o: number) => {
    const u = new URL(url)
    u.searchParams.set('limit', String(limit))
    if (o > 0) u.searchParams.set('offset', String(o))
    else u.searchParams.delete('offset')
    return `${u.pathname}${u.search}`
  }
  return {
    count,
    next: offset + limit < count ? link(offset + limit) : null,
    previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    results,
  }
}

export function pageNumberPage<T>(url: string, count: number, page: number, pageSize: number, results: T[]) {
  const link = (p: number) => {
    const u = new URL(url)
    u.searchParams.set('page', String(p))
    return `${u.pathname}${u.search}`
  }
  return {
    count,
    next: page * pageSize < count ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    results,
  }
}
