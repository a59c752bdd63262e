import { isIP } from 'node:net';

/** A range of addresses an outbound rule names: one family, a network and a prefix length. */
export interface AddressRange {
  /** What the operator wrote (a word or a CIDR), for messages. */
  label: string;
  family: 4 | 6;
  network: bigint;
  prefix: number;
}

/** The words SVC_OUTBOUND_DENY and SVC_OUTBOUND_ALLOW accept besides CIDRs. */
export const ADDRESS_WORDS: Record<'loopback' | 'private' | 'link-local', readonly string[]> = {
  // 0.0.0.0 and :: reach this host too when connected to.
  loopback: ['127.0.0.0/8', '::1/128', '0.0.0.0/8', '::/128'],
  // RFC 1918, shared address space (RFC 6598, carrier and cloud internal networks), unique local IPv6.
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'],
  // Link-local (cloud metadata at 169.254.169.254 included), and the metadata addresses outside it.
  'link-local': ['169.254.0.0/16', 'fe80::/10', 'fd00:ec2::254/128', '100.100.100.200/32'],
};

const BITS = { 4: 32, 6: 128 } as const;

function ipv4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBigInt(address: string): bigint {
  let text = address;
  // A trailing dotted quad (::ffff:1.2.3.4) is two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4ToBigInt(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

const NAT64_PREFIX = 0x0064ff9bn << 64n;

/**
 * An address as the policy sees it: family and number, with an IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d) or a NAT64 one (64:ff9b::a.b.c.d) taken as the IPv4 address it reaches. Null when `address` is not an IP literal.
 */
export function parseAddress(address: string): { family: 4 | 6; value: bigint } | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const withoutZone = bare.replace(/%.*$/, '');
  const family = isIP(withoutZone);
  if (family === 4) return { family: 4, value: ipv4ToBigInt(withoutZone) };
  if (family !== 6) return null;
  const value = ipv6ToBigInt(withoutZone.toLowerCase());
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  // The NAT64 well-known prefix (64:ff9b::/96) reaches the IPv4 address it embeds.
  if (value >> 32n === NAT64_PREFIX) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

/** An address for messages: an IPv4-mapped IPv6 address also shows the IPv4 address it is checked as. */
export function describeAddress(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed || parsed.family !== 4 || isIP(address) !== 6) return address;
  const v = parsed.value;
  return `${address} (${[v >> 24n, (v >> 16n) & 255n, (v >> 8n) & 255n, v & 255n].join('.')})`;
}

function mask(family: 4 | 6, prefix: number): bigint {
  const bits = BigInt(BITS[family]);
  return ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(prefix))) - 1n);
}

/** One CIDR (or a single address, taken as /32 or /128); throws with a message naming it when malformed. */
export function parseCidr(text: string, label = text): AddressRange {
  const [address, prefixText, extra] = text.split('/');
  const parsed = extra === undefined ? parseAddress(address) : null;
  if (!parsed) throw new Error(`"${text}" is not a CIDR (like 10.0.0.0/8 or fd00::/8), an IP address, or one of ${Object.keys(ADDRESS_WORDS).join(', ')}`);
  const max = BITS[parsed.family];
  // A mapped IPv6 range (::ffff:10.0.0.0/104) is the IPv4 range it maps.
  const mappedOffset = parsed.family === 4 && isIP(address) === 6 ? 96 : 0;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) - mappedOffset : NaN;
  if (!(prefix >= 0 && prefix <= max)) throw new Error(`"${text}" has a prefix length outside 0-${max + mappedOffset}`);
  return { label, family: parsed.family, network: parsed.value & mask(parsed.family, prefix), prefix };
}

/**
 * Parses a SVC_OUTBOUND_DENY / SVC_OUTBOUND_ALLOW value: comma-separated CIDRs, addresses or
 * the words loopback, private, link-local. Throws an Error whose message names the bad entry.
 */
export function parseAddressRules(text: string | undefined): AddressRange[] {
  if (!text?.trim()) return [];
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .flatMap((entry) => {
      const word = ADDRESS_WORDS[entry.toLowerCase() as keyof typeof ADDRESS_WORDS];
      return word ? word.map((cidr) => parseCidr(cidr, entry.toLowerCase())) : [parseCidr(entry)];
    });
}

/** The most specific range (longest prefix) that contains the address, if any. */
export function longestMatch(ranges: readonly AddressRange[], address: { family: 4 | 6; value: bigint }): AddressRange | undefined {
  let best: AddressRange | undefined;
  for (const range of ranges) {
    if (range.family !== address.family || (address.value & mask(range.family, range.prefix)) !== range.network) continue;
    if (!best || range.prefix > best.prefix) best = range;
  }
  return best;
}
