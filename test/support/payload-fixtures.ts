import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ParsedDelivery, ParseResult } from '@svc/alerts';

// Fixtures are JSON edited freely by the tests.

export type Json = any;

const FIXTURES = join(__dirname, '../../libs/alerts/src/payloads/fixtures');

export function fixture(name: string): Json {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
}

export function accepted(result: ParseResult): ParsedDelivery {
  if (!result.ok) throw new Error(`expected the payload to be accepted, got: ${result.error}`);
  return result.delivery;
}

export function rejected(result: ParseResult): string {
  if (result.ok) throw new Error('expected the payload to be rejected');
  return result.error;
}
