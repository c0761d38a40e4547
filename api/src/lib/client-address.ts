// The shopper's address as the API sees it. The API never looks at sockets or X-Forwarded-For
// itself: the process in front of it (server/client-address.ts) decides the address once per
// request, by the TRUST_PROXY rule, and hands it over in this header, overwriting whatever the
// client sent. Limits key on the client's network (clientNetworkOf); records keep the address.
import type { Context } from 'hono'
import type { AppEnv } from '../context'
import { networkOf } from './address-ranges'

export const CLIENT_IP_HEADER = 'x-shop-client-ip'

/** The client's address for records and logs ('unknown' when nothing in front set it). */
export function clientAddressOf(c: Context): string {
  return c.req.header(CLIENT_IP_HEADER) || 'unknown'
}

/**
 * Who the client is for every per-address limit, hold, risk rule and block list (issue 42): the
 * IPv4 address, or the IPv6 network of CLIENT_IPV6_PREFIX bits (64 unless set).
 */
export function clientNetworkOf(c: Context<AppEnv>): string {
  return networkOf(clientAddressOf(c), c.var.deps.config.clientIpv6Prefix)
}
