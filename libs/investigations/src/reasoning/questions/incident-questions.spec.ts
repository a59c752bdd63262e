import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { scripted, T } from '../../../../../test/support/scripted-prometheus';
import { BuiltInReasoner } from '../built-in-reasoner';
import type { InvestigationSession } from '../reasoner';
import { withContext } from './incident-questions';
import { parseQuestion } from './parse';

/** A turn asking `message` about an incident whose one alert carries only these labels. */
function turn(message: string, labels: Record<string, string>, collected?: string[]): InvestigationSession & { runs: unknown[] } {
  const base = scripted(() => undefined, 40, { collected });
  return {
    ...base,
    subject: message,
    incident: { id: 'i', title: 'Paging', status: 'open', labels: {}, openedAt: Timestamp.parse(T(30))!, resolvedAt: null },
    alerts: [{ fingerprint: 'f', status: 'firing', labels, annotations: {}, startsAt: Timestamp.parse(T(30))!, endsAt: null, generatorUrl: null }],
    conversation: { conversationId: 'c', turn: 1, messageSequence: 1, messages: [], turns: [], droppedMessageSequences: [], droppedTurns: [] },
  };
}

describe('questions about an incident that names no service', () => {
  it('says it cannot answer for want of a subject, reading nothing', async () => {
    const session = turn('what is the error rate?', { alertname: 'Paging' });
    const c = await new BuiltInReasoner().investigate(session);
    expect(c.conclusionStatus).toBe('answer_only');
    expect(c.summary).toBe(
      "The question could not be answered from the sources: the question names no service, and the incident's alerts name none to answer it for.",
    );
    expect(c.limitations.map((l) => l.type)).toEqual(['scope']);
    expect(session.runs).toEqual([]);
  });
});

describe('names that do not name one subject', () => {
  it('asks which is meant when a name is a part of several and the whole of none, and reads no signal', async () => {
    // Every label's values, as the scripted Prometheus lists them.
    const session = turn('what is the latency of api?', { alertname: 'Paging', job: 'cart' }, ['orders-api', 'payments-api', 'cart']);
    const c = await new BuiltInReasoner().investigate(session);
    expect(c.question).toBe('"api" names 2 services: orders-api, payments-api. Which do you mean?');
    expect(c.limitations).toEqual([expect.objectContaining({ type: 'scope', statement: 'api names several services' })]);
    expect(session.runs.every((r) => (r as { tool: string }).tool === 'prometheus.label_values')).toBe(true);
  });

  it('takes a name that is the whole of one value and a part of others as that one', async () => {
    const session = turn('what is the latency of orders?', { alertname: 'Paging', job: 'cart' }, ['orders', 'orders-worker', 'cart']);
    const c = await new BuiltInReasoner().investigate(session);
    expect(c.question).toBeUndefined();
    expect(session.runs.map((r) => (r as { purpose: string }).purpose)).toContain('Which metrics orders has');
  });
});

describe('a question read with the conversation before it', () => {
  const conversation = (earlier: string[], answers: string[] = []): InvestigationSession['conversation'] => ({
    conversationId: 'c',
    turn: earlier.length + 1,
    messageSequence: earlier.length * 2 + 1,
    messages: earlier.map((text, i) => ({ sequence: i * 2 + 1, role: 'user' as const, text, at: T(0) })),
    turns: answers.map((summary, i) => ({ turn: i + 1, investigationId: `t${i}`, status: 'concluded', conclusionStatus: null, summary, findings: [] })),
    droppedMessageSequences: [],
    droppedTurns: [],
  });

  it('takes the signal of the last earlier question that named one when it refers to it', () => {
    const asked = withContext(
      parseQuestion('when did they start?'),
      conversation(['what is the latency of search?', 'did errors of checkout go up since 2.15.0?']),
    );
    expect(asked).toMatchObject({ kind: 'when', signals: ['errors'], versions: ['2.15.0'] });
  });

  it('takes "the new version" from the change an earlier answer named', () => {
    const asked = withContext(
      parseQuestion('which pods run the new version?'),
      conversation(
        ['what changed?'],
        ['1 change in namespace shop from 04:10 UTC to 05:40 UTC [#1]\n\n| 04:58 UTC | search 3.2.1 → 3.3.0 (a new version) | 5 min before | #1 |'],
      ),
    );
    expect(asked).toMatchObject({ kind: 'which', versions: ['3.3.0'] });
  });

  it('keeps what the question names itself, and reads a question that refers to nothing as it is', () => {
    const earlier = conversation(['did errors of checkout go up since 2.15.0?']);
    expect(withContext(parseQuestion('and its p99 latency since 3.3.0?'), earlier)).toMatchObject({ signals: ['latency'], versions: ['3.3.0'] });
    expect(withContext(parseQuestion('what is the request rate of search?'), earlier)).toMatchObject({ signals: ['rate'], versions: [] });
  });
});
