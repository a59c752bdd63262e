import { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../support/api';
import { startApiProcess } from '../support/api-process';
import { useBootstrappedApi } from '../support/factories';
import { freePort } from '../support/ports';
import { startWorker, TestWorker } from '../support/worker';

interface Frame {
  id: number;
  event: string;
  data: { sequence: number; type: string; investigationId: string };
}

/**
 * Opens an event stream and resolves once it is connected: the `retry` line has arrived, which the
 * API writes only after the stream has subscribed. `frames` then reads the whole stream (it ends
 * after the terminal event), keeping each frame in order, and says what came before any frame.
 */
async function openStream(baseUrl: string, path: string, cookie: string): Promise<{ beforeFirstFrame: string; frames: Promise<Frame[]> }> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { cookie, accept: 'text/event-stream' }, signal: AbortSignal.timeout(60_000) });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before it was connected: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  const beforeFirstFrame = text;
  const frames = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    return text
      .split('\n\n')
      .filter((block) => block.startsWith('id: '))
      .map((block) => {
        const field = (name: string) =>
          block
            .split('\n')
            .find((line) => line.startsWith(`${name}: `))!
            .slice(name.length + 2);
        return { id: Number(field('id')), event: field('event'), data: JSON.parse(field('data')) };
      });
  })();
  return { beforeFirstFrame, frames };
}

/**
 * Two API processes (this test's and a second one started from dist) and a real worker process:
 * the worker's events reach the stream clients of both APIs, the same frames in the same order.
 */
describe('event streams across processes', () => {
  const ctx = useBootstrappedApi();
  let second: ChildProcess;
  let secondUrl: string;
  let worker: TestWorker;

  beforeAll(async () => {
    const port = await freePort();
    secondUrl = `http://127.0.0.1:${port}`;
    ({ child: second } = await startApiProcess({ ...process.env, PORT: String(port), LOG_LEVEL: 'warn' }, secondUrl));
  }, 240_000);

  afterAll(async () => {
    await worker?.close();
    if (second && second.exitCode === null) {
      const exited = new Promise((resolve) => second.once('exit', resolve));
      second.kill('SIGTERM');
      await exited;
    }
  });

  it("delivers the worker's events to clients of both API processes, with no gap or duplicate", async () => {
    const g = await ctx.admin.post('/api/v1/integrations', { type: 'generic', name: 'Alerts' });
    const delivery = await new Client(ctx.api.baseUrl).request('POST', `/webhooks/v1/integrations/${g.body.id}/alert-events`, {
      body: { alerts: [{ labels: { alertname: 'Streamed', service: 'api' } }] },
      headers: { 'x-svc-token': g.body.webhookSecret },
      origin: false,
    });
    const { body: investigation } = await ctx.admin.post('/api/v1/investigations', { incidentId: delivery.body.incidentIds[0] });
    const path = `/api/v1/investigations/${investigation.id}/events`;
    const cookie = ctx.admin.cookie!;
    // Clients on both processes are connected (subscribed, nothing streamed yet) before any event exists:
    // every frame below reached them live, none was read back from before they connected.
    const streams = await Promise.all([openStream(ctx.api.baseUrl, path, cookie), openStream(secondUrl, path, cookie), openStream(secondUrl, path, cookie)]);
    for (const stream of streams) expect(stream.beforeFirstFrame).toBe('retry: 2000\n\n');
    expect((await ctx.admin.get(`/api/v1/investigations/${investigation.id}/activity`)).body.items).toEqual([]);
    worker = await startWorker();

    const [first, ...others] = await Promise.all(streams.map((s) => s.frames));
    expect(first.at(-1)!.event).toBe('concluded');
    expect(first[0].event).toBe('started');
    for (const frames of others) expect(frames).toEqual(first);
    const ids = first.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    // Every streamed event is one of the activity rows, and the stream left out only hypothesis updates.
    const activity = await ctx.admin.get(`/api/v1/investigations/${investigation.id}/activity?limit=200`);
    const streamed = activity.body.items.filter((e: { type: string }) => e.type !== 'hypothesis.updated');
    expect(first.map((f) => f.data)).toEqual(streamed);

    // Resuming on the other process from the middle gives exactly the rest; at the end, 204.
    const middle = first[Math.floor(first.length / 2)].id;
    const rest = await fetch(`${secondUrl}${path}`, { headers: { cookie, 'last-event-id': String(middle) } });
    const restIds = (await rest.text())
      .split('\n')
      .filter((l) => l.startsWith('id: '))
      .map((l) => Number(l.slice(4)));
    expect(restIds).toEqual(ids.filter((id) => id > middle));
    expect((await fetch(`${secondUrl}${path}`, { headers: { cookie, 'last-event-id': String(ids.at(-1)) } })).status).toBe(204);
  }, 90_000);
});
