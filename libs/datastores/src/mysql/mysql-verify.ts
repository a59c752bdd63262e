import type { DatastoreVerification } from '../datastore-verification';
import type { MysqlQuery, MysqlSession } from './mysql-session';

/** Privileges that write data or definitions, or hand privileges on: more than investigations need. */
const WRITING = new Set([
  'ALL PRIVILEGES',
  'SUPER',
  'INSERT',
  'UPDATE',
  'DELETE',
  'CREATE',
  'DROP',
  'ALTER',
  'INDEX',
  'CREATE VIEW',
  'CREATE ROUTINE',
  'ALTER ROUTINE',
  'TRIGGER',
  'EVENT',
  'CREATE USER',
  'FILE',
  'DELETE HISTORY',
  'GRANT OPTION',
]);

/** One privilege line of SHOW GRANTS: what it grants, on what. */
interface Grant {
  privileges: string[];
  /** `*.*`, `shop.*`, `shop.orders`, `PROCEDURE shop.p`. */
  on: string;
}

/** Splits at commas outside parentheses (a column list is one item). */
function splitTopLevel(list: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of list) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      items.push(current);
      current = '';
    } else current += char;
  }
  items.push(current);
  return items.map((item) => item.trim()).filter(Boolean);
}

/**
 * A line of SHOW GRANTS as privileges on an object, or the roles it grants (`GRANT r TO u`) and
 * whether to the account itself (a user has a host part; a role granted to a role has none);
 * other lines (SET DEFAULT ROLE, REVOKE, PROXY) grant nothing the tools look at.
 */
