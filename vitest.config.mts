import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const __dirname = dirname(fileURLToPath(import.meta.url));

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
        find: /^@svc\/(platform|auth|organizations|audit|integrations|incidents|alerts|investigations|conversations|postmortems|relays)$/,
        replacement: `${resolve(__dirname, 'libs')}/$1/src`,
      },
      {
        find: /^@svc\/(platform|auth|organizations|audit|integrations|incidents|alerts|investigations|conversations|postmortems|relays)\/(.*)$/,
        replacement: `${resolve(__dirname, 'libs')}/$1/src/$2`,
      },
    ],
  },
  test: {
    include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.test-results/results.json' }]] : ['default'],
  },
});
