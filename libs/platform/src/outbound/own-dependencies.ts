import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { AddressRange, ADDRESS_WORDS, parseAddress, parseCidr } from './address-rules';
import type { OwnDependency } from './outbound-policy';

export type HostLookup = (hostname: string) => Promise<string[]>;

/** Every address a host name resolves to (A and AAAA), as getaddrinfo gives them. */
export const systemLookup: HostLookup = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

function hostAndPort(url: string, defaultPort: number): { host: string; port: number } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  // libpq also takes the host from the query (postgres://user@/db?host=10.0.0.5); a path there is a socket.
  const queryHost = parsed.searchParams.get('host');
  const host = parsed.hostname.replace(/^\[|\]$/g, '') || (queryHost && !queryHost.startsWith('/') ? queryHost : '');
  // No host: a Unix socket (postgres:///svc?host=/run/postgresql), which no URL can reach.
  return host ? { host, port: Number(parsed.port) || defaultPort } : null;
}

/**
 * The service's own PostgreSQL and Redis as addresses and ports, resolved now. A dependency on
 * this host (loopback) is also reachable through this host's other addresses, so those are added.
 */
export async function resolveOwnDependencies(databaseUrl: string, redisUrl: string, resolve: HostLookup): Promise<OwnDependency[]> {
  const named = [
    { name: 'PostgreSQL (DATABASE_URL)', target: hostAndPort(databaseUrl, 5432) },
    { name: 'Redis (REDIS_URL)', target: hostAndPort(redisUrl, 6379) },
  ];
  const dependencies: OwnDependency[] = [];
  for (const { name, target } of named) {
    if (!target) continue;
    const resolved = isIP(target.host) ? [target.host] : await resolve(target.host).catch(() => [] as string[]);
    const ranges: AddressRange[] = resolved.filter((a) => parseAddress(a)).map((a) => parseCidr(a));
    const local = resolved.map(parseAddress).some((a) => a && (a.family === 4 ? a.value >> 24n === 127n || a.value === 0n : a.value <= 1n));
    if (local) {
      const own = Object.values(networkInterfaces())
        .flatMap((list) => list ?? [])
        .map((i) => i.address.replace(/%.*$/, ''));
      ranges.push(...ADDRESS_WORDS.loopback.map((cidr) => parseCidr(cidr)), ...own.filter((a) => parseAddress(a)).map((a) => parseCidr(a)));
    }
    dependencies.push({ name, ranges, port: target.port });
  }
  return dependencies;
}
