/**
 * The shop's public origin for canonical links, sitemap.xml and robots.txt: PUBLIC_URL, or in the
 * demo (no PUBLIC_URL) http://localhost:PORT. Never the request's Host header, which any client
 * can set (issue 20 item 9: `Host: evil.example` ended up in canonical links).
 */
export function siteOrigin(
  _request?: Request,
  env: Record<string, string | undefined> = process.env,
): string {
  const configured = env.PUBLIC_URL
  if (configured && URL.canParse(configured)) return new URL(configured).origin
  const port = Number(env.PORT) || 3000
  return `http://localhost:${port}`
}
