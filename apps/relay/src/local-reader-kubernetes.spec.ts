import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobMessage } from '@svc/relays/protocol';
import { LocalReader } from './local-reader';

const CLUSTER = '0190a000-0000-7000-8000-0000000000e1';

/**
 * A relay in a cluster reads its API with its own ServiceAccount: the token file at every request
 * (the kubelet rotates it), verify's review posted by the relay itself from the namespace alone,
 * and its own namespaces list refusing the rest before anything is sent. A real HTTP server on
 * loopback plays the API server and records every request.
 */
describe("the relay's reads of its cluster's Kubernetes API", () => {
  let api: Server;
  let reader: LocalReader;
  let tokenFile: string;
  const received: { method: string; url: string; authorization?: string; body: string }[] = [];

  beforeAll(async () => {
    api = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}');
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'svc-relay-sa-'));
    tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'first-token\n');
    reader = new LocalReader(
      [
        {
          integrationId: CLUSTER,
          type: 'kubernetes',
          tokenFile,
          caFile: join(dir, 'absent-ca.crt'),
          namespaces: ['shop'],
          capabilities: ['kubernetes.access', 'kubernetes.pods', 'kubernetes.logs'],
        },
      ],
      // The API server as a pod's environment names it.
      { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String((api.address() as AddressInfo).port) },
    );
  });
  afterAll(async () => {
    await reader.close();
    api.closeAllConnections();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  });
  beforeEach(() => {
    received.length = 0;
  });

  const run = (over: Partial<JobMessage>) =>
    reader.run(
      {
        jobId: 'j',
        integrationId: CLUSTER,
        capabilityId: 'kubernetes.pods',
        capabilityVersion: 1,
        path: 'api/v1/namespaces/shop/pods',
        query: [{ name: 'limit', value: '100' }],
        timeoutMs: 5000,
        maxBytes: 1 << 20,
        ...over,
      },
      new AbortController(),
    );

  it('reads by default the API server the environment names, over https', async () => {
    // This test's server speaks plain HTTP: a TLS handshake with it fails, which shows where and how the relay connected.
    const first = await run({});
    expect(first.ok).toBe(false);
    expect(first.error).toMatch(/^Could not reach kubernetes from the relay: /);
    expect(received).toEqual([]);
  });

  it('refuses another namespace, a read across all of them, and a capability it does not allow, before anything is sent', async () => {
    const cases: Array<[Partial<JobMessage>, string]> = [
      [{ path: 'api/v1/namespaces/payments/pods' }, "Refused by the relay's local policy: namespace payments is not one this relay reads"],
      [{ path: 'api/v1/pods' }, "Refused by the relay's local policy: this relay reads only some namespaces, not all of them at once"],
      [
        { capabilityId: 'kubernetes.nodes', path: 'api/v1/nodes/node-a' },
        "Refused by the relay's local policy: kubernetes.nodes is not allowed for this integration",
      ],
      [{ path: 'api/v1/namespaces/shop/secrets' }, "Refused by the relay's local policy: kubernetes.pods does not read api/v1/namespaces/shop/secrets"],
      [
        { capabilityId: 'kubernetes.logs', path: 'api/v1/namespaces/shop/pods/web-1/../../../secrets' },
        expect.stringMatching(/^Refused by the relay's local policy: kubernetes\.logs does not read/) as unknown as string,
      ],
    ];
    for (const [job, error] of cases) {
      const result = await run(job);
      expect(result, job.path).toMatchObject({ ok: false, error });
    }
    expect(received).toEqual([]);
  });
});

describe('a relay told where its API server is', () => {
  let api: Server;
  let reader: LocalReader;
  let tokenFile: string;
  const received: { method: string; url: string; authorization?: string; body: string }[] = [];

  beforeAll(async () => {
    api = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'svc-relay-sa-'));
    tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'first-token\n');
    reader = new LocalReader([
      {
        integrationId: CLUSTER,
        type: 'kubernetes',
        server: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
        tokenFile,
        caFile: join(dir, 'absent-ca.crt'),
        capabilities: ['kubernetes.access', 'kubernetes.pods'],
      },
    ]);
  });
  afterAll(async () => {
    await reader.close();
    api.closeAllConnections();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  });

  const job = (over: Partial<JobMessage>): JobMessage => ({
    jobId: 'j',
    integrationId: CLUSTER,
    capabilityId: 'kubernetes.pods',
    capabilityVersion: 1,
    path: 'api/v1/pods',
    query: [{ name: 'fieldSelector', value: 'spec.nodeName=node-a' }],
    timeoutMs: 5000,
    maxBytes: 1 << 20,
    ...over,
  });

  it('reads the rotated token at each request, and posts the review itself with the namespace only', async () => {
    expect(await reader.run(job({}), new AbortController())).toMatchObject({ ok: true, status: 201 });
    writeFileSync(tokenFile, 'rotated-token\n');
    const review = await reader.run(
      job({
        capabilityId: 'kubernetes.access',
        path: 'apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
        query: [{ name: 'namespace', value: 'shop' }],
      }),
      new AbortController(),
    );
    expect(review).toMatchObject({ ok: true, status: 201 });
    expect(received).toEqual([
      { method: 'GET', url: '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-a', authorization: 'Bearer first-token', body: '' },
      {
        method: 'POST',
        url: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews',
        authorization: 'Bearer rotated-token',
        body: '{"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectRulesReview","spec":{"namespace":"shop"}}',
      },
    ]);
  });
});
