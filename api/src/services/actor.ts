// Who asks, as a service sees it: plain values the route reads from the request (`actorOf` in
// api/src/lib/actor.ts), so no service touches HTTP. Services take `(deps, actor, input)`.

export interface Actor {
  /** The signed-in user, or null for a guest. */
  userId: number | null
  /** The client's address, for records (code views, payments) and block lists; 'unknown' if not set. */
  address: string
  /** The client's network (IPv4 address or IPv6 /CLIENT_IPV6_PREFIX), the key of per-client limits. */
  network: string
  /** The client's User-Agent (cut to a sane length by whoever records it), or null. */
  userAgent: string | null
}
