import type { FindingItem } from '../../conclusion.types';
import type { Candidate } from '../candidate';
import { aboutLatency } from '../explainers/labels';
import { serviceNamed } from '../graph/call-graph';
import { lostTimeUnexplained } from '../graph/lost-time';
import { suspectCandidates } from '../localize/hypotheses';
import { canPlace, canRankSuspects, Placement, placeEntity, rankSuspects } from '../localize/localize';
import { same, Suspect } from '../localize/suspects';
import type { InvestigationSession, SourceBrief } from '../reasoner';
import { describeChange } from '../recorded-changes';
import { MINUTE } from '../series-reading';
import { testCandidate } from './precedence';
import { candidateChanges } from './reported-changes';
import type { Analysis } from './state';

/**
 * A supported change reported on a dependency that a detector found failing or slow, shortly
 * before its trouble began (a release, then its failures), is what started that trouble: the
 * change becomes the first cause, the dependency's trouble a step of its mechanism, and the
 * dependency's own candidate a consequence.
 */
export function foldReleasesIntoPeers(analysis: Analysis, session: InvestigationSession): void {
  const tested = [...analysis.tested.values()];
  for (const onPeer of tested.filter((t) => t.supported && t.candidate.detected?.peer)) {
    const peer = serviceNamed(onPeer.candidate.detected!.peer!);
    const release = tested.find(
      (t) =>
        t.supported &&
        t.candidate.recorded?.service &&
        same(t.candidate.recorded.service.toLowerCase(), peer.toLowerCase()) &&
        t.candidate.at.epochMicros <= onPeer.candidate.at.epochMicros + 2n * MINUTE &&
        onPeer.candidate.at.epochMicros - t.candidate.at.epochMicros <= 20n * MINUTE,
    );
    if (!release) continue;
    const change = release.candidate;
    change.mechanism = `${change.mechanism}; then ${onPeer.candidate.mechanism}`;
    // The calls to it are read now: what remains is what in the change made them fail or slow.
    change.unexplained = [`what in ${describeChange(change.recorded!)} made the calls to ${peer} fail or slow (no run tied them to its new version)`];
    change.hypothesis.runRefs = [...new Set([...change.hypothesis.runRefs, ...onPeer.candidate.hypothesis.runRefs])];
    release.mechanismRuns = [...new Set([...release.mechanismRuns, ...onPeer.mechanismRuns])];
    // The change first, the dependency's trouble stated as what followed it.
    analysis.tested.delete(onPeer.candidate.hypothesis.id);
    const rest = [...analysis.tested.entries()].filter(([id]) => id !== change.hypothesis.id);
    analysis.tested.clear();
    analysis.tested.set(change.hypothesis.id, release);
    for (const [id, t] of rest) analysis.tested.set(id, t);
    const refs = [...new Set([onPeer.run.ordinal, onPeer.candidate.run.ordinal])];
    analysis.consequences.push({
      kind: 'symptom',
      statement: `${onPeer.candidate.hypothesis.statement.replace(/,? (and )?caused the alert's condition$/, '')}: after ${describeChange(change.recorded!)}`,
      mechanism: onPeer.candidate.mechanism,
      runRefs: refs,
      evidenceRefs: refs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n })),
    });
    return;
  }
}

/**
 * A cause found on a dependency the alerting service calls (its calls failed or slowed), whose
 * own cause is not shown, may wait on something further down. The alerting entity is placed and
 * what changed on its candidates is read (with the changes reported on them); a suspect below the
 * dependency on the chain of calls, whose change began no later than the dependency's, takes its
 * place when it passes the same test: the dependency's failure or slowness becomes a consequence
 * stated with it (it waits on the suspect).
 */
