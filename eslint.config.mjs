// Lint, run by `npm test` (and `npm run lint`). Formatting is Prettier's (`npm run format`); this
// file holds correctness rules, the library boundaries of docs/architecture.md, and the rules
// that keep tests honest (an assertion in every test, no timing assertions, no guessed sleeps).
import js from '@eslint/js';
import vitest from '@vitest/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/lint/library-boundaries.mjs';
import timing from './scripts/lint/test-timing.mjs';

/** Test helpers that assert (they call `expect` or throw on a failed check). */
const ASSERTING_HELPERS = ['expect', 'expect*', 'assert*'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.test-results/**', '.data/**', 'docker/**', 'migrations/**', 'apps/console/src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { svc: boundaries },
    rules: {
      'svc/library-boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // A server's handler may name the object it creates a line later.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Nest's metadata APIs speak of classes as `Function`.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      'no-console': 'error',
    },
  },
  {
    // The web console runs in the browser; its API types are generated (npm run console:client).
    files: ['apps/console/**/*.{ts,tsx}'],
    languageOptions: {
      globals: { window: 'readonly', document: 'readonly', location: 'readonly', history: 'readonly', localStorage: 'readonly', navigator: 'readonly' },
    },
  },
  {
    // The bench and the reasoner evaluation report on the console.
    files: ['bench/**/*.ts', 'eval/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['test/**/*.ts', 'libs/**/*.spec.ts', 'apps/**/*.spec.ts'],
    plugins: { vitest, timing },
    rules: {
      'vitest/expect-expect': ['error', { assertFunctionNames: ASSERTING_HELPERS }],
      'vitest/valid-expect': ['error', { maxArgs: 2 }],
      'vitest/no-identical-title': 'error',
      'vitest/no-focused-tests': 'error',
      'vitest/no-disabled-tests': 'error',
      'vitest/no-commented-out-tests': 'error',
      'vitest/valid-title': 'error',
      // No timing assertions and no guessed sleeps: assert order and state, wait for conditions.
      'timing/no-guessed-sleep': 'error',
      'timing/no-elapsed-time-assertions': 'error',
      // Test doubles of wire protocols handle untyped JSON; printing a seed is how a test says how to replay it.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'off',
    },
  },
  {
    // The one place a test may wait a fixed time: the condition poller itself.
    files: ['test/support/until.ts'],
    rules: { 'timing/no-guessed-sleep': 'off' },
  },
  {
    files: ['scripts/**/*.{js,mjs}', '*.mjs', '*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', URL: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' },
  },
  prettier,
);
