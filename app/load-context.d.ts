import '@remix-run/node'

declare module '@remix-run/node' {
  interface AppLoadContext {
    /** How the storefront reaches the shop API: in-process or over HTTP (API_URL). */
    api: { baseUrl: string; fetch: (req: Request) => Promise<Response> }
    /** Address of the shopper, for the API's per-address rate limits. */
    clientAddress: string
    /** This response's Content-Security-Policy script nonce (absent under `remix vite:dev`). */
    cspNonce?: string
    /** Show the «Демо-магазин: оплата ненастоящая» strip (demo mode or sandbox payments on). */
    demoStrip?: boolean
    /** A fresh form key for this response (app/lib/shared-page.server.ts; absent under vite:dev). */
    formKey?: () => string
    /** Tells the page cache this answer went wrong after its first bytes (server/page-cache.ts). */
    spoilPage?: () => void
    /**
     * A personal fill's template render (server/personal-fill.ts): its token is nobody's, its API
     * answers hold sentinels, and a page that would be shared for guests may be kept for it.
     */
    personalTemplate?: boolean
  }
}
