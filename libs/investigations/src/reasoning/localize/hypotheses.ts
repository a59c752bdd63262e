import { Timestamp } from '@svc/platform';
import type { Candidate } from '../candidate';
import { level } from '../ranking/ranked-changes';
import type { RecordedRun } from '../reasoner';
import { describeChange, undoChange } from '../recorded-changes';
import { minutesBetween, seriesOf } from '../series-reading';
import type { Localized } from './localize';
import type { Anomaly, Suspect } from './suspects';

/** Suspects stated as hypotheses. */
export const SUSPECT_HYPOTHESES = 3;

/** How a change moved: "rise of the CPU use of x (metric) from 1% to 99% from <time>". */
export function moveOf(a: Anomaly): string {
  const c = a.change;
  const at = Timestamp.fromEpochMicros(c.change.at);
  return `${c.change.direction === 'up' ? 'rise' : 'fall'} of ${c.what} from ${level(c.measure, c.change.before)} to ${level(c.measure, c.change.after)} from ${at.toISOString()}`;
}

/** "frontend waits on checkout, which waits on currency": the chain of calls to a suspect. */
function chainText(path: string[]): string {
  if (path.length < 2) return '';
  return path.slice(1).reduce((text, callee, i) => `${text}${i === 0 ? ' waits on ' : ', which waits on '}${callee}`, path[0]);
}

/** Where a suspect stands against the alerting entity, in words. */
function standing(s: Suspect, alerting: string, nodes: string[]): string {
  switch (s.relation) {
    case 'callee':
      return s.path.length >= 2 ? `${chainText(s.path)}` : `${alerting} depends on ${s.entity}`;
    case 'neighbour':
      return `${s.entity} runs on the node${nodes.length === 1 ? '' : 's'} of ${alerting}'s pods (${nodes.join(', ')})`;
    case 'node':
      return `${alerting}'s pods run on node ${s.entity}`;
    case 'sibling':
      return `${s.entity} is listed by the same exporter and metrics as ${alerting}; no call between them is known`;
    default:
      return `${s.entity} is the alerting service itself`;
  }
}

/** What to do about a suspect's lead change, in the terms of its kind. */
function actionOf(s: Suspect): Candidate['action'] {
  const c = s.lead.change;
  const before = level(c.measure, c.change.before);
  const resource = c.measure.meaning.resource;
  if (s.lead.trouble === 'saturation' && (resource === 'cpu' || resource === 'memory'))
    return {
      title: `Relieve the ${resource === 'cpu' ? 'CPU' : 'memory'} of ${s.entity}: raise its limit, add replicas, or find what drives its use up`,
      rationale: `${c.what} rose to ${level(c.measure, c.change.after)} just before the condition began`,
      verification: `${c.what} returns to about ${before} and the alert resolves`,
    };
  return {
    title: `Look into ${s.entity}: ${c.what}`,
    rationale: `It changed just before the condition began, and nothing it depends on explains it`,
    verification: `${c.what} returns to about ${before} and the alert resolves`,
  };
}

/**
 * The first suspects as candidate causes: the change that ranks first on each, placed on the way
 * from the alerting entity (the chain of calls, the shared node), with what it explains. A change
 * the walk ranks is at most supported: no explainer tested its mechanism.
 */
export function suspectCandidates(localized: Localized, onset: Timestamp, condition: string | null, changesRun?: RecordedRun): Candidate[] {
  const { placement, suspects, discoveryRuns } = localized;
  const alerting = placement.entity.name;
  return suspects.slice(0, SUSPECT_HYPOTHESES).map((s, i) => {
    if (s.reported && changesRun) return reportedSuspect(localized, s, i, onset, condition, changesRun);
    const c = s.lead.change;
    const at = Timestamp.fromEpochMicros(c.change.at);
    const move = moveOf(s.lead);
    const runs = [...new Set([...placement.runs.map((r) => r.ordinal), ...discoveryRuns.map((r: RecordedRun) => r.ordinal), c.run.ordinal])];
    const nodes = placement.candidates.nodes;
    const explains = s.explains.filter((e) => e !== s.entity);
    const also = s.others.filter((o) => o.alignment >= s.lead.alignment / 2).slice(0, 2);
    return {
      at,
      run: c.run,
      hypothesis: {
        id: `h-suspect${i ? `-${i + 1}` : ''}`,
        statement: `A ${move} caused the alert's condition`,
        status: 'untested',
        test: `Does the condition hold only after ${at.toISOString()}?`,
        runRefs: runs,
      },
      mechanism: [
        `${standing(s, alerting, nodes)}: a ${move}, ${minutesBetween(at, onset)} min before the condition began`,
        ...(also.length ? [`with it, a ${also.map(moveOf).join(', and a ')}`] : []),
        ...(explains.length ? [`${explains.join(', ')} changed with it or after it, waiting on it or sharing its node`] : []),
        `ranked ${i + 1} of ${suspects.length} suspects: the changes nothing they depend on explains, by how closely they began at the onset and how strong they are`,
      ].join('; '),
      action: actionOf(s),
      unexplained: [`how the ${move.split(' from ')[0]} produced the alert's condition (no explainer recognises this change, so its mechanism is untested)`],
      // The alerting entity's own latency or errors rising is its condition showing; its saturation or restarts are not.
      ...(s.relation === 'alerting' && (s.lead.trouble === 'latency' || s.lead.trouble === 'errors') ? { ownSymptom: true } : {}),
      ...(s.lead.trouble === 'latency' ? { latencyOnly: true } : {}),
    };
  });
}

