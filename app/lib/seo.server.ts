/** The shop's public origin: PUBLIC_URL when set (behind a proxy), else the request's own. */
export function siteOrigin(request: Request): string {
  const configured = process.env.PUBLIC_URL
  if (configured && URL.canParse(configured)) return new URL(configured).origin
  return new URL(request.url).origin
}
