export * from './datastore.types';
export * from './datastore-verification';
export * from './datastore-client';
export * from './postgresql';
