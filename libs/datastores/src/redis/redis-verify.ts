import type { DatastoreVerification } from '../datastore-verification';
import { parseInfo } from './redis-reads';
import type { RedisSession } from './redis-session';

/**
 * Reachable, signed in, and what the account may do: whether it may write is asked without
 * writing (RedisSession.writeProbe); the reads the tools need are each tried.
 */
export async function verifyRedis(session: RedisSession): Promise<DatastoreVerification> {
  const server = parseInfo(String(await session.command('INFO', 'server'))).server ?? {};
  const user = await session.command('ACL', 'WHOAMI').catch(() => null);
  const who = `Redis ${server.redis_version ?? 'of unknown version'}${user ? ` as ${user}` : ''}`;
  const write = await session.writeProbe();
  if (write === 'allowed')
    return {
      outcome: 'failed',
      detail: `${who}: the account can write (SET was accepted); the tools only read, so give them an ACL user limited to the reads (see the documentation)`,
    };
  const missing: string[] = [];
  for (const [name, ...args] of [
    ['SLOWLOG', 'GET', '1'],
    ['LATENCY', 'LATEST'],
    ['CLIENT', 'LIST'],
  ]) {
    await session.command(name, ...args).catch(() => missing.push(`${name} ${args[0]}`));
  }
  const written = write === 'refused' ? 'read-only (SET refused)' : write === 'replica' ? 'a read-only replica' : 'writes not probed (MULTI refused)';
  return { outcome: 'succeeded', detail: `${who}: ${written}${missing.length ? `; cannot run ${missing.join(', ')}` : '; runs every read of the tools'}` };
}
