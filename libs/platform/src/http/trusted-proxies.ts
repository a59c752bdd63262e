import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

/** Names Express (proxy-addr) understands for well-known ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * SVC_TRUSTED_PROXIES (decisions §2): comma-separated addresses, CIDRs or the names loopback,
 * linklocal, uniquelocal; `none` or an empty value trusts no peer. Only a peer in this list may name the client
 * in X-Forwarded-For. Throws an Error naming the first bad entry (AppConfig reports it at boot).
 */
export function parseTrustedProxies(value: string): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0] === 'none') return [];
  for (const entry of entries) {
    if (!NAMED_RANGES.has(entry) && !isAddressOrCidr(entry)) {
      throw new Error(`SVC_TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR, loopback, linklocal or uniquelocal (or "none" alone)`);
    }
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Keeps only the rightmost run of valid IP addresses in X-Forwarded-For, so a value that is not
 * an address is never taken as the client's: Express then walks the remaining entries from the
 * right through the trusted proxies, and with none left the peer address is the client's.
 * Entries left of a bad one are client-written anyway and never trusted.
 */
export function forwardedForHygiene(req: IncomingMessage, _res: ServerResponse, next: () => void): void {
  const header = req.headers['x-forwarded-for'];
  if (header !== undefined) {
    const entries = (Array.isArray(header) ? header.join(',') : header).split(',').map((entry) => entry.trim());
    let first = entries.length;
    while (first > 0 && isIP(entries[first - 1]) !== 0) first--;
    if (first === entries.length) delete req.headers['x-forwarded-for'];
    else if (first > 0) req.headers['x-forwarded-for'] = entries.slice(first).join(', ');
  }
  next();
}
