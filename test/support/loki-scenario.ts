import type { LokiEntry } from './loki-stand-in';

const NS_PER_MS = 1_000_000n;

/**
 * An hour of a shop's logs ending at `end`, with `onset` in it: checkout serves carts all along
 * (one line every 20 s) and warns of a slow query every minute, all along too; from 10 s after the
 * onset it cannot reach inventory-db (one line every 15 s). Inventory logs on its own stream. No two lines share a nanosecond.
 */
export function shopLogs(onset: Date, end: Date): LokiEntry[] {
  const entries: LokiEntry[] = [];
  const at = (ms: number, ns = 123n) => BigInt(ms) * NS_PER_MS + ns;
  const start = end.getTime() - 3_600_000;
  const checkout = { namespace: 'shop', app: 'checkout', pod: 'checkout-7d9f8b-x2k4' };
  const inventory = { namespace: 'shop', app: 'inventory', pod: 'inventory-5c6d-q8r1' };
  for (let t = start, i = 0; t < end.getTime(); t += 20_000, i++)
    entries.push({ at: at(t), labels: checkout, line: `level=info msg="cart served" path=/api/cart/${1000 + i} status=200 took=${10 + (i % 30)}ms` });
  for (let t = start + 5_000, i = 0; t < end.getTime(); t += 60_000, i++)
    entries.push({ at: at(t), labels: checkout, line: `level=warn msg="slow query" table=orders rows=${200 + i} took=${1200 + i}ms` });
  for (let t = onset.getTime() + 10_000, i = 0; t < end.getTime(); t += 15_000, i++)
    entries.push({ at: at(t, 789n), labels: checkout, line: `level=error msg="error connecting to inventory-db:5432: connection refused" attempt=${i % 3}` });
  for (let t = start + 7_000; t < end.getTime(); t += 30_000) entries.push({ at: at(t), labels: inventory, line: 'level=info msg="stock level checked"' });
  return entries;
}
