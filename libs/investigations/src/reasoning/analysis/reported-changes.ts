import { CHANGE_LIMITS } from '@svc/changes';
import { Timestamp } from '@svc/platform';
import type { Candidate } from '../candidate';
import type { Localized } from '../localize/localize';
import { SUSPECT_HYPOTHESES } from '../localize/hypotheses';
import { attachChanges } from '../localize/suspects';
import type { InvestigationSession, RecordedRun } from '../reasoner';
import { alertServices, CHANGES_TOOL, describeChange, isObserved, recordedChangesOf, undoChange } from '../recorded-changes';
import { MINUTE, minutesBetween } from '../series-reading';
import type { Analysis } from './state';

/** Reported changes before the onset taken as candidate causes, the closest to it first. */
const RECORDED_CHANGES_TESTED = 3;
/** A reported deploy this close to a new build the metrics show is that build. */
const SAME_ROLLOUT = 10n * MINUTE;
/** A change reported this soon after the onset may still be its cause (clocks and reports lag), in minutes. */
const REPORTED_LATE = 2;

const abs = (micros: bigint): bigint => (micros < 0n ? -micros : micros);

/**
 * The changes deploy and configuration tools reported in the hour before the onset, on the
 * alerting services, on what they call (as investigations saw it) and on those naming none: each, the closest to the onset first, is a
 * candidate cause, tested as a new build is (the condition began after it, and soon after, not
 * once it had been in place a while). A reported deploy the metrics show as a new build is that
 * build's candidate, named by its report. Candidates go after the new build, before the
 * proximate events (restarts, targets down, saturation) whose cause they may be.
 */
export async function reportedChanges(analysis: Analysis, session: InvestigationSession, candidates: Candidate[]): Promise<void> {
  // Offered when a change was recorded around the window: else there is nothing to read.
  if (!session.tools.some((t) => t.name === CHANGES_TOOL)) return;
  const onset = analysis.onset!.at;
  const run = await session.runTool({
    tool: CHANGES_TOOL,
    integrationId: null,
    arguments: { onset: onset.toISOString(), services: alertServices(analysis.alerts.length ? analysis.alerts : session.alerts) },
    purpose: 'What changed (deploys, configuration, flags, migrations) before the onset?',
  });
  const recorded = recordedChangesOf(run).filter((c) => c.minutesBeforeOnset >= -REPORTED_LATE);
  const build = candidates.find((c) => c.hypothesis.id === 'h-version');
  // The rollout an earlier investigation recorded from these metrics (the same program and version) is the new build itself.
  const seen = build?.observed;
  const itself =
    seen &&
    recorded.find(
      (c) =>
        isObserved(c) &&
        c.service?.toLowerCase() === seen.program.slice(0, CHANGE_LIMITS.maxNameLength).toLowerCase() &&
        c.versionAfter === seen.versionAfter.slice(0, CHANGE_LIMITS.maxVersionLength),
    );
  if (build && itself) {
    build.changeId = itself.id;
    build.observed = undefined;
  }
  const closestFirst = recorded
    .filter((c) => c !== itself)
    .reverse()
    .slice(0, RECORDED_CHANGES_TESTED);
  const added: Candidate[] = [];
  closestFirst.forEach((change, i) => {
    const at = Timestamp.parse(change.occurredAt)!;
    // A deploy reported on the alerting services (or naming none) near the new build is its report; a dependency's is a change of its own.
    const sameRollout =
      build &&
      !change.onDependency &&
      !isObserved(change) &&
      (change.kind === 'deploy' || change.kind === 'release') &&
      abs(at.epochMicros - build.at.epochMicros) <= SAME_ROLLOUT;
    if (build && sameRollout) {
      build.changeId ??= change.id;
      build.observed = undefined;
      build.mechanism += `; reported as ${describeChange(change)} (${change.source})`;
      build.hypothesis.runRefs = [...build.hypothesis.runRefs, run.ordinal];
      return;
    }
    const what = describeChange(change);
    const What = what.charAt(0).toUpperCase() + what.slice(1);
    added.push({
      at,
      run,
      hypothesis: {
        id: `h-change-${i + 1}`,
        statement: `${What} at ${change.occurredAt} caused the alert's condition`,
        status: 'untested',
        test: `Does the condition hold only after ${change.occurredAt}?`,
        runRefs: [run.ordinal],
      },
      mechanism: `${What} (${isObserved(change) ? `seen in ${change.source === 'kubernetes' ? 'kube-state-metrics' : 'its build series'} by an earlier investigation` : `reported through ${change.source}`})${change.onDependency ? ', on a service the alerting services call,' : ''} came ${minutesBetween(at, onset)} min before the condition began; the condition did not hold before it`,
      action: undoChange(change, analysis.onset!.expression),
      // On a dependency, the calls tie it to the alert, but no read shows the change's effect on them.
      unexplained: !change.service
        ? ['which service the change touched (its report names none)']
        : change.onDependency
          ? [`whether the change on ${change.service} is what the calls to it from the alerting services suffer from (no run here reads those calls)`]
          : [],
      rolledOutAt: at,
      recorded: change,
      changeId: change.id,
    });
  });
  const after = candidates.findIndex((c) => c.hypothesis.id !== 'h-version');
  candidates.splice(after < 0 ? candidates.length : after, 0, ...added);
}

