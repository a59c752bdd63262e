import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const __dirname = dirname(fileURLToPath(import.meta.url));

/**
 * Test files, and the tests within each file, run in a random order, so that a test relying on
 * what another one left behind fails instead of passing by luck (hooks and describe blocks keep
 * their place; only the order of tests and of sibling describe blocks changes). The seed is printed
 * at the start of every run (`Running tests with seed "…"`); TEST_SEED=<seed> (or
 * `--sequence.seed=<seed>`) replays that order. Without it Vitest takes the current time.
 */
function testSeed(): number | undefined {
  const value = process.env.TEST_SEED;
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new Error(`TEST_SEED must be a non-negative integer, not ${JSON.stringify(value)}`);
  return Number(value);
}

export default defineConfig({
  plugins: [
    swc.vite({
      module: { type: 'es6' },
      jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true } },
    }),
  ],
  resolve: {
    alias: [
      {
        find: /^@svc\/(platform|auth|organizations|audit|integrations|incidents|alerts|investigations|conversations|postmortems|relays|changes|datastores)$/,
        replacement: `${resolve(__dirname, 'libs')}/$1/src`,
      },
      {
        find: /^@svc\/(platform|auth|organizations|audit|integrations|incidents|alerts|investigations|conversations|postmortems|relays|changes|datastores)\/(.*)$/,
        replacement: `${resolve(__dirname, 'libs')}/$1/src/$2`,
      },
    ],
  },
  test: {
    include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    sequence: { shuffle: { files: true, tests: true }, seed: testSeed() },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.test-results/results.json' }]] : ['default'],
  },
});
