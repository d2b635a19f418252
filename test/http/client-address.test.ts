import { describe, expect, it } from 'vitest';
import {
  clientAddress,
  isAddressOrRange,
  limitBucket,
  requestScheme,
  TrustedProxies,
} from '../../src/http/client-address.js';

describe('clientAddress: whom the sign-in limiter counts', () => {
  const proxies = new TrustedProxies(['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);

  it.each([
    [
      'no trusted proxies: the peer, whatever X-Forwarded-For says',
      new TrustedProxies([]),
      '10.0.0.2',
      '203.0.113.9',
      '10.0.0.2',
    ],
    [
      'an untrusted peer: its own address; its X-Forwarded-For is ignored',
      proxies,
      '198.51.100.4',
      '203.0.113.9',
      '198.51.100.4',
    ],
    ['a trusted proxy: the address it was reached from', proxies, '10.0.0.2', '203.0.113.9', '203.0.113.9'],
    [
      'two trusted proxies: the first untrusted from the right',
      proxies,
      '10.0.0.2',
      '203.0.113.9, 192.168.1.5',
      '203.0.113.9',
    ],
    [
      'a forged entry left of the real client is never reached',
      proxies,
      '10.0.0.2',
      '1.2.3.4, 203.0.113.9',
      '203.0.113.9',
    ],
    ['a trusted proxy without the header: the proxy', proxies, '10.0.0.2', undefined, '10.0.0.2'],
    ['an IPv4-mapped peer is its IPv4 address', proxies, '::ffff:10.0.0.2', '203.0.113.9', '203.0.113.9'],
    ['IPv6 ranges', proxies, 'fd00::1', '2001:db8::7', '2001:db8::7'],
    ['only trusted hops: the leftmost of them', proxies, '10.0.0.2', '10.1.1.1', '10.1.1.1'],
    ['garbage in the header ends the walk at the last trusted hop', proxies, '10.0.0.2', 'not-an-address', '10.0.0.2'],
  ])('%s', (_what, trusted, peer, header, expected) => {
    expect(clientAddress(peer, header, trusted)).toBe(expected);
  });

  it.each([
    ['10.0.0.0/8', true],
    ['192.168.1.5', true],
    ['fd00::/8', true],
    ['10.0.0.0/33', false],
    ['10.0.0.0/8/1', false],
    ['proxy.internal', false],
    ['10.0.0.0/x', false],
  ])('%s is an address or range: %s', (entry, ok) => {
    expect(isAddressOrRange(entry)).toBe(ok);
  });
});

describe('limitBucket: what a rate limit counts an address as', () => {
  it.each([
    ['an IPv4 address, as it is', '203.0.113.9', '203.0.113.9'],
    ['an IPv4-mapped IPv6 address, as the IPv4 address it is', '::ffff:203.0.113.9', '203.0.113.9'],
    ['an IPv6 address, by its /64', '2001:db8:aa:bb:1234:5678:9abc:def0', '2001:db8:aa:bb::/64'],
    ['a compressed IPv6 address, by its /64', '2001:DB8::1', '2001:db8:0:0::/64'],
    ['an address with a zone, without it', 'fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['loopback', '::1', '0:0:0:0::/64'],
    ['an IPv4 tail', '64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['something that is no address, as it is', 'unknown', 'unknown'],
  ])('%s', (_, address, bucket) => {
    expect(limitBucket(address)).toBe(bucket);
  });
});

describe('requestScheme: https only from a TLS socket or a trusted proxy', () => {
  const proxies = new TrustedProxies(['10.0.0.0/8']);
  it.each([
    ['a TLS socket', '198.51.100.4', undefined, true, 'https'],
    ['a trusted proxy saying https', '10.0.0.2', 'https', false, 'https'],
    ['a trusted proxy appending its own after the client’s', '10.0.0.2', 'https, http', false, 'http'],
    ['a trusted proxy saying http', '10.0.0.2', 'http', false, 'http'],
    ['an untrusted peer saying https', '198.51.100.4', 'https', false, 'http'],
    ['a trusted proxy saying nothing', '10.0.0.2', undefined, false, 'http'],
  ] as const)('%s', (_, peer, proto, tls, scheme) => {
    expect(requestScheme(peer, proto, tls, proxies)).toBe(scheme);
  });
});
