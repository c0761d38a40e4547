// The one rule for "who is this client" (issue 19, docs/decisions/014-client-address.md):
// - the socket peer, unless it is a proxy listed in TRUST_PROXY: then X-Forwarded-For is read from
//   the right and the first hop that is not a trusted proxy is the client (hops further left were
//   written by the client itself and prove nothing);
// - in split mode the storefront calls the API over HTTP: it sends the shopper's address signed
//   with the shared JWT_SECRET (HMAC, with a timestamp), which the API believes from any peer.
import { createHmac, timingSafeEqual } from 'node:crypto'
import ipaddr from 'ipaddr.js'

export const CLIENT_SIGNATURE_HEADER = 'x-shop-client-sig'
/** How long a signed address stays valid (clock skew between storefront and API included). */
const SIGNATURE_MAX_AGE_SECONDS = 300

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number]
export interface TrustedPeers {
  has(address: string): boolean
  readonly size: number
}

/** Parses TRUST_PROXY: addresses and CIDRs, comma-separated (IPv4-mapped IPv6 counts as IPv4). */
export function parseTrustProxy(value: string): TrustedPeers {
  const ranges: Range[] = []
  for (const raw of value.split(',')) {
    const item = raw.trim()
    if (!item) continue
    if (item.includes('/')) {
      if (!ipaddr.isValidCIDR(item)) throw new Error(`«${item}» is not an address or a CIDR range`)
      const [addr, bits] = ipaddr.parseCIDR(item)
      ranges.push(
        addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
          ? [(addr as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)]
          : [addr, bits],
      )
    } else {
      if (!ipaddr.isValid(item)) throw new Error(`«${item}» is not an address or a CIDR range`)
      const addr = ipaddr.process(item)
      ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128])
    }
  }
  return {
    size: ranges.length,
    has(address: string) {
      const addr = parseAddress(address)?.addr
      if (!addr) return false
      return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))
    },
  }
}

/** An address parsed once: the object and its plain text form. */
type Parsed = { addr: ipaddr.IPv4 | ipaddr.IPv6; text: string } | null
/**
 * Addresses already parsed. Every request resolves its peer, and ipaddr.js tells the formats apart
 * by throwing, which was about a quarter of a cached API answer's time (issue 15). Bounded:
 * X-Forwarded-For values are the client's to choose.
 */
const parsedAddresses = new Map<string, Parsed>()
const PARSED_ADDRESSES_MAX = 1024
/** Longer values (no address is) are parsed every time, so the cache stays a few hundred KB. */
const PARSED_ADDRESS_MAX_LENGTH = 64

/** A socket or header address and its plain form ('::ffff:10.0.0.1' → '10.0.0.1'), or null. */
function parseAddress(value: string): Parsed {
  const known = parsedAddresses.get(value)
  if (known !== undefined) return known
  const parsed = parseAddressUncached(value)
  if (value.length > PARSED_ADDRESS_MAX_LENGTH) return parsed
  if (parsedAddresses.size >= PARSED_ADDRESSES_MAX) parsedAddresses.clear()
  parsedAddresses.set(value, parsed)
  return parsed
}

function parseAddressUncached(value: string): Parsed {
  let v = value.trim()
  // "[2001:db8::1]:443" and "203.0.113.7:51000" as some proxies write them
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(v)
  if (bracketed) v = bracketed[1]!
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(':'))
  if (!ipaddr.isValid(v)) return null
  const addr = ipaddr.process(v)
  return { addr, text: addr.toString() }
}

export function normalizeAddress(value: string): string {
  return parseAddress(value)?.text ?? value
}

function signature(secret: string, address: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`client-address\n${address}\n${timestamp}`).digest('base64url')
}

/** The header value a storefront sends with the shopper's address: "<unix seconds>.<hmac>". */
export function signClientAddress(secret: string, address: string, now = Date.now()): string {
  const ts = Math.floor(now / 1000)
  return `${ts}.${signature(secret, address, ts)}`
}

function verifySignedAddress(secret: string, address: string, value: string, now: number): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value)
  if (!m) return false
  const ts = Number(m[1])
  if (Math.abs(now / 1000 - ts) > SIGNATURE_MAX_AGE_SECONDS) return false
  const expected = Buffer.from(signature(secret, address, ts))
  const given = Buffer.from(m[2]!)
  return expected.length === given.length && timingSafeEqual(expected, given)
}

export interface ClientAddressRule {
  trustProxy: TrustedPeers
  /** The shared secret a storefront signs the shopper's address with (JWT_SECRET); null: none. */
  secret: string | null
  /** The header carrying a signed address (the API's own header name). */
  addressHeader: string
}

/** The client's address for one request whose socket peer is `peer`. */
export function resolveClientAddress(
  peer: string | undefined,
  headers: Pick<Headers, 'get'>,
  rule: ClientAddressRule,
  now = Date.now(),
): string {
  const socket = peer ? normalizeAddress(peer) : 'unknown'
  const signed = headers.get(CLIENT_SIGNATURE_HEADER)
  const claimed = headers.get(rule.addressHeader)
  if (rule.secret && signed && claimed && verifySignedAddress(rule.secret, claimed, signed, now)) {
    const addr = parseAddress(claimed)
    if (addr) return addr.text
  }
  if (!rule.trustProxy.size || !rule.trustProxy.has(socket)) return socket
  const hops = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean)
  let client = socket
  for (let i = hops.length - 1; i >= 0; i--) {
    const addr = parseAddress(hops[i]!)
    if (!addr) break // garbage: believe nothing further left
    client = addr.text
    if (!rule.trustProxy.has(client)) break
  }
  return client
}
