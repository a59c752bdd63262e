import { ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/dist';
import { until } from '../support/until';

/**
 * `npm start` on a machine where nothing answers on PostgreSQL's and Redis's default ports. The
 * launcher runs in a private network namespace (`unshare --net`, only a loopback inside), so the
 * machine's own PostgreSQL and Redis are out of its sight and untouched, and the default ports
 * are free; the test reaches the API inside with `nsenter`. Its data directory is a temporary one
 * (SVC_DATA_DIR) instead of the checkout's `.data`.
 */
const tool = (name: string) => {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
};
const UNSHARE = tool('unshare');
const NSENTER = tool('nsenter');
const IP = tool('ip');
const READLINK = tool('readlink');
const MOUNT = tool('mount');

function namespaceUnavailable(): string | undefined {
  if (!UNSHARE || !NSENTER || !IP || !READLINK) return 'unshare, nsenter (util-linux) and ip (iproute2) are needed';
  try {
    execFileSync(UNSHARE, ['--net', IP, 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'this user cannot create a network namespace (unshare --net)';
  }
}
const unavailable = namespaceUnavailable();

/** The built launcher (`npm start` after its build) alone in a new network namespace. */
class IsolatedLauncher {
  output = '';
  readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcess) {
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** The namespace, as the shell inside reported it before it became the launcher. */
  get netNamespace(): string {
    const reported = /^netns (net:\[\d+\])$/m.exec(this.output);
    if (!reported) throw new Error(`the namespace was not reported:\n${this.output}`);
    return reported[1];
  }

  /**
   * `checkoutAt`: run the launcher from a view of this checkout at that path (a bind mount in a
   * mount namespace of its own, so nothing outside sees it), as from a clone made there.
   */
  static start(env: Record<string, string>, checkoutAt?: string): IsolatedLauncher {
    const mount = checkoutAt ? `${MOUNT} --bind ${JSON.stringify(ROOT)} ${JSON.stringify(checkoutAt)} && cd ${JSON.stringify(checkoutAt)} && ` : '';
    const child = spawn(
      UNSHARE!,
      [
        ...(checkoutAt ? ['--mount'] : []),
        '--net',
        '/bin/sh',
        '-c',
        `${mount}${IP} link set lo up && echo "netns $(${READLINK} /proc/self/ns/net)" && exec "$@"`,
        'sh',
        process.execPath,
        join(checkoutAt ?? ROOT, 'dist/apps/launcher/src/main.js'),
      ],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true, // its own process group, as in a terminal
      },
    );
    return new IsolatedLauncher(child);
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** An HTTP request to the API inside the namespace; undefined when nothing answers. */
  request(path: string, init: RequestInit = {}): Promise<{ status: number; body: string } | undefined> {
    const script =
      'fetch(process.argv[1], JSON.parse(process.argv[2])).then(async (r) => process.stdout.write(JSON.stringify({ status: r.status, body: await r.text() })), () => process.stdout.write("null"))';
    return new Promise((resolve, reject) => {
      execFile(
        NSENTER!,
        ['-t', String(this.child.pid), '-n', process.execPath, '-e', script, `http://127.0.0.1:8080${path}`, JSON.stringify(init)],
        (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) ?? undefined)),
      );
    });
  }

  async whenReady(): Promise<void> {
    await until(
      async () => {
        if (!this.running) throw new Error(`the launcher exited:\n${this.output}`);
        return (await this.request('/readyz'))?.status === 200 && this.output.includes('Worker started') ? true : undefined;
      },
      120_000,
      'the service answering /readyz with 200',
    );
  }

  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exited;
  }

  /** SIGKILL to the launcher's process group: nothing it started in other sessions hears of it. */
  async kill(): Promise<void> {
    process.kill(-this.child.pid!, 'SIGKILL');
    await this.exited;
  }

  /** Ctrl-C at a terminal: SIGINT to every process of the foreground process group. */
  async interrupt(): Promise<number | null> {
    process.kill(-this.child.pid!, 'SIGINT');
    return this.exited;
  }

  /** The pid of the process in the namespace whose command line contains `script`. */
  pidOf(script: string): number {
    const found = this.processesLeft().find((entry) => readFileSync(`/proc/${entry.split(' ')[0]}/cmdline`, 'utf8').includes(script));
    if (!found) throw new Error(`no ${script} in the namespace`);
    return Number(found.split(' ')[0]);
  }

  /** Processes still in the launcher's network namespace, by command name. */
  processesLeft(): string[] {
    const left: string[] = [];
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        if (readlinkSync(`/proc/${pid}/ns/net`) === this.netNamespace) left.push(`${pid} ${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}`);
      } catch {
        // ended while listed
      }
    }
    return left;
  }
}

