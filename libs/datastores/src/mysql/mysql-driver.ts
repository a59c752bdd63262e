import type { DatastoreDriver } from '../datastore-driver';
import { MYSQL_READS, readMysql } from './mysql-reads';
import type { MysqlRead } from './mysql-reads';
import { MysqlSession } from './mysql-session';
import { verifyMysql } from './mysql-verify';

export const MYSQL_DRIVER: DatastoreDriver<MysqlSession> = {
  open: (endpoint, address, limits, signal, ca) => MysqlSession.open(endpoint, address, limits, signal, ca),
  reads: Object.fromEntries(
    Object.keys(MYSQL_READS).map((name) => [name, (session: MysqlSession, args: Record<string, unknown>) => readMysql(session, name as MysqlRead, args)]),
  ),
  verify: verifyMysql,
};
