import { ESLint } from 'eslint';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist';

/**
 * The lint rules that keep tests honest about time (scripts/lint/test-timing.mjs), run through
 * the project's own ESLint configuration on a test file's text: each way of writing a guessed
 * sleep or an elapsed-time assertion is caught, and the ways tests legitimately use the clock are not.
 */
describe('the test timing lint rules', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT });
  });

  /** The timing rules a test file with `code` breaks, one entry per report. */
  async function broken(code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, 'test/e2e/lint-probe.test.ts') });
    const fatal = result.messages.filter((m) => m.fatal);
    expect(fatal, 'the probe parses').toEqual([]);
    return result.messages.map((m) => m.ruleId ?? '').filter((rule) => rule.startsWith('timing/'));
  }

  const sleeps: [string, string][] = [
    ['a promise resolved by a timer', 'await new Promise((r) => setTimeout(r, 100));'],
    ['the same with a block body', 'await new Promise<void>((resolve) => {\n  setTimeout(resolve, 100);\n});'],
    ['a timer callback that calls the resolver', 'await new Promise<void>((resolve) => {\n  setTimeout(() => {\n    resolve();\n  }, 100);\n});'],
    ['a timer through globalThis', 'await new Promise((r) => globalThis.setTimeout(r, 100));'],
    ['setTimeout from node:timers/promises', "import { setTimeout } from 'node:timers/promises';\nawait setTimeout(100);"],
    ['a renamed setTimeout from timers/promises', "import { setTimeout as pause } from 'timers/promises';\nawait pause(100);"],
    ['the scheduler from timers/promises', "import { scheduler } from 'node:timers/promises';\nawait scheduler.wait(100);"],
    ['timers/promises as a namespace', "import * as timers from 'node:timers/promises';\nawait timers.setTimeout(100);"],
    ['timers/promises required', "const { setTimeout: later } = require('node:timers/promises');\nawait later(100);"],
    ['timers/promises loaded', "const timers = await import('node:timers/promises');\nawait timers.setTimeout(100);"],
    ['a promisified setTimeout', "import { promisify } from 'node:util';\nconst pause = promisify(setTimeout);\nawait pause(100);"],
    ['a helper named sleep', 'await sleep(100);'],
  ];

  it.each(sleeps)('catches a guessed sleep: %s', async (_form, code) => {
    expect(await broken(code)).toEqual(['timing/no-guessed-sleep']);
  });

  const elapsed: [string, string][] = [
    ['a difference with Date.now() asserted directly', 'const t0 = Date.now();\nexpect(Date.now() - t0).toBeLessThan(100);'],
    ['the difference held in a variable', 'const t0 = Date.now();\nawait work();\nconst ms = Date.now() - t0;\nexpect(ms).toBeLessThan(100);'],
    ['two performance.now() readings', 'const t0 = performance.now();\nawait work();\nconst t1 = performance.now();\nexpect(t1 - t0).toBeLessThan(100);'],
    [
      'a reading assigned in a hook and converted',
      'let started = 0;\nbeforeEach(() => {\n  started = Date.now();\n});\nconst spent = (Date.now() - started) / 1000;\nexpect(Math.round(spent)).toBe(1);',
    ],
    ['process.hrtime.bigint()', 'const t0 = process.hrtime.bigint();\nexpect(Number(process.hrtime.bigint() - t0) / 1e6).toBeLessThan(5);'],
    [
      'new Date().getTime() through a deadline',
      'const deadline = new Date().getTime() + 1000;\nconst left = deadline - Date.now();\nexpect(left > 0).toBe(true);',
    ],
    ['a variable named as a duration', 'expect(elapsed).toBeLessThan(100);'],
    ['a property named as a duration', 'expect(result.durationMs).toBeLessThan(100);'],
    ['an assert call', "import assert from 'node:assert';\nconst t0 = Date.now();\nassert(Date.now() - t0 < 100);"],
  ];

  it.each(elapsed)('catches an elapsed-time assertion: %s', async (_form, code) => {
    expect(await broken(code)).toEqual(['timing/no-elapsed-time-assertions']);
  });

  const allowed: [string, string][] = [
    ['waiting for a condition', "await until(() => (done ? true : undefined), 5000, 'done');"],
    [
      'a deadline that rejects, raced with a signal',
      "await new Promise<void>((resolve, reject) => {\n  const timer = setTimeout(() => reject(new Error('late')), 30_000);\n  child.once('exit', () => {\n    clearTimeout(timer);\n    resolve();\n  });\n});",
    ],
    [
      'a timestamp computed from the clock inside a request',
      'const res = await post({ startsAt: new Date(Date.now() - 60_000).toISOString() });\nexpect(res.status).toBe(202);',
    ],
    [
      'a server time bounded by readings either side of the call',
      'const before = Date.now();\nconst token = await mint();\nconst after = Date.now();\nexpect(Date.parse(token.expiresAt)).toBeGreaterThanOrEqual(before + 1000);\nexpect(Date.parse(token.expiresAt)).toBeLessThanOrEqual(after + 1000);',
    ],
    ['a difference of recorded timestamps', 'expect(Date.parse(b.at) - Date.parse(a.at)).toBe(60_000);'],
  ];

  it.each(allowed)('allows %s', async (_form, code) => {
    expect(await broken(code)).toEqual([]);
  });
});
