import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which hosts the preview fetcher may connect to (SSRF guard). Only public unicast addresses on
 * the default web ports qualify; everything a server could reach but the public Internet could
 * not (loopback, private networks, link-local incl. cloud metadata, CGNAT, multicast, reserved
 * and documentation ranges, IPv6 forms that embed such an IPv4 address) is refused.
 */

/** Names that only mean something inside a network (cloud metadata, mDNS, split-horizon DNS). */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain|corp|svc)$/;
const INTERNAL_NAMES = new Set(['metadata', 'metadata.google.internal', 'instance-data', 'kubernetes.default']);

/** Ports a public page may be served on. Anything else could probe other services (SMTP, Redis...). */
export const DEFAULT_PORTS: ReadonlySet<number> = new Set([80, 443]);

/** A hostname as URL gives it, without IPv6 brackets or a trailing dot, lowercase. */
export function bareHostname(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
}

/** True for names that must never be fetched whatever they resolve to. */
export function isInternalHostname(hostname: string): boolean {
  const host = bareHostname(hostname);
  if (net.isIP(host)) return false;
  return INTERNAL_NAMES.has(host) || INTERNAL_NAME.test(host) || !host.includes('.');
}

/**
 * The range an address falls in, in ipaddr.js's words ('unicast' for a public address), with
 * IPv6 addresses that carry an IPv4 address (mapped, NAT64) classified by that IPv4 address.
 * Unparsable input gives 'invalid'.
 */
export function addressRange(address: string): string {
  const bare = canonical(bareHostname(address));
  if (!bare || !ipaddr.isValid(bare)) return 'invalid';
  const ip = ipaddr.parse(bare);
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'ipv4Mapped') return v6.toIPv4Address().range();
  if (range === 'rfc6052') return embeddedIPv4(v6).range();
  // ::/96 (deprecated IPv4-compatible), outside 2000::/3 (not allocated as global unicast).
  if (range !== 'unicast') return range;
  const parts = v6.parts;
  if (parts.slice(0, 6).every((p) => p === 0)) return 'ipv4Compatible';
  if (((parts[0] ?? 0) & 0xe000) !== 0x2000) return 'notGlobalUnicast';
  return range;
}

/**
 * IPv6 in the WHATWG URL parser's canonical form, as the connection would use it (ipaddr.js
 * reads '::127.0.0.1' as IPv4-mapped; it is the IPv4-compatible ::7f00:1). IPv4 is unchanged.
 */
function canonical(address: string): string | null {
  if (!address.includes(':')) return address;
  try {
    return bareHostname(new URL(`http://[${address}]/`).hostname);
  } catch {
    return null;
  }
}

function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 {
  const [a = 0, b = 0] = ip.parts.slice(6);
  return new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]);
}

/** True only for an address on the public Internet. */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'unicast';
}

/**
 * Decides whether one hop (the first URL or a redirect) may be fetched: its URL before any DNS
 * query, then every address its hostname resolved to.
 */
export interface HopPolicy {
  allowsUrl(url: URL): boolean;
  allowsAddresses(addresses: string[], url: URL): boolean;
}

function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The production rule: default ports, no internal names, and every resolved address public. */
export const publicOnly: HopPolicy = {
  allowsUrl: (url) => DEFAULT_PORTS.has(portOf(url)) && !isInternalHostname(url.hostname),
  allowsAddresses: (addresses) => addresses.length > 0 && addresses.every(isPublicAddress),
};

/** PREVIEW_ALLOW_PRIVATE=true (tests only): any address and port. */
export const anyAddress: HopPolicy = {
  allowsUrl: () => true,
  allowsAddresses: () => true,
};