describe.skipIf(unavailable !== undefined)(`npm start on a machine with nothing on the default ports${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  const dataDirs: string[] = [];
  let launcher: IsolatedLauncher | undefined;
  const env = (dataDir: string) => ({ PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', SVC_DATA_DIR: dataDir });

  /** An empty data directory of the test's own (a first start makes a new cluster in it). */
  function newDataDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'svc-fresh-'));
    // Run as root, PostgreSQL runs as the postgres user, which must be able to enter the directory.
    chmodSync(dir, 0o755);
    dataDirs.push(dir);
    return dir;
  }

  /** Bootstraps what `started` serves with the credential it logged: Organization "first", user op@example.com. */
  function bootstrapOperator(started: IsolatedLauncher) {
    const credential = /"bootstrapCredential":"([A-Za-z0-9_-]+)"/.exec(started.output)![1];
    return started.request('/api/v1/auth/local/bootstrap', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
      body: JSON.stringify({
        organization: { id: 'first', displayName: 'First' },
        user: { email: 'op@example.com', name: 'Operator', password: 'a long enough password' },
      }),
    });
  }

  beforeAll(() => {
    ensureBuilt();
  }, 180_000);

  afterAll(async () => {
    if (launcher?.running) await launcher.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('starts an embedded PostgreSQL and redis-server, serves, and stops them all on SIGTERM', async () => {
    const dataDir = newDataDir();
    launcher = IsolatedLauncher.start(env(dataDir));
    await launcher.whenReady();
    expect(launcher.output).toContain(`started embedded PostgreSQL on 127.0.0.1:5432 (new cluster in ${join(dataDir, 'postgres')})`);
    expect(launcher.output).toContain(`started redis-server on 127.0.0.1:6379 (data in ${join(dataDir, 'redis')})`);
    expect(launcher.processesLeft().join('\n')).toMatch(/ postgres\n[\s\S]* redis-server|redis-server[\s\S]* postgres/);

    const bootstrap = await bootstrapOperator(launcher);
    expect(bootstrap?.status).toBe(201);

    expect(await launcher.stop()).toBe(0);
    expect(launcher.processesLeft()).toEqual([]);
    expect(existsSync(join(dataDir, 'redis', 'dump.rdb'))).toBe(true);
  }, 180_000);

  it('a second start reuses the cluster in the data directory, and a dying child stops everything', async () => {
    // The first start: a new cluster, and the deployment bootstrapped in it.
    const dataDir = newDataDir();
    launcher = IsolatedLauncher.start(env(dataDir));
    await launcher.whenReady();
    expect((await bootstrapOperator(launcher))?.status).toBe(201);
    expect(await launcher.stop()).toBe(0);

    launcher = IsolatedLauncher.start(env(dataDir));
    await launcher.whenReady();
    expect(launcher.output).toContain(`started embedded PostgreSQL on 127.0.0.1:5432 (existing cluster in ${join(dataDir, 'postgres')})`);
    expect(launcher.output).toContain('schema is up to date');
    // The Organization created before is still there: the deployment is already bootstrapped.
    const signIn = await launcher.request('/api/v1/auth/local/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'op@example.com', password: 'a long enough password' }),
    });
    expect(signIn?.status).toBe(200);

    // The API dies: the launcher stops the worker, then Redis and PostgreSQL, and reports failure.
    process.kill(launcher.pidOf('api/src/main.js'), 'SIGKILL');
    expect(await launcher.exited).toBe(1);
    expect(launcher.processesLeft()).toEqual([]);
    expect(readFileSync(join(dataDir, 'postgres.log'), 'utf8')).toMatch(/database system is shut down\s*$/);
  }, 180_000);

  it('the next start stops what a killed launcher left running; Ctrl-C stops everything it started and exits 0', async () => {
    // SIGKILL to the launcher's process group (launcher, API, worker): its servers outlive it.
    const dataDir = newDataDir();
    const killed = IsolatedLauncher.start(env(dataDir));
    await killed.whenReady();
    await killed.kill();
    const left = killed.processesLeft().join('\n');
    expect(left).toContain(' postgres');
    expect(left).toContain(' redis-server');
    const pids = [
      Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]),
      Number(readFileSync(join(dataDir, 'redis', 'redis.pid'), 'utf8')),
    ];

    launcher = IsolatedLauncher.start(env(dataDir));
    await launcher.whenReady();
    expect(launcher.output).toContain(`stopped first what an earlier start left running (pid ${pids.join(', ')})`);
    expect(killed.processesLeft()).toEqual([]);
    expect(await launcher.interrupt()).toBe(0);
    expect(launcher.output).not.toContain('stopped unexpectedly');
    expect(launcher.processesLeft()).toEqual([]);
    expect(readFileSync(join(dataDir, 'postgres.log'), 'utf8')).toMatch(/received fast shutdown request[\s\S]*database system is shut down\s*$/);
  }, 180_000);

  it.skipIf(process.getuid?.() !== 0 || !MOUNT)(
    'run by root from a clone in a folder only root can enter, PostgreSQL runs from binaries and a cluster the postgres user reaches, and the start line says where',
    async () => {
      // A fresh machine's /root: 0700, owned by root; the clone and its data directory inside it.
      const home = mkdtempSync(join(tmpdir(), 'svc-private-home-'));
      dataDirs.push(home);
      expect(statSync(home).mode & 0o777).toBe(0o700);
      const checkout = join(home, 'incident-investigation');
      mkdirSync(checkout);
      const dataDir = join(home, 'svc-data');
      launcher = IsolatedLauncher.start(env(dataDir), checkout);
      await launcher.whenReady();
      const started =
        /started embedded PostgreSQL on 127\.0\.0\.1:5432 \(new cluster in (\S+), outside (\S+) since the postgres user cannot enter (\S+)\)/.exec(
          launcher.output,
        );
      expect(started, launcher.output).not.toBeNull();
      const [, cluster, outside, closed] = started!;
      dataDirs.push(cluster);
      expect([outside, closed]).toEqual([dataDir, home]);
      expect(cluster.startsWith('/var/lib/incident-investigation/clusters/svc-data-')).toBe(true);
      expect(statSync(cluster).uid).toBe(Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()));
      // The server runs from the copy of the binaries, since it cannot enter the clone's node_modules.
      const pid = Number(readFileSync(join(cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);
      expect(readlinkSync(`/proc/${pid}/exe`)).toMatch(/^\/var\/lib\/incident-investigation\/postgresql-[^/]+\/bin\/postgres$/);
      expect((await bootstrapOperator(launcher))?.status).toBe(201);
      expect(await launcher.stop()).toBe(0);

      // The next start finds the same cluster, with what was written in it.
      launcher = IsolatedLauncher.start(env(dataDir), checkout);
      await launcher.whenReady();
      expect(launcher.output).toContain(`existing cluster in ${cluster}, outside ${dataDir}`);
      const signIn = await launcher.request('/api/v1/auth/local/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'op@example.com', password: 'a long enough password' }),
      });
      expect(signIn?.status).toBe(200);
      expect(await launcher.stop()).toBe(0);
      expect(launcher.processesLeft()).toEqual([]);
    },
    240_000,
  );

  it('without redis-server on the PATH it starts nothing and says how to install Redis or set REDIS_URL', async () => {
    const emptyPath = join(newDataDir(), 'empty-path');
    mkdirSync(emptyPath, { recursive: true });
    const other = mkdtempSync(join(tmpdir(), 'svc-fresh-noredis-'));
    try {
      launcher = IsolatedLauncher.start({ ...env(other), PATH: emptyPath });
      const code = await launcher.exited;
      expect(code).toBe(1);
      expect(launcher.output).toContain('there is no redis-server on the PATH');
      expect(launcher.output).toContain('apt-get install redis-server');
      expect(launcher.output).toContain('set REDIS_URL');
      expect(existsSync(join(other, 'postgres'))).toBe(false);
      expect(launcher.processesLeft()).toEqual([]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);
});
