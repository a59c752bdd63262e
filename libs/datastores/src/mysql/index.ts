export * from './mysql-session';
export * from './mysql-reads';
export * from './mysql-verify';
export * from './mysql-driver';
