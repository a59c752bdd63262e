import { describe, expect, it } from 'vitest';
import type { JobMessage } from '@svc/relays/protocol';
import { LocalReader } from './local-reader';

const PROMETHEUS = '0190a000-0000-7000-8000-0000000000d1';
const job = (over: Partial<JobMessage>): JobMessage => ({
  jobId: 'j',
  integrationId: PROMETHEUS,
  capabilityId: 'prometheus.query',
  capabilityVersion: 1,
  path: 'api/v1/query',
  query: [],
  timeoutMs: 1000,
  maxBytes: 1024,
  ...over,
});

describe("the relay's local policy", () => {
  const reader = new LocalReader([{ integrationId: PROMETHEUS, type: 'prometheus', baseUrl: 'http://127.0.0.1:1', capabilities: ['prometheus.query'] }]);

  it('allows a configured integration, an allowed capability, and a path that capability reads', () => {
    expect(reader.refusal(job({}))).toBeNull();
  });

  it('refuses an integration it does not serve, a capability not allowed here, an unknown version, and a path outside the capability', () => {
    expect(reader.refusal(job({ integrationId: '0190a000-0000-7000-8000-0000000000d2' }))).toMatch(/not configured on this relay/);
    expect(reader.refusal(job({ capabilityId: 'prometheus.targets', path: 'api/v1/targets' }))).toMatch(/not allowed for this integration/);
    expect(reader.refusal(job({ capabilityVersion: 2 }))).toMatch(/does not know prometheus.query version 2/);
    expect(reader.refusal(job({ path: 'api/v1/admin/tsdb/delete_series' }))).toMatch(/does not read/);
    expect(reader.refusal(job({ path: '../api/v1/query' }))).toMatch(/does not read/);
  });

  it('answers a refused job with a failure and reads nothing', async () => {
    const result = await reader.run(job({ capabilityId: 'prometheus.targets', path: 'api/v1/targets' }), new AbortController().signal);
    expect(result).toMatchObject({ jobId: 'j', ok: false, status: 0 });
    expect(result.body.length).toBe(0);
  });
});
