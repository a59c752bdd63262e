import Redis from 'ioredis';

/**
 * Whether a Bull job of `queue` whose data mentions `needle` has finished (completed, or failed
 * for good), under the queue prefix the test API put in process.env. A finished job is the
 * positive signal that its worker is done with it and writes nothing more.
 */
export async function jobFinished(queue: string, needle: string): Promise<boolean> {
  const prefix = process.env.SVC_QUEUE_PREFIX ?? 'bull';
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for (const state of ['completed', 'failed']) {
      const ids = await redis.zrange(`${prefix}:${queue}:${state}`, 0, -1);
      for (const id of ids) {
        const data = await redis.hget(`${prefix}:${queue}:${id}`, 'data');
        if (data?.includes(needle)) return true;
      }
    }
    return false;
  } finally {
    redis.disconnect();
  }
}