function parseGrant(line: string): { grant?: Grant; roles?: string[]; toAccount?: boolean } {
  if (/^GRANT PROXY ON /i.test(line)) return {};
  const privileges = /^GRANT (.+?) ON (.+?) TO (?:.+?)(?: IDENTIFIED BY .*?)?( WITH .*)?$/i.exec(line);
  if (privileges) {
    const names = splitTopLevel(privileges[1]).map((item) => item.replace(/\s*\(.*\)\s*$/, '').toUpperCase());
    if (/GRANT OPTION/i.test(privileges[3] ?? '')) names.push('GRANT OPTION');
    return { grant: { privileges: names, on: privileges[2].replace(/`/g, '').trim() } };
  }
  const roles = /^GRANT (.+?) TO (.+?)(?: WITH ADMIN OPTION)?$/i.exec(line);
  if (roles) return { roles: splitTopLevel(roles[1]), toAccount: roles[2].includes('@') };
  return {};
}

/**
 * The account's privileges: SHOW GRANTS (on MariaDB that includes the grants to PUBLIC and to
 * the active role), with those of every role granted to it, active or not: MariaDB shows a
 * role's grants (its nested roles' included) to the account while the role is set, MySQL
 * through SHOW GRANTS … USING.
 */
async function accountGrants(query: MysqlQuery, mariadb: boolean): Promise<{ grants: Grant[]; unreadableRoles: string[] }> {
  const grants: Grant[] = [];
  const unreadableRoles: string[] = [];
  const read = async (statement: string) => {
    const roles: string[] = [];
    for (const row of await query<Record<string, string>>(statement)) {
      const parsed = parseGrant(String(Object.values(row)[0] ?? ''));
      if (parsed.grant) grants.push(parsed.grant);
      if (parsed.toAccount) roles.push(...(parsed.roles ?? []));
    }
    return [...new Set(roles)];
  };
  const roles = await read('SHOW GRANTS');
  if (roles.length === 0) return { grants, unreadableRoles };
  if (mariadb) {
    for (const role of roles) {
      try {
        // Only this session's role changes; it ends with the session.
        await query(`SET ROLE ${role}`);
        await read('SHOW GRANTS');
      } catch {
        unreadableRoles.push(role);
      }
    }
    await query('SET ROLE DEFAULT').catch(() => undefined);
  } else {
    try {
      await read(`SHOW GRANTS FOR CURRENT_USER() USING ${roles.join(', ')}`);
    } catch {
      unreadableRoles.push(...roles);
    }
  }
  return { grants, unreadableRoles };
}

const has = (grants: Grant[], privilege: string, on: (target: string) => boolean) =>
  grants.some((g) => on(g.on) && (g.privileges.includes(privilege) || g.privileges.includes('ALL PRIVILEGES') || g.privileges.includes('ALL')));
const everywhere = (target: string) => target === '*.*';

/**
 * What the account may do, read in the session the tools use: an account with a writing
 * privilege anywhere (ALL PRIVILEGES, SUPER, INSERT, UPDATE, DELETE, CREATE, DROP, ALTER, GRANT
 * OPTION and the like, on *.* or on any database or table) is more than investigations need
 * (verify fails and says so); one without PROCESS works but sees only its own connections, and
 * none of the InnoDB transactions and lock waits (verify succeeds and says what to grant).
 */
export async function verifyMysql(session: MysqlSession): Promise<DatastoreVerification> {
  const { server } = session;
  const found = await session.readOnly(async (query) => {
    const [account] = await query<{ user: string; version: string }>(`SELECT CURRENT_USER() AS \`user\`, VERSION() AS \`version\``);
    const [schema] = await query<{ Value: string }>(`SHOW GLOBAL VARIABLES WHERE Variable_name = 'performance_schema'`);
    return { account, performanceSchema: schema?.Value === 'ON', ...(await accountGrants(query, server.mariadb)) };
  });
  const user = found.account.user.replace(/@[^@]*$/, '');
  const version = found.account.version.split('-')[0];
  const who = `${server.product} ${version} as ${user}`;
  // SHOW REPLICA STATUS needs SLAVE MONITOR on MariaDB 10.5.9 and later, REPLICATION CLIENT on MySQL and older MariaDB.
  const [major, minor] = version.split('.').map(Number);
  const replicationPrivilege = server.mariadb && (major > 10 || (major === 10 && minor >= 5)) ? 'SLAVE MONITOR' : 'REPLICATION CLIENT';
  const excess = new Map<string, string[]>();
  for (const grant of found.grants)
    for (const privilege of grant.privileges)
      if (WRITING.has(privilege) || privilege === 'ALL') excess.set(grant.on, [...new Set([...(excess.get(grant.on) ?? []), privilege])]);
  const problems = [...excess.entries()].map(([on, privileges]) => `${privileges.join(', ')} on ${on}`);
  if (found.unreadableRoles.length) problems.push(`roles whose privileges it cannot read (${found.unreadableRoles.join(', ')})`);
  if (problems.length) {
    return {
      outcome: 'failed',
      detail: `${who}: the account has ${problems.join('; ')}; the tools only read, so give them an account that cannot write (PROCESS, ${replicationPrivilege} and SELECT on performance_schema, see the documentation)`,
    };
  }
  const seesAll = has(found.grants, 'PROCESS', everywhere);
  const replication = has(found.grants, replicationPrivilege, everywhere) || (server.mariadb && has(found.grants, 'REPLICA MONITOR', everywhere));
  const statements = has(found.grants, 'SELECT', (on) => everywhere(on) || on === 'performance_schema.*' || on.startsWith('performance_schema.'));
  const notes = [
    seesAll ? 'sees every connection (PROCESS)' : 'sees only its own connections: GRANT PROCESS to see the others, their transactions and lock waits',
    !found.performanceSchema
      ? 'performance_schema off (no statement timings)'
      : statements
        ? 'performance_schema on (statement timings)'
        : 'performance_schema on but not readable: GRANT SELECT ON performance_schema.* for statement timings',
    replication ? null : `cannot read replication status: GRANT ${replicationPrivilege}`,
  ].filter((note): note is string => note !== null);
  return { outcome: 'succeeded', detail: `${who}: read-only (no write privilege); ${notes.join('; ')}` };
}
