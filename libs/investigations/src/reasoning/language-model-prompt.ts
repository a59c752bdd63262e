import type { HypothesisItem, StoppedBy } from '../conclusion.types';
import { parseQuestion } from './questions/parse';
import type { ConversationContext } from '../turn.types';
import type { InvestigationSession, RecordedRun } from './reasoner';

/** What the model is told it is and how to work; the rules mirror decisions §6. */
export const SYSTEM_PROMPT = [
  'You are an experienced on-call engineer investigating a production incident for the people responding to it.',
  '',
  'How to work:',
  '- Gather evidence with the tools before explaining anything. Every tool call needs a short "purpose" (people read it) and, for tools that read an integration, the "integrationId" of one of the ranked sources.',
  '- State hypotheses about the cause (with update_hypotheses, or with "hypothesisId" and "hypothesis" on the tool call that tests one) and test each with a query whose result could support or refute it. Mark each hypothesis supported, refuted or inconclusive once tested.',
  '- Every tool result starts with "Tool run #N": N is the run\'s ordinal. Cite those ordinals in runRefs, and only ordinals of runs that exist. Never invent data a tool did not return.',
  '- Every measured number you state (one with a unit or decimals) must be shown by a run that statement cites: a value of its output or query, or within the range of one of its series. Query the ratio, percentile or total you state rather than computing it; a conclusion that states a number its runs do not show is refused.',
  '- You never act on systems yourself and no tool changes anything. Remedies go into "actions" as proposals for people, each with how to verify it.',
  '- Budgets are limited (tool runs, turns, time, context): read what matters most first and prefer narrow queries.',
  '- When the evidence is enough, or no further query would help, call conclude once with the whole conclusion; say what you could not check in "limitations".',
  "- conclusionStatus: verified_cause only when a cause finding's hypothesis was tested by a tool run whose result supports it and its `verification` holds: the cause precedes the onset, a run tested the mechanism with a query that would have come out otherwise, and no step of the causal chain is left unexplained; supported_explanation when evidence supports a cause without that; inconclusive otherwise; answer_only when the subject is a question that asks for no cause.",
  '- When causes_near_onset is offered, call it early with the alert\'s labels and the onset you dated: it runs the cause detectors over the standard exporters and returns dated candidate causes, each with the numbered runs that show it, the runs that tested its mechanism and what its causal chain leaves unexplained. Treat each candidate as a hypothesis: test the one you conclude with a run made for its hypothesisId, cite the runs it names, rule the others out with the runs that refute them, and take its `unexplained` into `verification.unexplained`. Its "verifiable" is false when the data does not allow verified_cause. When no candidate is verifiable it also returns rankedChanges: what changed on every series that names the entity, whatever its metrics are called, the strongest first; each is a hypothesis with an untested mechanism (at most a supported_explanation).',
  '- Ask why of every event you find: a restart (out of memory? a crash after a configuration change? a failing liveness probe?), saturation (more traffic? a new version? a noisy neighbour?), latency (a slow dependency?). An event whose own cause you did not find is a proximate cause: name it in `verification.unexplained` and conclude supported_explanation, never verified_cause.',
].join('\n');

const MAX_ALERTS = 50;
const MAX_VALUE = 1000;

const clip = (value: string, max: number) => (value.length <= max ? value : `${value.slice(0, max)}… [cut at ${max} of ${value.length} characters]`);
const pairs = (record: Record<string, string>) => {
  const entries = Object.entries(record);
  return entries.length === 0 ? '(none)' : entries.map(([k, v]) => `${k}=${JSON.stringify(clip(v, MAX_VALUE))}`).join(', ');
};

/** The output as JSON text, cut to `capBytes` UTF-8 bytes (and saying so). */
export function cappedOutput(output: unknown, capBytes: number): { text: string; bytes: number; cut: boolean } {
  const json = JSON.stringify(output) ?? 'null';
  const bytes = Buffer.byteLength(json);
  if (bytes <= capBytes) return { text: json, bytes, cut: false };
  // A multi-byte character split at the cut becomes U+FFFD: harmless for a reader.
  return { text: Buffer.from(json).subarray(0, capBytes).toString('utf8'), bytes, cut: true };
}

