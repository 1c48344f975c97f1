import { describe, expect, it } from 'vitest';
import {
  addressRange,
  anyAddress,
  isInternalHostname,
  isPublicAddress,
  publicOnly,
} from '../../server/preview/address-policy';

describe('preview address policy', () => {
  // [address, range]: only 'unicast' may be fetched.
  const refused: [string, string][] = [
    // IPv4 loopback, private, link-local (cloud metadata), CGNAT, unspecified, broadcast, multicast
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.255', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    // IPv4 reserved, documentation and benchmarking ranges
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['240.0.0.1', 'reserved'],
    // IPv6
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['febf:ffff::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456:789a::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378::1', 'teredo'],
    ['fd00:ec2::254', 'uniqueLocal'],
    // IPv6 forms carrying an IPv4 address are judged by that address
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:192.168.1.1', 'private'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['::8.8.8.8', 'ipv4Compatible'],
    ['4000::1', 'notGlobalUnicast'],
    // bracketed as in a URL
    ['[::1]', 'loopback'],
    // not an address at all
    ['example.com', 'invalid'],
    ['', 'invalid'],
    ['300.1.1.1', 'invalid'],
  ];
  it.each(refused)('refuses %s (%s)', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '11.0.0.1',
    '192.167.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4007:80f::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ];
  it.each(allowed)('allows the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['localhost', true],
    ['LOCALHOST.', true],
    ['foo.localhost', true],
    ['metadata', true],
    ['metadata.google.internal', true],
    ['metadata.google.internal.', true],
    ['instance-data', true],
    ['printer.local', true],
    ['router.lan', true],
    ['nas.home.arpa', true],
    ['api.svc', true],
    ['kubernetes.default.svc', true],
    ['intranet', true],
    ['example.com', false],
    ['www.internal-news.com', false],
    ['localhost.example.com', false],
    ['127.0.0.1', false],
  ])('hostname %s is internal: %s', (hostname, internal) => {
    expect(isInternalHostname(hostname)).toBe(internal);
  });

  it('allows only the default web ports and public names', () => {
    const ok = (u: string) => publicOnly.allowsUrl(new URL(u));
    expect(ok('http://example.com/')).toBe(true);
    expect(ok('https://example.com/')).toBe(true);
    expect(ok('http://example.com:443/')).toBe(true);
    expect(ok('https://example.com:80/')).toBe(true);
    expect(ok('http://example.com:8080/')).toBe(false);
    expect(ok('http://example.com:25/')).toBe(false);
    expect(ok('http://example.com:6379/')).toBe(false);
    expect(ok('http://localhost/')).toBe(false);
    expect(ok('http://metadata.google.internal/computeMetadata/v1/')).toBe(false);
  });

  it('refuses a hostname when ANY of its addresses is not public', () => {
    const url = new URL('https://example.com/');
    expect(publicOnly.allowsAddresses(['93.184.215.14'], url)).toBe(true);
    expect(publicOnly.allowsAddresses(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'], url)).toBe(true);
    expect(publicOnly.allowsAddresses(['93.184.215.14', '127.0.0.1'], url)).toBe(false);
    expect(publicOnly.allowsAddresses(['2606:4700::1', '::ffff:10.0.0.1'], url)).toBe(false);
    expect(publicOnly.allowsAddresses([], url)).toBe(false);
  });

  it('PREVIEW_ALLOW_PRIVATE lifts every rule', () => {
    const url = new URL('http://localhost:8080/');
    expect(anyAddress.allowsUrl(url)).toBe(true);
    expect(anyAddress.allowsAddresses(['127.0.0.1', '169.254.169.254'], url)).toBe(true);
  });
});
