/**
 * A literal IPv4 or IPv6 address, optionally with a prefix: what an address alias entry and a pf table entry
 * are made of (pfrest Models/FirewallAlias.inc at the pinned commit: host entries `is_ipaddr`, network entries
 * `is_subnet`; Models/Table.inc: the lines of `pfctl -t NAME -T show`). No FQDN, range or alias name.
 */
export interface IpLiteral {
  readonly family: 4 | 6;
  /** The address as an unsigned integer of 32 or 128 bits. */
  readonly bits: bigint;
  /** The prefix length; the family's full length when the text had none. */
  readonly prefix: number;
  /** Whether the text carried a `/prefix`. */
  readonly hasPrefix: boolean;
}

const V4 = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})$/;
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const PREFIX = /^(0|[1-9]\d{0,2})$/;

function lengthOf(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

function parseV4(text: string): bigint | null {
  const m = V4.exec(text);
  if (m === null) return null;
  const octets = m.slice(1, 5).map(Number);
  if (octets.some((o) => o > 255)) return null;
  return octets.reduce((acc, o) => (acc << 8n) | BigInt(o), 0n);
}

/** The 16-bit groups of one side of `::` (an embedded dotted IPv4 counts two), or null. */
function groupsOf(side: string, last: boolean): readonly number[] | null {
  if (side === '') return [];
  const parts = side.split(':');
  const tail = parts[parts.length - 1] ?? '';
  const v4 = last && tail.includes('.') ? parseV4(tail) : null;
  if (last && tail.includes('.') && v4 === null) return null;
  const hex = v4 === null ? parts : parts.slice(0, -1);
  if (!hex.every((g) => HEX_GROUP.test(g))) return null;
  const groups = hex.map((g) => parseInt(g, 16));
  return v4 === null ? groups : [...groups, Number(v4 >> 16n), Number(v4 & 0xffffn)];
}

function parseV6(text: string): bigint | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0] ?? '', halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '', true) : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => 0), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
}

/** Parses a literal address or CIDR (lenient about IPv6 spelling, strict about everything else), or null. */
export function parseIpLiteral(text: unknown): IpLiteral | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > 64) return null;
  const [address = '', prefixText, extra] = text.split('/');
  if (extra !== undefined) return null;
  const family: 4 | 6 = address.includes(':') ? 6 : 4;
  const bits = family === 4 ? parseV4(address) : parseV6(address);
  if (bits === null) return null;
  if (prefixText !== undefined && !PREFIX.test(prefixText)) return null;
  const prefix = prefixText === undefined ? lengthOf(family) : Number(prefixText);
  if (prefix > lengthOf(family)) return null;
  return Object.freeze({ family, bits, prefix, hasPrefix: prefixText !== undefined });
}

function formatV6(bits: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((bits >> BigInt(112 - 16 * i)) & 0xffffn));
  // RFC 5952 §4.2: the longest run of two or more zero groups (the first of equals) becomes `::`.
  const runs = groups.map((_, i) => {
    const rest = groups.slice(i);
    const end = rest.findIndex((g) => g !== 0);
    return end === -1 ? rest.length : end;
  });
  const best = runs.reduce((b, len, i) => (len > (runs[b] ?? 0) ? i : b), 0);
  const run = runs[best] ?? 0;
  const hex = groups.map((g) => g.toString(16));
  if (run < 2) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + run).join(':')}`;
}

function formatAddress(family: 4 | 6, bits: bigint): string {
  if (family === 6) return formatV6(bits);
  return [24n, 16n, 8n, 0n].map((s) => String(Number((bits >> s) & 0xffn))).join('.');
}

/** The host bits under the prefix are all zero (a CIDR names its network, as pf stores it). */
export function isNetworkAligned(ip: IpLiteral): boolean {
  const hostBits = BigInt(lengthOf(ip.family) - ip.prefix);
  return (ip.bits & ((1n << hostBits) - 1n)) === 0n;
}

/** The canonical spelling: dotted quad / RFC 5952 lower-case, and `/prefix` exactly when the text had one. */
export function formatIpLiteral(ip: IpLiteral): string {
  const address = formatAddress(ip.family, ip.bits);
  return ip.hasPrefix ? `${address}/${ip.prefix}` : address;
}

/**
 * The comparison key of an entry: canonical address, `/prefix` only when shorter than the family's length — so
 * `192.0.2.7`, `192.0.2.7/32` and pf's own `192.0.2.7` are one key, as are the spellings of an IPv6 address.
 * Null for anything that is not a literal (a table line that is not an address never equals an entry).
 */
export function entryKeyOf(text: unknown): string | null {
  const ip = parseIpLiteral(typeof text === 'string' ? text.trim() : text);
  if (ip === null) return null;
  return formatIpLiteral({ ...ip, hasPrefix: ip.prefix !== lengthOf(ip.family) });
}

/** Two literals share at least one address (same family, and one contains the other's network). */
export function ipLiteralsOverlap(a: IpLiteral, b: IpLiteral): boolean {
  if (a.family !== b.family) return false;
  const shift = BigInt(lengthOf(a.family) - Math.min(a.prefix, b.prefix));
  return a.bits >> shift === b.bits >> shift;
}
