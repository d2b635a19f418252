import { BlockList, isIP } from 'node:net';

/**
 * The proxies whose X-Forwarded-For is believed (`http.trustedProxies`): addresses (`10.0.0.7`) and CIDR
 * ranges (`10.0.0.0/8`, `fd00::/8`), IPv4 or IPv6. An IPv4-mapped IPv6 address (`::ffff:10.0.0.7`, as a
 * dual-stack socket reports IPv4 peers) is checked as the IPv4 address it is.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, bits] = entry.split('/');
      const family = isIP(address ?? '') === 6 ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.list.addAddress(address!, family);
      else this.list.addSubnet(address!, Number(bits), family);
    }
    this.empty = entries.length === 0;
  }

  has(address: string): boolean {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}

const unmapped = (a: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a) ? a.slice(7) : a);

/** An address or CIDR range `TrustedProxies` takes: the config's check of each entry. */
export function isAddressOrRange(entry: string): boolean {
  const [address, bits, more] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || more !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (family === 6 ? 128 : 32);
}

/**
 * The address a request came from: the socket's peer, unless that peer is a trusted proxy; then
 * X-Forwarded-For is read from the right (each proxy appends the address it was reached from), skipping
 * trusted proxies, and the first address that is not one is the client's. A forged entry further left
 * is never reached; an X-Forwarded-For from an untrusted peer is ignored. A malformed entry ends the
 * walk at the last trusted hop (never at an address the client wrote).
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: TrustedProxies,
): string {
  const remote = unmapped(peer ?? 'unknown');
  if (trusted.empty || !trusted.has(remote) || !forwardedFor) return remote;
  const hops = forwardedFor
    .split(',')
    .map((h) => unmapped(h.trim()))
    .reverse();
  let client = remote;
  for (const hop of hops) {
    if (isIP(hop) === 0) return client;
    client = hop;
    if (!trusted.has(hop)) return hop;
  }
  return client;
}

/**
 * The bucket a rate limit counts an address in: an IPv4 address as it is; an IPv6 address by its /64
 * (`2001:db8:1:2::/64`), the prefix one subscriber or host is normally given (RFC 6177), so a client cannot
 * escape a limit by rotating through the 2^64 addresses of its own network. Anything else (`unknown`) as it is.
 */
export function limitBucket(address: string): string {
  const plain = unmapped(address.split('%')[0]!);
  if (isIP(plain) !== 6) return plain;
  const [head, tail = ''] = plain.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = plain.includes('::') ? (tail ? tail.split(':') : []) : [];
  // An IPv4 tail (`::1.2.3.4`) holds two groups; it lies past the /64 either way, so it only counts.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = [...left, ...Array<string>(8 - width(left) - width(right)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The scheme a request was made with: `https` on a TLS socket; from a trusted proxy (`http.trustedProxies`),
 * what its X-Forwarded-Proto says (its last entry, the one that proxy wrote, when a client sent one too);
 * else `http`. From any other peer the header is ignored, like its X-Forwarded-For.
 */
export function requestScheme(
  peer: string | undefined,
  forwardedProto: string | undefined,
  tls: boolean,
  trusted: TrustedProxies,
): 'http' | 'https' {
  if (tls) return 'https';
  if (!forwardedProto || !trusted.has(peer ?? '')) return 'http';
  return forwardedProto.split(',').at(-1)!.trim().toLowerCase() === 'https' ? 'https' : 'http';
}
