export * from './redis-session';
export * from './redis-reads';
export * from './redis-verify';
export * from './redis-driver';