export async function beyondPeer(analysis: Analysis, session: InvestigationSession, source: SourceBrief): Promise<void> {
  const onPeer = [...analysis.tested.values()].find((t) => t.supported && t.candidate.detected?.peer && t.candidate.unexplained.length > 0);
  if (!onPeer || !canPlace(session, 4)) return;
  const peer = serviceNamed(onPeer.candidate.detected!.peer!);
  session.beginTurn();
  analysis.placement = await placeEntity(session, source, analysis.alertLabels, analysis.onset!.at, analysis.onset!.expression);
  if (!analysis.placement || !canRankSuspects(session, 2)) return;
  const localized = await rankSuspects(
    session,
    source,
    analysis.placement,
    analysis.alertLabels,
    analysis.onset!.at,
    2,
    aboutLatency(analysis.onset!.expression ?? ''),
  );
  const reported = await candidateChanges(analysis, session, localized);
  // Below the dependency on the chain of calls, and no later than it; or the dependency itself
  // when a change reported on it led its trouble (a release, then its failures).
  const below = localized.suspects.filter((s) => {
    if (same(s.entity, peer)) return !!s.reported;
    const at = s.path.findIndex((p) => same(p, peer));
    return at >= 0 && at < s.path.length - 1 && s.lead.change.change.at <= onPeer.candidate.at.epochMicros + 60_000_000n;
  });
  if (!below.length) return;
  const deeper = suspectCandidates({ ...localized, suspects: below }, analysis.onset!.at, analysis.onset!.expression, reported?.run)[0];
  deeper.hypothesis.id = 'h-beyond';
  analysis.hypotheses.push(deeper.hypothesis);
  session.beginTurn();
  await testCandidate(analysis, session, source, deeper);
  await session.updateHypotheses(analysis.hypotheses);
  if (deeper.hypothesis.status !== 'supported') return;
  // The dependency's trouble is a step of the deeper cause's chain: a consequence, not a cause of its own.
  analysis.tested.delete(onPeer.candidate.hypothesis.id);
  const refs = [...new Set([onPeer.run.ordinal, onPeer.candidate.run.ordinal])];
  analysis.consequences.push({
    kind: 'symptom',
    statement: same(below[0].entity, peer)
      ? `${onPeer.candidate.hypothesis.statement.replace(/,? (and )?caused the alert's condition$/, '')}: after ${describeChange(below[0].reported!)}`
      : `${onPeer.candidate.hypothesis.statement.replace(/,? (and )?caused the alert's condition$/, '')}: ${peer} waits on ${below[0].entity}, whose change began no later`,
    mechanism: onPeer.candidate.mechanism,
    runRefs: refs,
    evidenceRefs: refs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n })),
  });
  analysis.consequences.push(...waitingOn(session, below[0], deeper));
}

/**
 * The entities whose changes a supported suspect explains (they wait on it, or share its node),
 * stated as symptoms, citing the run that showed the suspect's change.
 */
export function waitingOn(session: InvestigationSession, suspect: Suspect, first: Candidate): FindingItem[] {
  const waiting = suspect.explains.filter((e) => e !== suspect.entity);
  if (!waiting.length) return [];
  const runs = [first.run.ordinal];
  return [
    {
      kind: 'symptom',
      statement: `${waiting.join(', ')} ${waiting.length === 1 ? 'changes' : 'change'} after ${suspect.entity}: ${waiting.length === 1 ? 'it waits' : 'they wait'} on it or ${waiting.length === 1 ? 'shares' : 'share'} its node, so ${waiting.length === 1 ? 'its' : 'their'} change is a consequence`,
      mechanism: '',
      runRefs: runs,
      evidenceRefs: runs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n })),
    },
  ];
}

/**
 * Where the calls the alerting services depend on lose their time (see whereTimeIsLost), as a
 * supported hypothesis: the graph read shows the callers' waits against the callee's handling.
 * What delays the calls between them is not shown, so it is never verified; the services that
 * wait on the callee are stated as consequences.
 */
export function lostTimeCandidate(analysis: Analysis, session: InvestigationSession, placement: Placement): Candidate | null {
  const { lost, graph, runs } = placement;
  if (!lost || !graph) return null;
  const graphRun = runs[runs.length - 1];
  const seconds = (v: number): string => `${v >= 1 ? v.toFixed(2) : v.toFixed(3)} s`;
  const worst = lost.losing[0];
  const event = `A delay of ${seconds(lost.lost)} per call to ${lost.callee}, lost between its callers and it, from ${lost.since.toISOString()}`;
  const candidate: Candidate = {
    at: lost.since,
    run: graphRun,
    hypothesis: {
      id: 'h-lost-time',
      statement: `${event} caused the alert's condition`,
      status: 'supported',
      test: `Do the calls to ${lost.callee} take longer for its callers than for it, from the onset on?`,
      runRefs: runs.map((r) => r.ordinal),
    },
    mechanism: `${lost.losing.length} of its ${lost.callers} callers wait ${seconds(worst.waited)} per call (the most affected) while it handles each in ${seconds(worst.handled)} (${graph.source}): the time goes between them, on its network, a proxy or a queue in front of it, not in its work, and every service that calls it on the way from the alerting service waits as long`,
    action: {
      title: `Look into the path to ${lost.callee}: its network, its proxy, what queues in front of it`,
      rationale: `Its callers wait ${seconds(lost.lost)} per call longer than it takes to answer, from ${lost.since.toISOString()}`,
      verification: `Its callers' wait returns to about its handling time and the alert resolves`,
    },
    unexplained: [lostTimeUnexplained(lost)],
  };
  analysis.tested.set(candidate.hypothesis.id, { run: graphRun, supported: true, candidate, mechanismRuns: [] });
  if (lost.dependents.length)
    analysis.consequences.push({
      kind: 'symptom',
      statement: `${lost.dependents.join(', ')} wait${lost.dependents.length === 1 ? 's' : ''} on ${lost.callee}: ${lost.dependents.length === 1 ? 'its' : 'their'} slowness is a consequence of the delay of the calls to it (callers losing time: ${lost.losing.map((l) => l.caller).join(', ')})`,
      mechanism: '',
      runRefs: [graphRun.ordinal],
      evidenceRefs: [{ investigationId: session.investigationId, toolRunOrdinal: graphRun.ordinal }],
    });
  return candidate;
}
