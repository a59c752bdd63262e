import { describe, expect, it } from 'vitest';
import { Timestamp } from '@svc/platform';
import { scripted, T } from '../../../../../test/support/scripted-prometheus';
import { BuiltInReasoner } from '../built-in-reasoner';
import type { InvestigationSession } from '../reasoner';

/** A turn asking `message` about an incident whose one alert carries only these labels. */
function turn(message: string, labels: Record<string, string>): InvestigationSession & { runs: unknown[] } {
  const base = scripted(() => undefined);
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