/**
 * The changes deploy and configuration tools reported before the onset on the candidates (the
 * alerting services, what they call, what shares their nodes), tied to the suspects whose own
 * change they lead (see attachChanges); those on a candidate that lead no suspect's change follow
 * as candidates of their own, the closest to the onset first. Null when no change was reported
 * around the window (the tool is not offered) or the budget leaves no run for it.
 */
export async function candidateChanges(
  analysis: Analysis,
  session: InvestigationSession,
  localized: Localized,
): Promise<{ run: RecordedRun; unattached: Candidate[] } | null> {
  if (!session.tools.some((t) => t.name === CHANGES_TOOL) || session.runs.length + 2 > session.budgets.toolRuns) return null;
  const { relations, names } = localized.placement.candidates;
  const services = names.filter((n) => relations.get(n) !== 'node').slice(0, 20);
  const known = new Set([...analysis.tested.values()].map((t) => t.candidate.changeId).filter(Boolean));
  const run = await session.runTool({
    tool: CHANGES_TOOL,
    integrationId: null,
    arguments: { onset: analysis.onset!.at.toISOString(), services },
    purpose: `What changed (deploys, configuration, flags) before the onset on ${localized.placement.entity.name}, what it calls and what shares its nodes?`,
  });
  const recorded = recordedChangesOf(run).filter((c) => c.minutesBeforeOnset >= -REPORTED_LATE && c.service && !known.has(c.id));
  const unattached = attachChanges(localized.suspects, recorded, (c) => Timestamp.parse(c.occurredAt)!.epochMicros);
  const onset = analysis.onset!.at;
  const candidates = unattached
    .reverse()
    .slice(0, SUSPECT_HYPOTHESES)
    .map((change, i): Candidate => {
      const at = Timestamp.parse(change.occurredAt)!;
      const what = describeChange(change);
      const What = what.charAt(0).toUpperCase() + what.slice(1);
      return {
        at,
        run,
        hypothesis: {
          id: `h-reported-${i + 1}`,
          statement: `${What} at ${change.occurredAt} caused the alert's condition`,
          status: 'untested',
          test: `Does the condition hold only after ${change.occurredAt}?`,
          runRefs: [run.ordinal],
        },
        mechanism: `${What} (reported through ${change.source}) came ${minutesBetween(at, onset)} min before the condition began, on ${change.service}, which ${localized.placement.entity.name} ${relations.get(change.service ?? '') === 'neighbour' ? 'shares a node with' : 'depends on'}; no change of its own series followed it`,
        action: undoChange(change, analysis.onset!.expression),
        unexplained: [`whether ${what} is what the alert's condition suffers from (none of ${change.service}'s series read changed after it)`],
        recorded: change,
        changeId: change.id,
      };
    });
  return { run, unattached: candidates };
}
