import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../support/dist';

/**
 * The holdout check of `npm run lint` (scripts/lint/holdout-strings.mjs), pointed at a tree made in
 * a temporary directory: a distinctive string of eval/holdout/ planted elsewhere fails it; shared
 * generator strings, short strings, module specifiers and what lies in skipped directories do not.
 */
describe('the holdout strings check', () => {
  const SCRIPT = join(ROOT, 'scripts/lint/holdout-strings.mjs');
  let root: string;

  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  const check = (): { status: number | null; output: string } => {
    const run = spawnSync(process.execPath, [SCRIPT, `--root=${root}`], { encoding: 'utf8' });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'holdout-strings-'));
    write(
      'eval/holdout/scenarios.ts',
      [
        "import { Scenario } from '../scenarios';",
        "export const A = { name: 'zebra-quartz-holdout-service', metric: 'container_cpu_usage_seconds_total', short: 'brief', seed: 9999 };",
        'export const B = (n: string) => `${n}-plinth-gateway-7`;',
      ].join('\n'),
    );
    // A shared generator file: the metric name the holdout uses is not distinctive.
    write('eval/cluster.ts', "export const CPU = 'container_cpu_usage_seconds_total';\n");
    write('eval/nezha/replay.ts', "import { Rule } from '../scenarios';\nexport const r: Rule | null = null;\n");
    write('libs/investigations/src/reasoner.ts', "export const usage = 'container_cpu_usage_seconds_total'; // brief\n");
    write('docs/operations.md', '# Operations\n\nNothing of the holdout here.\n');
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('passes on a tree where no distinctive holdout string appears outside the holdout', () => {
    const { status, output } = check();
    expect(output).toContain('appear nowhere else');
    expect(status).toBe(0);
  });

  it.each([
    ['the reasoner', 'libs/investigations/src/explainers/names.ts', "const known = ['zebra-quartz-holdout-service'];\n"],
    ['a test', 'test/medium/names.test.ts', '// ZEBRA-QUARTZ-HOLDOUT-SERVICE\n'],
    ['the docs', 'docs/operations.md', 'The zebra-quartz-holdout-service scenario.\n'],
    ['a dev scenario', 'eval/shape-scenarios.ts', "export const x = 'zebra-quartz-holdout-service';\n"],
    ['a script', 'scripts/names.mjs', 'console.log("-plinth-gateway-7");\n'],
  ])('fails on a distinctive holdout string planted in %s', (_where, path, text) => {
    write(path, text);
    const { status, output } = check();
    expect(status).toBe(1);
    expect(output).toContain(path);
  });

  it('ignores what lies in node_modules and dist, short strings and shared generator strings', () => {
    write('node_modules/x/index.js', "module.exports = 'zebra-quartz-holdout-service';\n");
    write('dist/eval/holdout/scenarios.js', "exports.A = 'zebra-quartz-holdout-service';\n");
    write('apps/api/src/brief.ts', "export const word = 'brief'; export const m = 'container_cpu_usage_seconds_total';\n");
    const { status, output } = check();
    expect(output).toContain('appear nowhere else');
    expect(status).toBe(0);
  });

  it("checks a held-out question's prose, not its PromQL oracle nor a fragment of a few words", () => {
    write(
      'eval/holdout/conversation-questions-9.ts',
      "export const Q = [{ message: 'how slow is the quartz ledger these days?', earlier: ['from then on'], expect: { number: 'sum(rate(http_requests_total{job=\"quartz\"}[5m]))' } }];\n",
    );
    write('test/medium/oracles.test.ts', 'const q = \'sum(rate(http_requests_total{job="quartz"}[5m]))\'; // from then on\n');
    expect(check().status).toBe(0);
    write('docs/api.md', 'Asked: How slow is the quartz ledger these days?\n');
    const { status, output } = check();
    expect(status).toBe(1);
    expect(output).toContain('docs/api.md');
  });

  it('refuses to pass a tree without a holdout folder', () => {
    rmSync(join(root, 'eval/holdout'), { recursive: true });
    expect(check().status).toBe(2);
  });

  it('passes on the repository as it is', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(`${run.stdout}${run.stderr}`).toContain('appear nowhere else');
    expect(run.status).toBe(0);
  });
});
