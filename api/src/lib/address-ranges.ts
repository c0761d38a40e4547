// Address lists a provider's callbacks must come from (YOOKASSA_NOTIFY_FROM): single addresses
// and CIDR ranges, IPv4 and IPv6 (an IPv4-mapped IPv6 address counts as its IPv4 address).
import ipaddr from 'ipaddr.js'

type Addr = ipaddr.IPv4 | ipaddr.IPv6

function plain(addr: Addr): Addr {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr
}

export function isAddressOrCidr(item: string): boolean {
  return item.includes('/') ? ipaddr.isValidCIDR(item) : ipaddr.isValid(item)
}

/** Whether `address` is inside one of `ranges` ("a.b.c.d", "a.b.c.d/n", IPv6 likewise). */
export function inRanges(address: string, ranges: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false
  const addr = plain(ipaddr.parse(address))
  return ranges.some((r) => {
    if (!isAddressOrCidr(r)) return false
    const [net, bits] = r.includes('/') ? ipaddr.parseCIDR(r) : [ipaddr.parse(r), -1]
    const n = plain(net)
    const width = bits < 0 ? (n.kind() === 'ipv4' ? 32 : 128) : n === net ? bits : Math.max(0, bits - 96)
    return n.kind() === addr.kind() && addr.match(n, width)
  })
}

/**
 * The network a client address stands for in every limit, hold, risk rule and block-list match
 * (issue 42): an IPv4 address is itself, an IPv6 address is its network of `ipv6Prefix` bits ("2001:db8:1:2::/64"),
 * since one subscriber commonly gets a whole /64 and can use any address in it. Anything else
 * ('unknown') is returned as it is.
 */
export function networkOf(address: string, ipv6Prefix: number): string {
  if (!ipaddr.isValid(address)) return address
  const addr = plain(ipaddr.parse(address))
  if (addr.kind() === 'ipv4' || ipv6Prefix >= 128) return addr.toString()
  const bytes = addr.toByteArray()
  for (let bit = ipv6Prefix; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7))
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6Prefix}`
}
