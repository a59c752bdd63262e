export * from './datastore.types';
export * from './datastore-verification';
export * from './datastore-client';
export * from './datastore-driver';
export * from './postgresql';
export * from './mysql';
export * from './redis';
