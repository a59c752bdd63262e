import { describe, expect, it } from 'vitest';
import { Client, HttpResult } from '../support/api';
import { useBootstrappedApi } from '../support/factories';
import { untilWaitingForLock } from '../support/lock-waits';
import { until } from '../support/until';

/**
 * Known and unknown emails must take the same time to fail (decisions §2). Timing is not asserted
 * here: the test shows the cause of the difference is gone, i.e. a known account's 401 does not
 * wait for its audit write (which an unknown account has none of). The write is held back with a
 * table lock; the answer must arrive while it waits, and the event must appear once it is let go.
 */
describe('sign-in failures answer without waiting for their audit record', () => {
  const ctx = useBootstrappedApi();

  it("a known account's 401 arrives while its audit write is blocked, and the event is recorded after", async () => {
    await ctx.admin.post('/api/v1/local-users', { email: 'known@example.com', name: 'Known', password: 'the right password', role: 'viewer' });
    const holder = ctx.api.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let released = false;
    try {
      // SHARE mode lets reads through (the user lookup) but makes every insert into audit_events wait.
      await holder.query('LOCK TABLE audit_events IN SHARE MODE');
      const attempts = ['known@example.com', 'unknown@example.com'].map((email) => {
        const state: { result?: HttpResult } = {};
        void new Client(ctx.api.baseUrl).post('/api/v1/auth/local/sign-in', { email, password: 'wrong' }).then((r) => (state.result = r));
        return state;
      });
      // The known account's failure record is being written, and waits on the lock...
      await untilWaitingForLock(ctx.api.dataSource, 'INSERT INTO "audit_events"%', 10_000, 'the failed sign-in audit insert waiting on the lock');
      // ...and still both answers arrive, the same.
      await until(() => attempts.every((a) => a.result), 10_000, 'both 401s while the audit write is held');
      expect(attempts.map((a) => a.result!.status)).toEqual([401, 401]);
      expect(attempts[0].result!.body).toEqual(attempts[1].result!.body);
      await holder.rollbackTransaction();
      released = true;
    } finally {
      if (!released) await holder.rollbackTransaction();
      await holder.release();
    }
    await until(
      async () =>
        (await ctx.admin.get('/api/v1/audit-events?action=session.sign_in&outcome=failed')).body.events.some(
          (e: { detail: { email: string } }) => e.detail.email === 'known@example.com',
        ),
      10_000,
      'the failure recorded once the lock is gone',
    );
  });
});
