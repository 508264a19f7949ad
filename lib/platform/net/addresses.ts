import { BlockList, isIPv4, isIPv6 } from 'node:net'

/**
 * Which IP addresses a tenant's webhook may reach (CONTRACT section 14): public unicast only.
 *
 * IPv4: everything but the special-purpose ranges of the IANA registry (RFC 6890) that are not
 * globally reachable. IPv6: global unicast (2000::/3) only, minus its documentation, protocol and
 * 6to4 blocks; an IPv6 form that carries an IPv4 address (mapped ::ffff:0:0/96, compatible ::/96,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by that IPv4 address. Everything outside 2000::/3
 * (loopback, unspecified, unique local fc00::/7, link-local fe80::/10, multicast ff00::/8) is refused.
 */
const REFUSED_V4: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private (RFC 1918)'],
  ['100.64.0.0', 10, 'carrier-grade NAT (RFC 6598)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private (RFC 1918)'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private (RFC 1918)'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved or broadcast'],
]
const REFUSED_V6: readonly [string, number, string][] = [
  ['2001::', 23, 'IETF protocol assignments (Teredo included)'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
]

const v4Lists = REFUSED_V4.map(([net, prefix, why]) => {
  const list = new BlockList()
  list.addSubnet(net, prefix, 'ipv4')
  return { list, why }
})
const v6Lists = REFUSED_V6.map(([net, prefix, why]) => {
  const list = new BlockList()
  list.addSubnet(net, prefix, 'ipv6')
  return { list, why }
})
const GLOBAL_UNICAST = new BlockList()
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6')

/** The 8 groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 part converted). */
function groupsOf(address: string): number[] {
  let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined]
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => Number.parseInt(g, 16)) : [])
  const first = part(head)
  const last = part(tail)
  const zeros = tail === undefined ? [] : Array(8 - first.length - last.length).fill(0)
  return [...first, ...zeros, ...last]
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`

/** The IPv4 address an IPv6 form carries, if it is one of the forms that carry one. */
function embeddedV4(groups: number[]): string | undefined {
  const g = (i: number) => groups[i] ?? 0
  const zero = (from: number, to: number) => groups.slice(from, to).every((x) => x === 0)
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated but still parsed by stacks).
  if (zero(0, 5) && (g(5) === 0xffff || g(5) === 0)) return v4Of(g(6), g(7))
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix).
  if (g(0) === 0x64 && g(1) === 0xff9b && zero(2, 6)) return v4Of(g(6), g(7))
  // 2002:AABB:CCDD::/48 (6to4).
  if (g(0) === 0x2002) return v4Of(g(1), g(2))
  return undefined
}

/**
 * Why an address is not a public unicast address (e.g. "loopback"), or undefined when it is one.
 * Anything that is not an IP address at all is refused too.
 */
export function refusedBecause(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '')
  if (isIPv4(bare)) return v4Lists.find(({ list }) => list.check(bare, 'ipv4'))?.why
  if (!isIPv6(bare)) return 'not an IP address'
  const groups = groupsOf(bare)
  if (groups.slice(0, 7).every((g) => g === 0) && (groups[7] ?? 0) <= 1)
    return groups[7] ? 'loopback' : 'unspecified'
  const v4 = embeddedV4(groups)
  if (v4 !== undefined) {
    const why = refusedBecause(v4)
    return why ? `${why}, in an IPv6 form` : undefined
  }
  const normal = groups.map((g) => g.toString(16)).join(':')
  if (!GLOBAL_UNICAST.check(normal, 'ipv6')) {
    const first = groups[0] ?? 0
    if ((first & 0xfe00) === 0xfc00) return 'unique local (RFC 4193)'
    if ((first & 0xffc0) === 0xfe80) return 'link-local'
    if ((first & 0xff00) === 0xff00) return 'multicast'
    return 'not global unicast'
  }
  return v6Lists.find(({ list }) => list.check(normal, 'ipv6'))?.why
}

/** The loopback addresses the local server's development exception allows. */
export const isLoopback = (address: string): boolean => {
  const bare = address.replace(/^\[|\]$/g, '')
  if (isIPv4(bare)) return bare.startsWith('127.')
  if (!isIPv6(bare)) return false
  const groups = groupsOf(bare)
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return true
  const v4 = embeddedV4(groups)
  return v4?.startsWith('127.') ?? false
}
