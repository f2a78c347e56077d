/**
 * IPv4 and DNS name formats (R-POOL-3, R-MD-5). Strict: a dotted quad of decimal octets without
 * leading zeros (which some parsers read as octal), prefix lengths 0–32, contiguous netmasks.
 */

const OCTET = /^(?:0|[1-9]\d{0,2})$/;

/** The address as an unsigned 32-bit number, or undefined when it is not a dotted IPv4 address. */
export function parseIPv4(s: string): number | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!OCTET.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

export const isIPv4 = (s: string): boolean => parseIPv4(s) !== undefined;

/** The netmask of a prefix length as an unsigned 32-bit number. */
export function maskBits(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

export interface ParsedMask {
  prefix: number;
  /** True when written as a dotted netmask (`255.255.255.0`), the older document's form. */
  dotted: boolean;
}

/** A mask written as a prefix length ("0"–"32") or as a contiguous dotted netmask. */
export function parseMask(mask: string): ParsedMask | undefined {
  if (/^(?:0|[1-9]\d?)$/.test(mask)) {
    const prefix = Number(mask);
    return prefix <= 32 ? { prefix, dotted: false } : undefined;
  }
  const bits = parseIPv4(mask);
  if (bits === undefined) return undefined;
  for (let prefix = 0; prefix <= 32; prefix++) {
    if (maskBits(prefix) === bits) return { prefix, dotted: true };
  }
  return undefined;
}

const network = (ip: number, prefix: number) => (ip & maskBits(prefix)) >>> 0;

/** Whether two addresses lie in the same subnet of the given prefix length. */
export function sameSubnet(a: number, b: number, prefix: number): boolean {
  return network(a, prefix) === network(b, prefix);
}

/** Whether the address is its subnet's network or broadcast address (only for prefixes ≤ 30). */
export function isNetworkOrBroadcast(ip: number, prefix: number): boolean {
  if (prefix > 30) return false;
  const host = (ip & ~maskBits(prefix)) >>> 0;
  return host === 0 || host === ~maskBits(prefix) >>> 0;
}

/** A comma-separated list of IPv4 addresses (spaces around commas allowed); the invalid items. */
export function invalidDnsItems(dns: string): string[] {
  return dns
    .split(',')
    .map((item) => item.trim())
    .filter((item) => !isIPv4(item));
}

const DNS1123_LABEL = /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/;

/** RFC 1123 label, as Kubernetes checks label values and host names: ≤ 63 chars. */
export function isDns1123Label(s: string): boolean {
  return s.length <= 63 && DNS1123_LABEL.test(s);
}

/** RFC 1123 subdomain, as Kubernetes checks most object names: ≤ 253 chars, dotted labels. */
export function isDns1123Subdomain(s: string): boolean {
  return (
    s.length <= 253 && s.split('.').every((label) => label.length > 0 && DNS1123_LABEL.test(label))
  );
}

/** Characters that reorder or hide text (bidi overrides and isolates, marks): never in a name. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/u;

/**
 * Why a name the DCS platform resolves (VM template, folder, host or cluster, switch, port group,
 * datastore cluster) cannot be one, or undefined when it can: not empty, no surrounding spaces,
 * not `.` or `..`, no `/` or `\`, no control or bidi characters, at most 255 characters.
 */
export function dcsNameProblem(s: string): string | undefined {
  if (s.trim() === '') return 'empty';
  if (s !== s.trim()) return 'spaces';
  if (s === '.' || s === '..') return 'dots';
  if (/[/\\]/.test(s)) return 'slash';
  if (CONTROL_CHARS.test(s) || BIDI_CONTROLS.test(s)) return 'control';
  if (s.length > 255) return 'long';
  return undefined;
}

/** A value as a message shows it: control and bidi characters written as `\uXXXX`, never acted on. */
export function visible(s: string): string {
  return s.replace(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
