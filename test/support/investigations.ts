import { expect } from 'vitest';
import { Client } from './api';
import { until } from './until';

/** The statuses an investigation ends in (needs_input aside: no reasoner here asks for input). */
const ENDED = ['concluded', 'partial', 'failed', 'cancelled'];

/**
 * Waits until the investigation has ended and returns it as read then. `headers` address its
 * Organization when the client's default is not it; the timeout only bounds a wait that went wrong.
 */
export function investigationEnded(client: Client, id: string, options: { headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<any> {
  return until(
    async () => {
      const res = await client.get(`/api/v1/investigations/${id}`, { headers: options.headers ?? {} });
      expect(res.status).toBe(200);
      return ENDED.includes(res.body.status) ? res.body : undefined;
    },
    options.timeoutMs ?? 30_000,
    `investigation ${id} to end`,
  );
}
