// The catalogue reads that answer ETags and 304 (app.ts) and say so in the contract
// (openapi-conventions.ts): one list for both.

/** Hono path patterns of the catalogue reads. */
export const CATALOGUE_READS = [
  '/api/games/*',
  '/api/products/*',
  '/api/gifts/*',
  '/api/faq/*',
  '/api/articles/*',
  '/api/contacts/',
] as const

/** Whether an OpenAPI path (`/api/games/{id}/`) is one of the catalogue reads. */
export function isCatalogueRead(path: string): boolean {
  return CATALOGUE_READS.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p))
}
