export * from './postgresql-session';
export * from './postgresql-reads';
export * from './postgresql-verify';
export * from './postgresql-driver';