/** One recorded run as the model reads it: the ordinal it must cite comes from the session, never from the model. */
export function describeRun(run: RecordedRun, capBytes: number): string {
  const lines = [
    `Tool run #${run.ordinal}: ${run.tool}${run.integrationId ? ` on integration ${run.integrationId}` : ''}, ${run.outcome}`,
    `Purpose: ${run.purpose}`,
  ];
  if (run.hypothesisId) lines.push(`Tests hypothesis: ${run.hypothesisId}`);
  lines.push(`Arguments: ${JSON.stringify(run.arguments)}`);
  if (run.window) lines.push(`Window read: ${run.window.from.toISOString()} to ${run.window.until.toISOString()}`);
  lines.push(`Summary: ${run.summary}`);
  if (run.error) lines.push(`Error: ${run.error}`);
  if (capBytes > 0) {
    const out = cappedOutput(run.output, capBytes);
    const notes = [
      out.cut ? `cut here to the first ${capBytes} of ${out.bytes} bytes` : '',
      run.truncated ? 'the tool had already shortened it, see its "truncation"' : '',
    ].filter(Boolean);
    lines.push(`Output (JSON${notes.length ? `; ${notes.join('; ')}` : ''}):`, out.text + (out.cut ? ' …[cut]' : ''));
  } else {
    lines.push('Output: not shown here (see the summary).');
  }
  return lines.join('\n');
}

/** The opening user message: subject, incident, alerts, ranked sources and any runs already recorded. */
export function describeInvestigation(session: InvestigationSession, runOutputCapBytes: number): string {
  const { incident } = session;
  const lines = ['# Subject', session.subject, ''];
  if (session.conversation) lines.push(...describeQuestion(session.subject), '', ...describeConversation(session.conversation), '');
  if (incident) {
    lines.push(
      '# Incident',
      `Title: ${incident.title}`,
      `Status: ${incident.status}`,
      `Labels: ${pairs(incident.labels)}`,
      `Opened at: ${incident.openedAt.toISOString()}; ${incident.resolvedAt ? `resolved at ${incident.resolvedAt.toISOString()}` : 'not resolved'}`,
    );
  } else {
    lines.push('# Incident', "(none: the question is about the Organization's systems in the window)");
  }
  lines.push(
    `Investigation window: ${session.window.from.toISOString()} to ${session.window.until.toISOString()} (the default range of every tool that reads one)`,
    '',
    `# Alerts (${session.alerts.length})`,
  );
  if (session.alerts.length === 0) lines.push('(none)');
  for (const alert of session.alerts.slice(0, MAX_ALERTS)) {
    lines.push(
      `- [${alert.status}] fingerprint ${alert.fingerprint}, from ${alert.startsAt.toISOString()}${alert.endsAt ? ` to ${alert.endsAt.toISOString()}` : ''}`,
      `  labels: ${pairs(alert.labels)}`,
      `  annotations: ${pairs(alert.annotations)}`,
    );
  }
  if (session.alerts.length > MAX_ALERTS) lines.push(`(${session.alerts.length - MAX_ALERTS} more alerts not shown)`);
  lines.push('', '# Sources, most relevant first');
  if (session.sources.length === 0) lines.push("(none: only tools over the service's own data can run)");
  for (const source of [...session.sources].sort((a, b) => a.rank - b.rank)) {
    lines.push(`${source.rank}. ${source.name} (${source.type}), integrationId ${source.integrationId}: ${source.reason}`);
  }
  if (session.runs.length > 0) {
    lines.push('', '# Tool runs already recorded for this investigation');
    for (const run of session.runs) lines.push('', describeRun(run, runOutputCapBytes));
  }
  lines.push('', 'State your hypotheses, then gather evidence with the tools.');
  return lines.join('\n');
}

