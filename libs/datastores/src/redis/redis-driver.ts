import type { DatastoreDriver } from '../datastore-driver';
import { REDIS_READS } from './redis-reads';
import { RedisSession } from './redis-session';
import { verifyRedis } from './redis-verify';

export const REDIS_DRIVER: DatastoreDriver<RedisSession> = {
  open: (endpoint, address, limits, signal, ca) => RedisSession.open(endpoint, address, limits, signal, ca),
  reads: REDIS_READS as unknown as DatastoreDriver<RedisSession>['reads'],
  verify: verifyRedis,
};
