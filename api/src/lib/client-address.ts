// The shopper's address as the API sees it. The API never looks at sockets or X-Forwarded-For
// itself: the process in front of it (server/client-address.ts) decides the address once per
// request, by the TRUST_PROXY rule, and hands it over in this header, overwriting whatever the
// client sent. Per-address rate limits key on it.
import type { Context } from 'hono'

export const CLIENT_IP_HEADER = 'x-shop-client-ip'

/** The client's address for rate limits and logs ('unknown' when nothing in front set it). */
export function clientAddressOf(c: Context): string {
  return c.req.header(CLIENT_IP_HEADER) || 'unknown'
}