/**
 * The message as the built-in grammar reads it (see parseQuestion): a hint of what is asked, what
 * it names and over which range, and the rule that every number stated comes from a cited run.
 */
export function describeQuestion(message: string): string[] {
  const q = parseQuestion(message);
  const parts = [
    `kind ${q.kind}`,
    q.signals.length ? `signals ${q.signals.join(', ')}` : '',
    q.percentile !== null ? `percentile p${q.percentile * 100}` : '',
    q.listings.length ? `lists ${q.listings.join(', ')}` : '',
    q.rangeMinutes !== null ? `range the last ${q.rangeMinutes} min` : '',
    q.compare ? 'compare before and after' : '',
    q.byRoute ? 'split by route' : '',
    q.routes.length ? `routes ${q.routes.join(', ')}` : '',
    q.versions.length ? `versions ${q.versions.join(', ')}` : '',
    q.words.length ? `names ${q.words.join(', ')}` : '',
    q.refers ? 'refers to what the conversation named before' : '',
  ].filter(Boolean);
  return [
    '# The question, as read without a model (a hint)',
    parts.join('; '),
    'Answer what is asked, not the cause unless the cause is asked for. Every number you state must come from a tool run you cite; write numbers to three significant digits with their unit, and times in UTC.',
  ];
}

/**
 * The conversation so far: the earlier messages (the person's and the service's answers) and the
 * earlier turns' conclusions, as kept within the context budget.
 */
export function describeConversation(conversation: ConversationContext): string[] {
  const lines = [`# Conversation (this is turn ${conversation.turn}, asked by message #${conversation.messageSequence})`];
  if (conversation.droppedMessageSequences.length || conversation.droppedTurns.length)
    lines.push(
      `(${conversation.droppedMessageSequences.length} older message(s) and ${conversation.droppedTurns.length} older turn conclusion(s) were left out to fit the context budget)`,
    );
  if (conversation.messages.length === 0) lines.push('(no earlier messages)');
  for (const m of conversation.messages) lines.push(`- #${m.sequence} ${m.role} at ${m.at}: ${m.text}`);
  if (conversation.turns.length) {
    lines.push('', '## Earlier turns');
    for (const t of conversation.turns) {
      lines.push(
        `- Turn ${t.turn} (investigation ${t.investigationId}): ${t.status}${t.conclusionStatus ? `, ${t.conclusionStatus}` : ''}: ${t.summary ?? '(no summary)'}`,
      );
      for (const f of t.findings) lines.push(`  - ${f}`);
    }
  }
  lines.push(
    '',
    'Cite the messages that scoped a limitation by their numbers in its "messageSequences".',
    'If the question names something the sources do not have, or could mean several things, call ask_person with one question (listing what you found) instead of guessing.',
  );
  return lines;
}

const BUDGET_NAMES: Record<StoppedBy, string> = {
  tool_runs: 'tool-run',
  reasoner_turns: 'reasoner-turn',
  wall_clock: 'wall-clock',
  context: 'context',
};

export const budgetName = (stoppedBy: StoppedBy) => BUDGET_NAMES[stoppedBy];

/** The request for the best conclusion after a budget stopped the run. */
export function describeEarlyStop(stoppedBy: StoppedBy, hypotheses: HypothesisItem[]): string {
  const lines = [
    `The investigation has stopped: its ${budgetName(stoppedBy)} budget is spent and no more tools can run.`,
    'Call conclude now with the best conclusion the evidence above supports. Cite only the tool runs listed above.',
    `Include a limitation of type "budget" saying the ${budgetName(stoppedBy)} budget stopped the investigation and what remained unchecked.`,
  ];
  if (hypotheses.length > 0) lines.push('', 'Your hypotheses so far:', JSON.stringify(hypotheses));
  return lines.join('\n');
}