/**
 * When fewer suspects than SUSPECT_HYPOTHESES were found, what remains: the alerting entity
 * itself (its code, configuration or the work it was given), since nothing read on what it
 * depends on changed before its condition began. Null when the reads did not show that.
 */
export function selfCandidate(localized: Localized, onset: Timestamp, conditionRuns: RecordedRun[], index: number): Candidate | null {
  const read = [...localized.discoveryRuns, ...localized.rankingRuns];
  // What it depends on must have been read, and read whole: a failed or empty read shows nothing of it.
  if (!localized.rankingRuns.some((r) => seriesOf(r).length > 0) || read.some((r) => r.outcome !== 'succeeded') || !conditionRuns.length) return null;
  const alerting = localized.placement.entity.name;
  if (localized.suspects.some((s) => s.entity === alerting)) return null;
  const depends = localized.placement.candidates.names.filter((n) => n !== alerting);
  return {
    at: onset,
    run: conditionRuns[conditionRuns.length - 1],
    hypothesis: {
      id: `h-suspect${index ? `-${index + 1}` : ''}`,
      statement: `Something in ${alerting} itself (its code, its configuration or the work it was given) caused the alert's condition`,
      status: 'untested',
      test: `Did ${alerting}'s own logs or deploys change at ${onset.toISOString()}?`,
      runRefs: [...new Set([...conditionRuns.map((r) => r.ordinal), ...read.map((r) => r.ordinal)])],
    },
    mechanism: `Nothing read on what ${alerting} depends on${depends.length ? ` (${depends.slice(0, 8).join(', ')}${depends.length > 8 ? ', …' : ''})` : ''} changed before its condition began at ${onset.toISOString()}`,
    action: {
      title: `Look into ${alerting} itself: its logs, recent deploys and configuration around ${onset.toISOString()}`,
      rationale: 'Its condition began without a change in what it depends on',
      verification: "The alert's condition stops holding",
    },
    unexplained: [`what changed in ${alerting} (its metrics show the symptom, not its cause)`],
  };
}

/**
 * A suspect whose change a deploy or configuration tool reported just before it: the change, then
 * the suspect's change, named together ("the deploy of adservice 2.0 at 10:01, followed by a rise
 * of its failures from 10:02"). Still untested as a mechanism: at most supported.
 */
function reportedSuspect(localized: Localized, s: Suspect, i: number, onset: Timestamp, condition: string | null, changesRun: RecordedRun): Candidate {
  const change = s.reported!;
  const at = Timestamp.parse(change.occurredAt)!;
  const what = describeChange(change);
  const What = what.charAt(0).toUpperCase() + what.slice(1);
  const move = moveOf(s.lead);
  const { placement, discoveryRuns } = localized;
  const runs = [...new Set([...placement.runs.map((r) => r.ordinal), ...discoveryRuns.map((r) => r.ordinal), s.lead.change.run.ordinal, changesRun.ordinal])];
  return {
    at,
    run: s.lead.change.run,
    hypothesis: {
      id: `h-suspect${i ? `-${i + 1}` : ''}`,
      statement: `${What} at ${change.occurredAt}, followed by a ${move}, caused the alert's condition`,
      status: 'untested',
      test: `Does the condition hold only after ${change.occurredAt}?`,
      runRefs: runs,
    },
    mechanism: `${standing(s, placement.entity.name, placement.candidates.nodes)}: ${what} (reported through ${change.source}) came ${minutesBetween(at, onset)} min before the condition began, and a ${move} followed it${s.explains.length ? `; ${s.explains.join(', ')} changed with it or after it, waiting on it or sharing its node` : ''}`,
    action: undoChange(change, condition),
    unexplained: [`how the ${move.split(' from ')[0]} after ${what} produced the alert's condition (no explainer tested its mechanism)`],
    recorded: change,
    changeId: change.id,
  };
}
