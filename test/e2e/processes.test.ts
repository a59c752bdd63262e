import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, withServer } from '../support/databases';
import { DIST_APPS as DIST, ensureBuilt } from '../support/dist';
import { freePort } from '../support/ports';
import { until } from '../support/until';

function run(script: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(DIST, script)], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The built processes, as `npm start` / `npm run start:api` run them. */
describe('processes', () => {
  beforeAll(() => {
    // The same `npm run build` that `npm start` runs, once per test run.
    ensureBuilt();
  }, 180_000);

  it('a bad setting stops the API before it starts, with a message naming the variable', async () => {
    const result = await run('api/src/main.js', { PORT: 'eighty', SVC_PUBLIC_URL: 'not a url', SVC_SECRET_KEY: 'short' });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('PORT="eighty"');
    expect(result.stderr).toContain('SVC_PUBLIC_URL');
    expect(result.stderr).toContain('SVC_SECRET_KEY=(hidden)');
    expect(result.stderr).not.toContain('short');
  });

  it('the worker refuses bad settings the same way', async () => {
    const result = await run('worker/src/main.js', { REDIS_URL: 'http://nope' });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('REDIS_URL');
  });

  it('the API refuses to start on a database with pending migrations', async () => {
    const name = `svc_test_unmigrated_${process.pid}`;
    await withServer((c) => c.query(`CREATE DATABASE "${name}"`));
    try {
      const result = await run('api/src/main.js', { DATABASE_URL: databaseUrl(name), PORT: '0', LOG_LEVEL: 'silent' });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('pending migrations');
    } finally {
      await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  });

  describe('npm start (the launcher)', () => {
    const name = `svc_test_launcher_${process.pid}`;
    let launcher: ChildProcess | undefined;
    let output = '';
    let port: number;
    const bootstrapBody = JSON.stringify({
      organization: { id: 'first', displayName: 'First' },
      user: { email: 'op@example.com', name: 'Operator', password: 'a long enough password' },
    });
    const bootstrapWith = (credential: string) =>
      fetch(`http://127.0.0.1:${port}/api/v1/auth/local/bootstrap`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
        body: bootstrapBody,
      });
    /** The logged credential used (after a wrong one) and used again, once for whichever test needs it first. */
    let bootstrapped: Promise<{ credential: string; wrong: Response; first: Response; again: Response }> | undefined;
    const bootstrapOnce = () =>
      (bootstrapped ??= (async () => {
        await running();
        const credential = /"bootstrapCredential":"([A-Za-z0-9_-]+)"/.exec(output)?.[1];
        if (!credential) throw new Error(`no bootstrap credential in the log:\n${output}`);
        const wrong = await bootstrapWith('wrong');
        const first = await bootstrapWith(credential);
        const again = await bootstrapWith(credential);
        return { credential, wrong, first, again };
      })());

    /** Starts the launcher (output accumulates across starts) and waits until the API answers and the worker started. */
    async function launch(): Promise<void> {
      const started = output.split('Worker started').length - 1;
      launcher = spawn(process.execPath, [join(DIST, 'launcher/src/main.js')], {
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: databaseUrl(name),
          PORT: String(port),
          SVC_QUEUE_PREFIX: `launcher${process.pid}`,
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const child = launcher;
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      await until(
        async () => {
          if (child.exitCode !== null) throw new Error(`launcher exited:\n${output}`);
          try {
            return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200 && output.split('Worker started').length - 1 > started;
          } catch {
            return false; // not up yet
          }
        },
        60_000,
        'the launcher to come up',
      );
    }
    /** The launcher, started again if a test stopped it, so every test can run alone and in any order. */
    const running = async () => {
      if (!launcher || launcher.exitCode !== null || launcher.signalCode !== null) await launch();
    };

    beforeAll(async () => {
      port = await freePort();
      await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      await launch();
    }, 90_000);

    afterAll(async () => {
      if (launcher && launcher.exitCode === null) {
        await new Promise<void>((resolve) => {
          launcher!.once('exit', () => resolve());
          launcher!.kill('SIGTERM');
        });
      }
      await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    });

    it('creates the missing database, migrates it, and runs the API and a worker', async () => {
      await running();
      expect(output).toContain(`created database ${name}`);
      expect(output).toMatch(/applied migrations: Initial\d+/);
      const meta = await fetch(`http://127.0.0.1:${port}/api/v1/meta`);
      expect(meta.status).toBe(200);
      expect(await meta.json()).toMatchObject({ contractVersion: '0.1.0' });
    });

    it('generates a bootstrap credential at first start, logs it once, and it works exactly once', async () => {
      const { credential, wrong, first, again } = await bootstrapOnce();
      expect(wrong.status).toBe(401);
      expect(first.status).toBe(201);
      expect(first.headers.getSetCookie()[0]).toMatch(/^__Host-svc_session=/);
      expect(again.status).toBe(409);
      // Logged in one line only, and not again when it was used (or refused).
      expect(output.split(credential).length - 1).toBe(1);
    });

    it('logs JSON lines with the request id, and never the password, the credential or the session value', async () => {
      const { credential } = await bootstrapOnce();
      await running();
      const signIn = await fetch(`http://127.0.0.1:${port}/api/v1/auth/local/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'trace-sign-in-1' },
        body: JSON.stringify({ email: 'op@example.com', password: 'a long enough password' }),
      });
      expect(signIn.status).toBe(200);
      const cookie = signIn.headers.getSetCookie()[0].split(';')[0].split('=')[1];
      // The access line is written once the response is: wait for it.
      await until(() => output.includes('trace-sign-in-1'), 10_000, 'the access log line');
      const lines = output.split('\n').filter((l) => l.startsWith('{'));
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      const access = lines.map((l) => JSON.parse(l)).find((l) => l.req?.id === 'trace-sign-in-1');
      expect(access).toMatchObject({ req: { method: 'POST', path: '/api/v1/auth/local/sign-in' }, res: { statusCode: 200 } });
      expect(output).not.toContain('a long enough password');
      expect(output).not.toContain(cookie);
      expect(output.split(credential).length - 1).toBe(1);
    });

    it('stops both processes on SIGTERM', async () => {
      await running();
      const exited = new Promise<number | null>((resolve) => launcher!.once('exit', (code) => resolve(code)));
      launcher!.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    });
  });
});
