import { CHANGE_LIMITS } from '@svc/changes';
import { Timestamp } from '@svc/platform';
import type { ActionItem, CauseVerification, Conclusion, EvidencePlot, FindingItem, HypothesisItem, LimitationItem, StoppedBy } from '../conclusion.types';
import { verificationGaps } from '../conclusion-verification';
import { BuiltInQuestion } from './built-in-question';
import { IncidentQuestions } from './questions/incident-questions';
import { parseQuestion, QuestionKind } from './questions/parse';
import {
  earliest,
  firstSampleAt,
  jumpOf,
  minutesBetween,
  MINUTE,
  pointsOf,
  round,
  sampleTimes,
  SeriesOut,
  seriesOf,
  shift,
  stepMicros,
} from './series-reading';
import { alertsOwnSeries, episodeStart } from './onset';
import { splitThreshold, type Threshold } from './threshold';
import { lostTimeUnexplained } from './graph/lost-time';
import { canPlace, canRankSuspects, Localized, Placement, placeEntity, rankSuspects } from './localize/localize';
import { selfCandidate, suspectCandidates, SUSPECT_HYPOTHESES } from './localize/hypotheses';
import { attachChanges, same, Suspect } from './localize/suspects';
import { serviceNamed } from './graph/call-graph';
import type { DetectedCause } from './explainers/explainer';
import { aboutLatency, detectionScopeOf, methodOf, podMatchersOf, REQUEST_COUNTERS, requestRatesByRoute, ROUTE_GROUPING, routeOf } from './explainers/labels';
import { SURGE_MIN_RPS, SURGE_RATIO } from './explainers/traffic-surge';
import { ExplainedCauses, explainCauses, explainersReads } from './explainers/registry';
import { MetricPresence } from './discovery/metric-presence';
import type { AlertBrief, IncidentBrief, InvestigationSession, RecordedRun, SourceBrief, ToolCall } from './reasoner';
import { alertServices, CHANGES_TOOL, describeChange, isObserved, recordedChangesOf, undoChange } from './recorded-changes';
import type { ConversationContext } from '../turn.types';
import type { Candidate } from './candidate';
import { unreadLimitation, unreadSource, UnreadSource } from './source-failure';
import { concludeWithDatastores, readDatastoresWithoutPrometheus } from './without-prometheus';

/** An alert of the incident other than the one investigated, and why it was not the one. */
interface OtherAlert {
  alertname: string;
  labels: Record<string, string>;
  why: string;
  run: RecordedRun | undefined;
}

/** Severity labels from the most to the least urgent: the tie-breaker between alerts. */
const SEVERITY = ['critical', 'error', 'high', 'warning', 'medium', 'info', 'low', 'none'];
const severityRank = (labels: Record<string, string>): number => {
  const i = SEVERITY.indexOf((labels.severity ?? '').toLowerCase());
  return i < 0 ? SEVERITY.length : i;
};

/** An alert whose condition held this long before another alert's began is chronic, not what started the incident. */
const CHRONIC_LEAD = 60n * MINUTE;

/** Working set at or above this share of the memory limit counts as at the limit. */
const AT_MEMORY_LIMIT = 0.9;

/** Labels that tell replicas apart, not builds: a new pod of the same build is not a new version. */
const REPLICA_LABELS = new Set(['__name__', 'job', 'instance', 'pod', 'node', 'uid', 'container_id', 'pod_ip', 'host_ip', 'ip', 'hostname', 'endpoint']);

/** kube-state-metrics' series of each container of a pod, with the image it runs. */
const CONTAINER_INFO = 'kube_pod_container_info';
/**
 * Of a container's series, the image names the build: its digest and the container's id are
 * empty until the container runs, so the same image shows as two series at every start.
 */
const CONTAINER_BUILD_LABELS = new Set(['namespace', 'container', 'image']);

/** The labels of a build series that name the build itself (version, revision, ...), sorted. */
const buildLabels = (metric: Record<string, string>): Array<[string, string]> =>
  Object.entries(metric)
    .filter(([k]) => (metric.__name__ === CONTAINER_INFO ? CONTAINER_BUILD_LABELS.has(k) : !REPLICA_LABELS.has(k)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const buildKey = (metric: Record<string, string>): string => JSON.stringify([metric.__name__, metric.job, buildLabels(metric)]);
/** A version as build labels name it: the one value that changed (`2.4.1`, an image), else `label=value` pairs. */
const versionText = (labels: Array<[string, string]>): string => (labels.length === 1 ? labels[0][1] : labels.map(([k, v]) => `${k}=${v}`).join(', '));
const matchers = (labels: Array<[string, string]>): string => labels.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');
/** A new version that served alone longer than this before the condition began did not start it. */
const QUIET_AFTER_ROLLOUT = 2n * MINUTE;

/** The metrics the read of new versions needs (without them, a limitation says deployments could not be seen). */
const BUILDS = ['.+_build_info', CONTAINER_INFO];
/** The metrics each other check for a change near the onset reads, and what it looks for. */
const PROCESS_RESTARTS = { reads: ['process_start_time_seconds'], looksFor: 'process restarts' };
const CONTAINER_RESTARTS = { reads: ['kube_pod_container_status_restarts_total'], looksFor: 'container restarts' };
const TARGETS_DOWN = { reads: ['up'], looksFor: 'scrape targets down' };
const PROCESS_CPU = { reads: ['process_cpu_seconds_total'], looksFor: 'process CPU saturation' };
const CHANGE_CHECKS = [PROCESS_RESTARTS, CONTAINER_RESTARTS, TARGETS_DOWN, PROCESS_CPU];

/** Reported changes before the onset taken as candidate causes, the closest to it first. */
const RECORDED_CHANGES_TESTED = 3;
/** A reported deploy this close to a new build the metrics show is that build. */
const SAME_ROLLOUT = 10n * MINUTE;
/** A change reported this soon after the onset may still be its cause (clocks and reports lag), in minutes. */
const REPORTED_LATE = 2;

/** How many ranked suspects are tested in order until one is supported. */
const RANKED_TESTED = 2;
/** The kinds of question a conversation turn answers as asked, from the data; the cause and what to do come from the incident's analysis. */
const ANSWERED_AS_ASKED = new Set<QuestionKind>(['signals', 'which', 'when', 'changes', 'related']);

const abs = (micros: bigint): bigint => (micros < 0n ? -micros : micros);

/** Points per series of a zoomed query: fine enough to date a change to a few seconds around the onset. */
const ZOOM_POINTS = 400;

/** Arguments of a range query from `from` to `until` (clamped to the window) at about ZOOM_POINTS points. */
function zoom(session: InvestigationSession, from: Timestamp, until: Timestamp): { start: string; end: string; step: number } {
  const start = from.isAfter(session.window.from) ? from : session.window.from;
  const end = until.isAfter(session.window.until) ? session.window.until : until;
  const seconds = Number((end.epochMicros - start.epochMicros) / 1_000_000n);
  return { start: start.toISOString(), end: end.toISOString(), step: Math.max(1, Math.ceil(seconds / ZOOM_POINTS)) };
}

const SATURATION_RATIO = 3;
const SATURATION_MIN_CORES = 0.5;

/**
 * When a CPU rate series jumped to saturation: the first sample at least SATURATION_RATIO times
 * the median of the range's first quarter (its usual level) and at least SATURATION_MIN_CORES.
 */
export function saturationStart(series: SeriesOut): Timestamp | null {
  return jumpOf(series, SATURATION_RATIO, SATURATION_MIN_CORES)?.at ?? null;
}

/** `name{job="...", version="...", ...}`: every replica running the build of this series. */
function buildSelector(metric: Record<string, string>): string {
  return `${metric.__name__ ?? ''}{${matchers([...(metric.job ? ([['job', metric.job]] as Array<[string, string]>) : []), ...buildLabels(metric)])}}`;
}

/**
 * The reasoner that needs no model: what a careful on-call engineer does first. Read the alerts,
 * find the rule that fired and query its expression to date the onset, look for changes around
 * the onset (a new build version, a restart, a target going down), state each as a hypothesis,
 * test each with a query around its time, and conclude from what the data showed.
 */
export class BuiltInReasoner {
  readonly name = 'built-in';
  private readonly hypotheses: HypothesisItem[] = [];
  private readonly limitations: LimitationItem[] = [];
  private onset: { at: Timestamp; runs: number[]; expression: string | null } | null = null;
  /** The labels of the condition's first series: which replica labels it can be joined on. */
  private conditionLabels: Record<string, string> = {};
  private alertRun: RecordedRun | undefined;
  /** The alert's expression without its comparison, read over the window, and the threshold it is compared with. */
  private symptom: { run: RecordedRun; threshold: Threshold } | null = null;
  private tested = new Map<string, { run: RecordedRun; supported: boolean; candidate: Candidate; mechanismRuns: number[] }>();

  private question: BuiltInQuestion | IncidentQuestions | null = null;
  /** The cause detectors once run: what they read answers some of the questions asked of proximate events. */
  private detectors: ExplainedCauses | null = null;
  /** What the build read before the onset said of new versions: none started (with the run that read them), or could not be seen. */
  private versions: { newOne: boolean; run: number; seen: boolean } | null = null;
  /** The alerts investigated: those of the alert that started the incident (all, when there is one). */
  private alerts: AlertBrief[] = [];
  /** The incident's other alerts, and why they were not investigated first. */
  private others: OtherAlert[] = [];
  /** The metrics source, once it is found that it could not be read: nothing is concluded from it after that. */
  private unread: UnreadSource | null = null;
  /** Where the alerting entity sits among what it calls and where it runs, once placed. */
  private placement: Placement | null = null;
  /** Services that suffer from the cause (they wait on it), stated as symptoms. */
  private consequences: FindingItem[] = [];
  /** Which of the metrics the checks read are collected in the window. */
  private presence = MetricPresence.UNKNOWN;
  /** The checks left out because none of the metrics they read has series in the window (a limitation unless a cause is verified). */
  private notLookedFor: string[] = [];

  async investigate(session: InvestigationSession): Promise<Conclusion> {
    if (!session.incident) {
      this.question = new BuiltInQuestion();
      return this.question.answer(session);
    }
    // In a conversation, a question about the incident's signals, pods, times, changes or relations is answered as asked;
    // the cause (and anything the grammar does not read) is investigated, and what to do is
    // answered with the investigation's actions.
    const asked = session.conversation ? parseQuestion(session.subject) : null;
    if (asked && ANSWERED_AS_ASKED.has(asked.kind)) {
      this.question = new IncidentQuestions(asked, session.conversation);
      return this.question.answerTurn(session);
    }
    const concluded = await this.investigateIncident(session, session.incident);
    return session.conversation ? answerInConversation(session.conversation, asked?.kind === 'actions', concluded) : concluded;
  }

  /** The incident analysis: the alert that started it, its onset, the changes and causes near it, tested. */
  private async investigateIncident(session: InvestigationSession, incident: IncidentBrief): Promise<Conclusion> {
    session.beginTurn();
    this.alertRun = await session.runTool({
      tool: 'incident.alert_events',
      integrationId: null,
      arguments: {},
      purpose: 'Which alerts fired, for what, and since when',
    });
    const firstAlert = earliest(session.alerts.map((a) => a.startsAt)) ?? incident.openedAt;
    this.onset = { at: firstAlert, runs: [this.alertRun.ordinal], expression: null };
    const prometheus = session.sources.filter((s) => s.type === 'prometheus');
    if (prometheus.length === 0) {
      this.limitations.push({
        type: 'missing_telemetry',
        statement: 'No Prometheus integration is connected, so the alert could not be compared with metrics',
        runRefs: [],
        messageSequences: [],
      });
      // What changed before it can still be shown; without metrics, none can be tested.
      const reported: Candidate[] = [];
      await this.reportedChanges(session, reported);
      for (const c of reported) this.hypotheses.push({ ...c.hypothesis, status: 'inconclusive' });
      if (reported.length) await session.updateHypotheses(this.hypotheses);
      // The datastores the alert names (or that serve its services) are read with their own tools.
      const datastores = await readDatastoresWithoutPrometheus(session, this.onset.at, this.hypotheses);
      return concludeWithDatastores(this.conclusion(session, null), datastores, session);
    }
    const source = prometheus[0];

    const chosen = await this.chooseAlert(session, source);
    if (this.cannotRead(session, source)) return this.conclusion(session, null);
    this.alerts = chosen.alerts;
    const alertname = chosen.alertname;
    this.onset = { at: earliest(this.alerts.map((a) => a.startsAt)) ?? this.onset.at, runs: this.onset.runs, expression: null };
    const scope = this.scopeMatchers();

    session.beginTurn();
    await this.dateOnset(session, source, alertname, chosen.rules, chosen.range);
    if (this.cannotRead(session, source)) return this.conclusion(session, null);
    await session.progress(`The condition began at ${this.onset.at.toISOString()}`);

    session.beginTurn();
    // Which metrics the checks below read are collected: a check with none of its metrics reads nothing.
    this.presence = await MetricPresence.read(session, source, [...BUILDS, ...CHANGE_CHECKS.flatMap((c) => c.reads), ...explainersReads()]);
    if (this.cannotRead(session, source)) return this.conclusion(session, null);
    const candidates = await this.changesNearOnset(session, source, scope);
    await this.reportedChanges(session, candidates);
    // A new version no deploy tool reported goes on the incident's timeline as a change seen in the metrics.
    const build = candidates.find((c) => c.hypothesis.id === 'h-version');
    if (build?.observed) build.changeId = (await session.noteRollout(build.observed)) ?? undefined;
    // The detectors of the standard exporters: causes found and dated on the alert's entity and its relations.
    if (this.onset.expression) {
      session.beginTurn();
      const detectors = await explainCauses(session, source, this.detectionScope(), undefined, this.presence);
      this.detectors = detectors;
      this.notLookedFor.push(...detectors.notLookedFor);
      const detected = detectors.causes;
      this.limitations.push(...detectors.limitations);
      // A restart whose failing liveness probe (or whose cause behind it) a detector found is a step of that chain, not a cause of its own.
      const explained = new Set(detected.flatMap((d) => d.restartedPods ?? []));
      for (let i = candidates.length - 1; i >= 0; i--) {
        const pod = candidates[i].subject?.pod;
        if (candidates[i].hypothesis.id === 'h-restart' && pod && explained.has(pod)) candidates.splice(i, 1);
      }
      // After a new version, before the proximate events (restarts, targets down, saturation) whose causes they may be.
      const at = candidates.findIndex((c) => c.hypothesis.id !== 'h-version');
      candidates.splice(
        at < 0 ? candidates.length : at,
        0,
        ...detected.filter((d, i) => detected.findIndex((o) => o.id === d.id) === i).map((d) => this.candidateOf(d)),
      );
    }
    for (const c of candidates) this.hypotheses.push(c.hypothesis);
    if (candidates.length) await session.updateHypotheses(this.hypotheses);

    for (const candidate of candidates) {
      session.beginTurn();
      await this.test(session, source, candidate);
      await session.updateHypotheses(this.hypotheses);
    }
    if (this.cannotRead(session, source)) return this.conclusion(session, null);
    // A change reported on a dependency found failing or slow, just before it, is what started it.
    this.foldReleasesIntoPeers(session);
    // A dependency found failing or slow may itself wait on something further down: walk on from it.
    await this.beyondPeer(session, source);
    // Nothing recognised explains the condition: place the alerting entity among what it calls
    // and where it runs; where the call graph times both sides of the calls, find where they lose time.
    if (!this.supportedYet() && !this.placement && canPlace(session, 1)) {
      session.beginTurn();
      this.placement = await placeEntity(
        session,
        source,
        this.alerts.map((a) => a.labels),
        this.onset.at,
        this.onset.expression,
      );
      const located = this.placement && this.lostTimeCandidate(session, this.placement);
      if (located) {
        this.hypotheses.push(located.hypothesis);
        await session.updateHypotheses(this.hypotheses);
      }
    }
    // Else read what changed on every candidate (the alerting entity, what it calls, what shares
    // its nodes), walk the calls downstream to the changes nothing explains, and test the first.
    if (this.placement && !this.supportedYet() && canRankSuspects(session, 1)) {
      session.beginTurn();
      const localized = await rankSuspects(
        session,
        source,
        this.placement,
        this.alerts.map((a) => a.labels),
        this.onset.at,
        1,
        aboutLatency(this.onset.expression ?? ''),
      );
      // The changes reported on every candidate: a release just before a candidate's own change names what started it.
      const reported = await this.candidateChanges(session, localized);
      const ranked = [...suspectCandidates(localized, this.onset.at, this.onset.expression, reported?.run), ...(reported?.unattached ?? [])].slice(
        0,
        SUSPECT_HYPOTHESES,
      );
      const self = ranked.length < SUSPECT_HYPOTHESES ? selfCandidate(localized, this.onset.at, this.conditionRuns(session), ranked.length) : null;
      if (self) self.hypothesis.status = 'inconclusive';
      if (ranked.length || self) {
        this.hypotheses.push(...ranked.map((c) => c.hypothesis), ...(self ? [self.hypothesis] : []));
        await session.updateHypotheses(this.hypotheses);
      }
      // A reported change that no change of its service's series followed is listed, not tested:
      // the condition beginning after it would support any change of a release train alike.
      for (const candidate of ranked.filter((c) => !c.hypothesis.id.startsWith('h-reported')).slice(0, RANKED_TESTED)) {
        // A ranked change's test is one run (its mechanism is untested): the last run of the budget will do.
        if (session.runs.length >= session.budgets.toolRuns) break;
        session.beginTurn();
        await this.test(session, source, candidate);
        await session.updateHypotheses(this.hypotheses);
        if (candidate.hypothesis.status !== 'supported') continue;
        // What waits on the supported suspect (or shares its node) changed as its consequence.
        const i = ranked.indexOf(candidate);
        if (i < localized.suspects.length) this.consequences.push(...this.waitingOn(session, localized.suspects[i], candidate));
        break;
      }
    }
    await this.readSymptom(session, source, alertname);
    return this.conclusion(session, null);
  }

  /**
   * The symptom as people look at it: the alert's expression without its comparison, over the
   * whole window, so it shows its level before the condition held as well as its rise past the
   * threshold. Read last, for the evidence plot, when the budget leaves a run for it.
   */
  private async readSymptom(session: InvestigationSession, source: SourceBrief, alertname: string | undefined): Promise<void> {
    const threshold = splitThreshold(this.onset?.expression);
    if (!threshold || session.runs.length >= session.budgets.toolRuns) return;
    session.beginTurn();
    const run = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query: threshold.symptom },
      purpose: `The symptom: ${alertname ?? 'the alert'}'s expression without its threshold (${threshold.comparison} ${threshold.value}), before and after the onset`,
    });
    if (run.outcome === 'succeeded' && seriesOf(run).length > 0) this.symptom = { run, threshold };
  }

  /**
   * The changes deploy and configuration tools reported before the onset on the candidates (the
   * alerting services, what they call, what shares their nodes), tied to the suspects whose own
   * change they lead (see attachChanges); those on a candidate that lead no suspect's change follow
   * as candidates of their own, the closest to the onset first. Null when no change was reported
   * around the window (the tool is not offered) or the budget leaves no run for it.
   */
  private async candidateChanges(session: InvestigationSession, localized: Localized): Promise<{ run: RecordedRun; unattached: Candidate[] } | null> {
    if (!session.tools.some((t) => t.name === CHANGES_TOOL) || session.runs.length + 2 > session.budgets.toolRuns) return null;
    const { relations, names } = localized.placement.candidates;
    const services = names.filter((n) => relations.get(n) !== 'node').slice(0, 20);
    const known = new Set([...this.tested.values()].map((t) => t.candidate.changeId).filter(Boolean));
    const run = await session.runTool({
      tool: CHANGES_TOOL,
      integrationId: null,
      arguments: { onset: this.onset!.at.toISOString(), services },
      purpose: `What changed (deploys, configuration, flags) before the onset on ${localized.placement.entity.name}, what it calls and what shares its nodes?`,
    });
    const recorded = recordedChangesOf(run).filter((c) => c.minutesBeforeOnset >= -REPORTED_LATE && c.service && !known.has(c.id));
    const unattached = attachChanges(localized.suspects, recorded, (c) => Timestamp.parse(c.occurredAt)!.epochMicros);
    const onset = this.onset!.at;
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
          action: undoChange(change, this.onset!.expression),
          unexplained: [`whether ${what} is what the alert's condition suffers from (none of ${change.service}'s series read changed after it)`],
          recorded: change,
          changeId: change.id,
        };
      });
    return { run, unattached: candidates };
  }

  /**
   * A supported change reported on a dependency that a detector found failing or slow, shortly
   * before its trouble began (a release, then its failures), is what started that trouble: the
   * change becomes the first cause, the dependency's trouble a step of its mechanism, and the
   * dependency's own candidate a consequence.
   */
  private foldReleasesIntoPeers(session: InvestigationSession): void {
    const tested = [...this.tested.values()];
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
      this.tested.delete(onPeer.candidate.hypothesis.id);
      const rest = [...this.tested.entries()].filter(([id]) => id !== change.hypothesis.id);
      this.tested.clear();
      this.tested.set(change.hypothesis.id, release);
      for (const [id, t] of rest) this.tested.set(id, t);
      const refs = [...new Set([onPeer.run.ordinal, onPeer.candidate.run.ordinal])];
      this.consequences.push({
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
  private async beyondPeer(session: InvestigationSession, source: SourceBrief): Promise<void> {
    const onPeer = [...this.tested.values()].find((t) => t.supported && t.candidate.detected?.peer && t.candidate.unexplained.length > 0);
    if (!onPeer || !canPlace(session, 4)) return;
    const peer = serviceNamed(onPeer.candidate.detected!.peer!);
    session.beginTurn();
    this.placement = await placeEntity(
      session,
      source,
      this.alerts.map((a) => a.labels),
      this.onset!.at,
      this.onset!.expression,
    );
    if (!this.placement || !canRankSuspects(session, 2)) return;
    const localized = await rankSuspects(
      session,
      source,
      this.placement,
      this.alerts.map((a) => a.labels),
      this.onset!.at,
      2,
      aboutLatency(this.onset!.expression ?? ''),
    );
    const reported = await this.candidateChanges(session, localized);
    // Below the dependency on the chain of calls, and no later than it; or the dependency itself
    // when a change reported on it led its trouble (a release, then its failures).
    const below = localized.suspects.filter((s) => {
      if (same(s.entity, peer)) return !!s.reported;
      const at = s.path.findIndex((p) => same(p, peer));
      return at >= 0 && at < s.path.length - 1 && s.lead.change.change.at <= onPeer.candidate.at.epochMicros + 60_000_000n;
    });
    if (!below.length) return;
    const deeper = suspectCandidates({ ...localized, suspects: below }, this.onset!.at, this.onset!.expression, reported?.run)[0];
    deeper.hypothesis.id = 'h-beyond';
    this.hypotheses.push(deeper.hypothesis);
    session.beginTurn();
    await this.test(session, source, deeper);
    await session.updateHypotheses(this.hypotheses);
    if (deeper.hypothesis.status !== 'supported') return;
    // The dependency's trouble is a step of the deeper cause's chain: a consequence, not a cause of its own.
    this.tested.delete(onPeer.candidate.hypothesis.id);
    const refs = [...new Set([onPeer.run.ordinal, onPeer.candidate.run.ordinal])];
    this.consequences.push({
      kind: 'symptom',
      statement: same(below[0].entity, peer)
        ? `${onPeer.candidate.hypothesis.statement.replace(/,? (and )?caused the alert's condition$/, '')}: after ${describeChange(below[0].reported!)}`
        : `${onPeer.candidate.hypothesis.statement.replace(/,? (and )?caused the alert's condition$/, '')}: ${peer} waits on ${below[0].entity}, whose change began no later`,
      mechanism: onPeer.candidate.mechanism,
      runRefs: refs,
      evidenceRefs: refs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n })),
    });
    this.consequences.push(...this.waitingOn(session, below[0], deeper));
  }

  /** The runs that read the alert's condition (its rule and its range), for what rests on the condition alone. */
  private conditionRuns(session: InvestigationSession): RecordedRun[] {
    const runs = new Set(this.onset?.runs ?? []);
    return session.runs.filter((r) => runs.has(r.ordinal) && r.outcome === 'succeeded');
  }

  /**
   * The entities whose changes a supported suspect explains (they wait on it, or share its node),
   * stated as symptoms, citing the run that showed the suspect's change.
   */
  private waitingOn(session: InvestigationSession, suspect: Suspect, first: Candidate): FindingItem[] {
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
  private lostTimeCandidate(session: InvestigationSession, placement: Placement): Candidate | null {
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
    this.tested.set(candidate.hypothesis.id, { run: graphRun, supported: true, candidate, mechanismRuns: [] });
    if (lost.dependents.length)
      this.consequences.push({
        kind: 'symptom',
        statement: `${lost.dependents.join(', ')} wait${lost.dependents.length === 1 ? 's' : ''} on ${lost.callee}: ${lost.dependents.length === 1 ? 'its' : 'their'} slowness is a consequence of the delay of the calls to it (callers losing time: ${lost.losing.map((l) => l.caller).join(', ')})`,
        mechanism: '',
        runRefs: [graphRun.ordinal],
        evidenceRefs: [{ investigationId: session.investigationId, toolRunOrdinal: graphRun.ordinal }],
      });
    return candidate;
  }

  /** Whether the metrics source's last read showed it cannot be read at all (see sourceUnreadable): then nothing more is read from it. */
  private cannotRead(session: InvestigationSession, source: SourceBrief): boolean {
    this.unread ??= unreadSource(session.runs, source);
    return this.unread !== null;
  }

  /** Whether a tested hypothesis is supported so far. */
  private supportedYet(): boolean {
    return [...this.tested.values()].some((t) => t.supported);
  }

  async concludeEarly(session: InvestigationSession, stoppedBy: StoppedBy): Promise<Conclusion> {
    if (this.question) return this.question.concludeEarly(session, stoppedBy);
    return this.conclusion(session, stoppedBy);
  }

  /** Label matchers of the alerting workload's pods (see podMatchersOf). */
  private podMatchers(): string {
    return podMatchersOf(this.alerts.map((a) => a.labels));
  }

  /** Label matchers that keep queries on the alerting service: its job, when the alerts name one. */
  private scopeMatchers(): string {
    const jobs = [...new Set(this.alerts.map((a) => a.labels.job).filter((j): j is string => !!j))];
    return jobs.length === 1 ? `job=${JSON.stringify(jobs[0])}` : '';
  }

  /**
   * Which alert to investigate when the incident holds several: the one that started it. Each
   * alert's rule expression is read over the window; an alert whose condition already held when
   * the window began (chronic) or that held in separate episodes (flapping) is left for last, and
   * among the rest the earliest condition wins (the more severe on a tie). The others are named in
   * a limitation and ruled out with the run that showed their history.
   */
  private async chooseAlert(
    session: InvestigationSession,
    source: SourceBrief,
  ): Promise<{ alertname: string | undefined; alerts: AlertBrief[]; rules?: RecordedRun; range?: RecordedRun }> {
    const names = [...new Set(session.alerts.map((a) => a.labels.alertname).filter((n): n is string => !!n))];
    const alertsOf = (name: string | undefined): AlertBrief[] => (name ? session.alerts.filter((a) => a.labels.alertname === name) : session.alerts);
    if (names.length <= 1) return { alertname: names[0] ?? session.incident!.labels.alertname, alerts: session.alerts };
    // A turn of its own only when there is a choice to read: with one alert nothing is read here.
    session.beginTurn();
    const rules = await session.runTool({
      tool: 'prometheus.alert_rules',
      integrationId: source.integrationId,
      arguments: {},
      purpose: `The conditions of the incident's alerts (${names.join(', ')}), to find the one that started it`,
    });
    const ruleList = rules.outcome === 'succeeded' ? ((rules.output as { rules?: Array<{ name?: string; query?: string }> } | null)?.rules ?? []) : [];
    const histories: Array<{ name: string; run?: RecordedRun; onset: Timestamp | null; chronic: boolean; episodes: number }> = [];
    for (const name of names.slice(0, 4)) {
      const query = ruleList.find((r) => r.name === name)?.query;
      if (!query) {
        histories.push({ name, onset: null, chronic: false, episodes: 0 });
        continue;
      }
      const run = await session.runTool({
        tool: 'prometheus.query_range',
        integrationId: source.integrationId,
        arguments: { query },
        purpose: `Since when, and how steadily, has ${name}'s condition held?`,
      });
      const step = stepMicros(run, 60);
      const times = sampleTimes(run);
      const episodes = times.filter((t, i) => i === 0 || t - times[i - 1] > 2n * step).length;
      const chronic = times.length > 0 && times[0] - session.window.from.epochMicros <= 2n * step;
      histories.push({ name, run, onset: times.length ? Timestamp.fromEpochMicros(times[0]) : null, chronic, episodes });
    }
    // A condition that had held for an hour or more when another alert's began is chronic beside it.
    for (const h of histories) {
      if (h.onset && h.episodes <= 1 && histories.some((g) => g.onset && g.onset.epochMicros - h.onset!.epochMicros >= CHRONIC_LEAD)) h.chronic = true;
    }
    const severity = (name: string): number => Math.min(...alertsOf(name).map((a) => severityRank(a.labels)));
    const steady = (h: (typeof histories)[number]): boolean => !!h.onset && !h.chronic && h.episodes <= 1;
    const order = [...histories].sort(
      (a, b) =>
        Number(steady(b)) - Number(steady(a)) ||
        (a.onset && b.onset && steady(a) ? Number(a.onset.epochMicros - b.onset.epochMicros) : 0) ||
        severity(a.name) - severity(b.name),
    );
    const chosen = order[0];
    for (const h of order.slice(1)) {
      const labels = alertsOf(h.name)[0]?.labels ?? {};
      const why = h.chronic
        ? `its condition had held since ${h.onset!.toISOString()}, an hour or more before ${chosen.name}'s began: a chronic condition`
        : h.episodes > 1
          ? `its condition came and went ${h.episodes} times in the window: a flapping alert`
          : h.onset && chosen.onset
            ? `its condition began at ${h.onset.toISOString()}, after ${chosen.name}'s`
            : 'its condition could not be read';
      this.others.push({ alertname: h.name, labels, why, run: h.run });
    }
    this.limitations.push({
      type: 'scope',
      statement: `The incident holds ${names.length} alerts; ${chosen.name} was investigated, as the one that started it. Not investigated: ${this.others.map((o) => `${o.alertname} (${o.why})`).join('; ')}`,
      runRefs: [rules.ordinal, ...histories.flatMap((h) => (h.run ? [h.run.ordinal] : []))],
      messageSequences: [],
    });
    return { alertname: chosen.name, alerts: alertsOf(chosen.name), rules, range: chosen.run };
  }

  /** What the detectors are told of the alert: its labels, its job and workload, its pods, and whether it is about latency. */
  private detectionScope() {
    return detectionScopeOf(
      this.alerts.map((a) => a.labels),
      this.onset!.at,
      aboutLatency(this.onset!.expression ?? ''),
    );
  }

  /** A detected cause as a hypothesis to test: does the condition hold only after it? */
  private candidateOf(d: DetectedCause): Candidate {
    return {
      at: d.at,
      run: d.run,
      hypothesis: {
        id: d.id,
        statement: d.statement,
        status: 'untested',
        test: `Does the condition hold only after ${d.at.toISOString()}?`,
        runRefs: [...new Set([d.run.ordinal, ...d.chainRuns, ...(d.refuted?.runs ?? [])])],
      },
      mechanism: d.mechanism,
      action: d.action,
      unexplained: d.unexplained,
      detected: d,
      refutedBecause: d.refuted?.because,
    };
  }

  /** The firing rule's expression over the window: the first time it held is the onset. */
  private async dateOnset(
    session: InvestigationSession,
    source: SourceBrief,
    alertname: string | undefined,
    allRules?: RecordedRun,
    history?: RecordedRun,
  ): Promise<void> {
    if (!alertname) return;
    const rules =
      allRules ??
      (await session.runTool({
        tool: 'prometheus.alert_rules',
        integrationId: source.integrationId,
        arguments: { name: alertname },
        purpose: `The condition the ${alertname} rule checks`,
      }));
    const listed = rules.outcome === 'succeeded' ? ((rules.output as { rules?: Array<{ name?: string; query?: string }> } | null)?.rules ?? []) : [];
    const rule = allRules ? listed.find((r) => r.name === alertname) : listed[0];
    if (!rule?.query) {
      // A failed read says nothing of which rules exist.
      this.limitations.push({
        type: rules.outcome === 'succeeded' ? 'missing_telemetry' : 'tool_failure',
        statement:
          rules.outcome === 'succeeded'
            ? `Prometheus has no alerting rule named ${alertname}, so the alert's condition could not be queried`
            : `The alerting rules could not be read (${rules.error ?? 'failed'}), so the alert's condition could not be queried`,
        runRefs: [rules.ordinal],
        messageSequences: [],
      });
      return;
    }
    const range =
      history ??
      (await session.runTool({
        tool: 'prometheus.query_range',
        integrationId: source.integrationId,
        arguments: { query: rule.query },
        purpose: `When did ${alertname}'s condition start to hold?`,
      }));
    // The episode the alert belongs to: the condition's last rise before the alert fired, not an
    // earlier, separate episode of the same condition within the window.
    const fired = earliest(this.alerts.map((a) => a.startsAt)) ?? this.onset!.at;
    const own = (run: RecordedRun): SeriesOut[] =>
      alertsOwnSeries(
        seriesOf(run),
        this.alerts.map((a) => a.labels),
      );
    const rangeStep = stepMicros(range, 60);
    const episode = episodeStart(
      own(range).flatMap((s) => pointsOf(s).map((p) => p.t.epochMicros)),
      rangeStep,
      fired.epochMicros + rangeStep,
    );
    const roughly = episode !== null ? Timestamp.fromEpochMicros(episode) : earliest(own(range).map(firstSampleAt));
    this.onset = { at: roughly ?? this.onset!.at, runs: [rules.ordinal, range.ordinal], expression: rule.query };
    if (!roughly) {
      if (range.outcome === 'succeeded') {
        this.limitations.push({
          type: 'missing_telemetry',
          statement: "The rule's expression returned no samples in the window; the onset is taken from the alert itself",
          runRefs: [range.ordinal],
          messageSequences: [],
        });
      }
      return;
    }
    // The whole window is read coarsely; the minutes around the first sample date the onset closely.
    const closer = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query: rule.query, ...zoom(session, shift(roughly, -5n * MINUTE), shift(roughly, MINUTE)) },
      purpose: `The onset of ${alertname}'s condition, to the second`,
    });
    const closerEnd = Timestamp.parse(String(closer.arguments.end ?? ''))?.epochMicros ?? roughly.epochMicros + MINUTE;
    const closerStart = episodeStart(
      own(closer).flatMap((s) => pointsOf(s).map((p) => p.t.epochMicros)),
      stepMicros(closer, 1),
      closerEnd,
    );
    const began = closerStart !== null ? Timestamp.fromEpochMicros(closerStart) : null;
    this.conditionLabels = (own(closer)[0] ?? own(range)[0])?.metric ?? {};
    if (began) this.onset = { at: began, runs: [rules.ordinal, range.ordinal, closer.ordinal], expression: rule.query };
  }

  /** Changes around the onset: a build version appearing, a process restarting, a target going down. */
  private async changesNearOnset(session: InvestigationSession, source: SourceBrief, scope: string): Promise<Candidate[]> {
    const onset = this.onset!.at;
    const inScope = (extra: string): string => `{${[extra, scope].filter(Boolean).join(', ')}}`;
    const candidates: Candidate[] = [];
    const near = (at: Timestamp): boolean => at.epochMicros <= onset.epochMicros + 2n * MINUTE && at.epochMicros >= session.window.from.epochMicros;

    // The quarter hour before the onset, finely: a change that explains it happened there.
    const around = zoom(session, shift(onset, -15n * MINUTE), shift(onset, MINUTE));
    // A program's own build series, and the images Kubernetes runs in the alerting workload's pods
    // (kube-state-metrics): a service that exports no build series still shows a new version there.
    const pods = this.podMatchers();
    const builds = this.presence.has(BUILDS)
      ? await session.runTool({
          tool: 'prometheus.query_range',
          integrationId: source.integrationId,
          arguments: { query: `${inScope('__name__=~".+_build_info"')}${pods ? ` or kube_pod_container_info{${pods}}` : ''}`, ...around },
          purpose: 'Did a new version start before the onset?',
        })
      : undefined;
    // A series there from the start of the range began before it: not a change.
    const windowStart = Timestamp.parse(around.start)!.epochMicros + BigInt(around.step) * 1_000_000n;
    const started = seriesOf(builds)
      .map((s) => ({ s, at: firstSampleAt(s) }))
      .filter((x): x is { s: SeriesOut; at: Timestamp } => !!x.at);
    // A new version replaces an older one of the same program (same metric and job, other version
    // labels): a build series with no such predecessor is where the data begins (a new service,
    // monitoring that just started) or a new instance of the same version, not a change.
    // An image replaces the one the same container ran before (a sidecar's image is another program).
    const replaces = (next: SeriesOut, older: SeriesOut): boolean =>
      next.metric.__name__ === older.metric.__name__ &&
      next.metric.job === older.metric.job &&
      next.metric.container === older.metric.container &&
      buildKey(next.metric) !== buildKey(older.metric);
    // Each replica of a build is a series of its own: a build started with its first replica.
    const buildStart = (x: { s: SeriesOut }): Timestamp =>
      earliest(started.filter((o) => buildKey(o.s.metric) === buildKey(x.s.metric)).map((o) => o.at)) ?? started[0].at;
    const newBuilds = started
      .filter((x) => x.at.epochMicros > windowStart && near(x.at) && started.some((other) => replaces(x.s, other.s) && x.at.isAfter(other.at)))
      .map((x) => ({ ...x, at: buildStart(x) }))
      .filter((x) => x.at.epochMicros > windowStart)
      .sort((a, b) => (b.at.isAfter(a.at) ? 1 : -1));
    // The program's own build series names the version best; an image is read when it has none.
    const ownBuilds = newBuilds.filter((x) => x.s.metric.__name__ !== CONTAINER_INFO);
    const appeared = ownBuilds.length ? ownBuilds : newBuilds;
    // Without build series in the window, the read of which metrics exist shows there are none.
    const buildsRead = builds ?? this.presence.run!;
    if (buildsRead.outcome === 'succeeded' && seriesOf(builds).length === 0) {
      this.limitations.push({
        type: 'missing_telemetry',
        statement: `No *_build_info metric${pods ? ' and no kube_pod_container_info of the alerting pods' : ''}: deployments could not be seen in the metrics`,
        runRefs: [buildsRead.ordinal],
        messageSequences: [],
      });
    }
    if (buildsRead.outcome === 'succeeded') this.versions = { newOne: appeared.length > 0, run: buildsRead.ordinal, seen: seriesOf(builds).length > 0 };
    if (builds && appeared[0]) {
      // A range query sees a new series at the first step after it appeared: it started within one step before.
      const step = BigInt(Math.round(((builds.output as { stepSeconds?: number } | null)?.stepSeconds ?? 0) * 1_000_000));
      const { s } = appeared[0];
      const at = Timestamp.fromEpochMicros(appeared[0].at.epochMicros - step);
      // The build it replaced: the latest other build that started before it. The rollout completed
      // when the new build's last replica started (a series' start is exact; its end is blurred by
      // Prometheus' lookback, which keeps a stopped series answering for minutes).
      const predecessor = started.filter((x) => replaces(s, x.s) && at.isAfter(x.at)).sort((a, b) => (b.at.isAfter(a.at) ? 1 : -1))[0];
      const replicas = started.filter((x) => buildKey(x.s.metric) === buildKey(s.metric)).map((x) => x.at);
      const rolledOutAt = replicas.reduce<Timestamp | null>((max, t) => (!max || t.isAfter(max) ? t : max), null);
      const changed = buildLabels(s.metric).filter(([k, v]) => predecessor?.s.metric[k] !== v);
      // The labels that name the new version: those that changed, else all of the build's.
      const named = changed.length ? changed : buildLabels(s.metric);
      const version = matchers(named) || s.metric.__name__;
      const program = s.metric.__name__ === CONTAINER_INFO ? s.metric.container : s.metric.job;
      candidates.push({
        at,
        run: builds,
        hypothesis: {
          id: 'h-version',
          statement: `The new build (${version}) that started at ${at.toISOString()} caused the alert's condition`,
          status: 'untested',
          test: `Does the condition hold only after ${at.toISOString()}?`,
          runRefs: [builds.ordinal],
        },
        mechanism: `A new build (${version}) of ${program ?? 'the service'} started ${minutesBetween(at, onset)} min before the condition began; the condition did not hold before it`,
        action: {
          title: `Roll back ${program ?? 'the service'} from ${version}`,
          rationale: 'The condition began with this version and not before',
          verification: `The alert's expression returns no series after the rollback${this.onset!.expression ? `: ${this.onset!.expression}` : ''}`,
        },
        unexplained: [],
        buildSelector: buildSelector(s.metric),
        rolledOutAt,
        observed:
          program && named.length
            ? {
                run: builds,
                at,
                seenIn: s.metric.__name__ === CONTAINER_INFO ? 'kubernetes' : 'prometheus',
                program,
                namespace: s.metric.namespace ?? null,
                versionBefore: predecessor ? versionText(named.map(([k]) => [k, predecessor.s.metric[k] ?? ''])) : null,
                versionAfter: versionText(named),
                labels: s.metric,
              }
            : undefined,
      });
    }

    const restarts = await this.readCollected(session, PROCESS_RESTARTS, {
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query: `changes(process_start_time_seconds${inScope('')}[5m]) > 0`, ...around },
      purpose: 'Did a process restart around the onset?',
    });
    // Kubernetes counts container restarts itself, with the pod and container: ask it too.
    const containerRestarts = pods
      ? await this.readCollected(session, CONTAINER_RESTARTS, {
          tool: 'prometheus.query_range',
          integrationId: source.integrationId,
          arguments: { query: `increase(kube_pod_container_status_restarts_total{${pods}}[5m]) > 0`, ...around },
          purpose: 'Did a container of the alerting workload restart around the onset?',
        })
      : undefined;
    const restarted = [restarts, containerRestarts]
      .flatMap((run) => seriesOf(run).map((s) => ({ s, run: run!, at: firstSampleAt(s) })))
      .filter((x): x is { s: SeriesOut; run: RecordedRun; at: Timestamp } => !!x.at && near(x.at))
      .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1))[0];
    const restartAt = restarted?.at;
    if (restartAt && !appeared[0]) {
      const what = restarted.s.metric.pod
        ? `A restart of ${restarted.s.metric.container ? `${restarted.s.metric.container} in ` : ''}${restarted.s.metric.pod}`
        : 'A process restart';
      candidates.push({
        at: restartAt,
        run: restarted.run,
        hypothesis: {
          id: 'h-restart',
          statement: `${what} at ${restartAt.toISOString()} caused the alert's condition`,
          status: 'untested',
          test: `Does the condition hold only after ${restartAt.toISOString()}?`,
          runRefs: [restarted.run.ordinal],
        },
        mechanism: `A process restarted ${minutesBetween(restartAt, onset)} min before the condition began`,
        action: {
          title: 'Find out why the process restarted',
          rationale: 'The condition began after a restart',
          verification: 'process_start_time_seconds stays constant and the alert resolves',
        },
        unexplained: ['why the process restarted (out of memory, a crash after a configuration change, a failing liveness probe)'],
        subject: restarted.s.metric,
      });
    }

    const down = await this.readCollected(session, TARGETS_DOWN, {
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query: `up${inScope('')} == 0`, ...around },
      purpose: 'Was a scrape target down around the onset?',
    });
    const downAt = earliest(
      seriesOf(down)
        .map(firstSampleAt)
        .filter((t): t is Timestamp => !!t && near(t)),
    );
    if (down && downAt) {
      const target = seriesOf(down)[0].metric;
      candidates.push({
        at: downAt,
        run: down,
        hypothesis: {
          id: 'h-target-down',
          statement: `Target ${target.instance ?? ''} (${target.job ?? ''}) went down at ${downAt.toISOString()}`,
          status: 'untested',
          test: `Does the condition hold only after ${downAt.toISOString()}?`,
          runRefs: [down.ordinal],
        },
        mechanism: `Prometheus could not scrape ${target.instance ?? 'a target'} from ${downAt.toISOString()}`,
        action: {
          title: `Check ${target.instance ?? 'the target'} of job ${target.job ?? ''}`,
          rationale: 'It stopped answering scrapes at the onset',
          verification: 'up returns 1 for the target again',
        },
        unexplained: [`why ${target.instance ?? 'the target'} stopped answering scrapes`],
      });
    }

    const cpu = await this.readCollected(session, PROCESS_CPU, {
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query: `rate(process_cpu_seconds_total${inScope('')}[1m])`, ...around },
      purpose: 'Did a process saturate its CPU around the onset?',
    });
    const saturated = seriesOf(cpu)
      .map((s) => ({ s, at: saturationStart(s) }))
      .find((x): x is { s: SeriesOut; at: Timestamp } => !!x.at && near(x.at));
    if (cpu && saturated) {
      const who = saturated.s.metric.instance ?? saturated.s.metric.job ?? 'a process';
      candidates.push({
        at: saturated.at,
        run: cpu,
        hypothesis: {
          id: 'h-cpu',
          statement: `CPU saturation of ${who} from ${saturated.at.toISOString()} caused the alert's condition`,
          status: 'untested',
          test: `Does the condition hold only after ${saturated.at.toISOString()}?`,
          runRefs: [cpu.ordinal],
        },
        mechanism: `${who} went from its usual CPU use to more than ${SATURATION_RATIO} times as much (and at least ${SATURATION_MIN_CORES} cores) at ${saturated.at.toISOString()}`,
        action: {
          title: `Relieve the CPU of ${who}`,
          rationale: 'Its CPU use jumped at the onset',
          verification: `rate(process_cpu_seconds_total[1m]) for ${who} returns to its earlier level and the alert resolves`,
        },
        unexplained: [`what drove the CPU use of ${who} up (more traffic, a new version, a change inside the process)`],
        subject: saturated.s.metric,
      });
    }
    return candidates;
  }

  /**
   * The changes deploy and configuration tools reported in the hour before the onset, on the
   * alerting services, on what they call (as investigations saw it) and on those naming none: each, the closest to the onset first, is a
   * candidate cause, tested as a new build is (the condition began after it, and soon after, not
   * once it had been in place a while). A reported deploy the metrics show as a new build is that
   * build's candidate, named by its report. Candidates go after the new build, before the
   * proximate events (restarts, targets down, saturation) whose cause they may be.
   */
  private async reportedChanges(session: InvestigationSession, candidates: Candidate[]): Promise<void> {
    // Offered when a change was recorded around the window: else there is nothing to read.
    if (!session.tools.some((t) => t.name === CHANGES_TOOL)) return;
    const onset = this.onset!.at;
    const run = await session.runTool({
      tool: CHANGES_TOOL,
      integrationId: null,
      arguments: { onset: onset.toISOString(), services: alertServices(this.alerts.length ? this.alerts : session.alerts) },
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
        action: undoChange(change, this.onset!.expression),
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

  /** Runs `call` when one of the metrics `check` reads has series in the window; else notes the check as not looked for. */
  private async readCollected(session: InvestigationSession, check: { reads: string[]; looksFor: string }, call: ToolCall): Promise<RecordedRun | undefined> {
    if (this.presence.has(check.reads)) return session.runTool(call);
    this.notLookedFor.push(check.looksFor);
    return undefined;
  }

  /**
   * Tests a change as the cause: the alert's condition, queried from well before the change to
   * after it, must be absent before the change and present after it.
   */
  private async test(session: InvestigationSession, source: SourceBrief, candidate: Candidate): Promise<void> {
    const h = candidate.hypothesis;
    // A detector already ruled it out with the runs that show it: nothing left to test.
    if (candidate.detected?.refuted) {
      h.status = 'refuted';
      this.tested.set(h.id, { run: candidate.run, supported: false, candidate, mechanismRuns: [] });
      return;
    }
    const expression = this.onset!.expression;
    if (!expression) {
      h.status = 'inconclusive';
      return;
    }
    const run = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      hypothesisId: h.id,
      arguments: { query: expression, ...zoom(session, shift(candidate.at, -15n * MINUTE), shift(this.onset!.at, 5n * MINUTE)) },
      purpose: `Test: ${h.test}`,
    });
    h.runRefs = [...h.runRefs, run.ordinal];
    if (run.outcome !== 'succeeded') {
      h.status = 'inconclusive';
      this.limitations.push({
        type: 'tool_failure',
        statement: `The test of "${h.statement}" could not run: ${run.error ?? 'failed'}`,
        runRefs: [run.ordinal],
        messageSequences: [],
      });
      return;
    }
    // The episode of the alerts' own series that runs into the onset: an earlier, separate episode
    // of the same condition (or another series of the rule) does not refute a change before this one.
    const times = alertsOwnSeries(
      seriesOf(run),
      this.alerts.map((a) => a.labels),
    ).flatMap((s) => pointsOf(s).map((p) => p.t.epochMicros));
    const step = stepMicros(run, 1);
    const began = episodeStart(times, step, this.onset!.at.epochMicros + step);
    const before = began !== null && began < candidate.at.epochMicros ? 1 : 0;
    const after = began === null ? 0 : times.filter((t) => t > candidate.at.epochMicros && t >= began).length;
    if (before === 0 && after > 0 && candidate.rolledOutAt) {
      const began = await this.sharpOnset(session, source, candidate);
      if (began && began.epochMicros - candidate.rolledOutAt.epochMicros > QUIET_AFTER_ROLLOUT)
        candidate.refutedBecause = candidate.recorded
          ? `the change was in place from ${candidate.rolledOutAt.toISOString()}, ${minutesBetween(candidate.rolledOutAt, began)} min before the condition began, without it`
          : `the new build served alone from ${candidate.rolledOutAt.toISOString()}, ${minutesBetween(candidate.rolledOutAt, began)} min before the condition began, without it`;
    }
    const supported = before === 0 && after > 0 && !candidate.refutedBecause;
    h.status = supported ? 'supported' : 'refuted';
    const mechanismRuns = !supported
      ? []
      : candidate.detected
        ? candidate.detected.mechanismRuns
        : h.id === 'h-restart'
          ? await this.askWhyRestarted(session, source, candidate)
          : h.id === 'h-cpu'
            ? await this.askWhySaturated(session, source, candidate)
            : await this.testMechanism(session, source, candidate);
    this.tested.set(h.id, { run, supported, candidate, mechanismRuns });
  }

  /**
   * CPU saturation is a proximate event: was it more traffic? The service's request rate by route
   * (the common HTTP server counters), from before the saturation: a route whose rate jumped to
   * SURGE_RATIO times its usual level no later than the saturation is the cause, and the query that
   * showed it tested the mechanism (it would have shown steady traffic otherwise).
   */
  private async askWhySaturated(session: InvestigationSession, source: SourceBrief, candidate: Candidate): Promise<number[]> {
    const job = candidate.subject?.job;
    const who = candidate.subject?.instance ?? job ?? 'the process';
    const h = candidate.hypothesis;
    const traffic = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      hypothesisId: h.id,
      arguments: {
        query: job ? requestRatesByRoute(job) : `sum by (${ROUTE_GROUPING}) (rate({__name__=~"${REQUEST_COUNTERS}"}[1m]))`,
        ...zoom(session, shift(candidate.at, -15n * MINUTE), shift(candidate.at, 2n * MINUTE)),
      },
      purpose: `Why did the CPU of ${who} jump: more traffic?`,
    });
    h.runRefs = [...h.runRefs, traffic.ordinal];
    const routes = seriesOf(traffic);
    if (traffic.outcome === 'succeeded' && routes.length === 0) {
      this.limitations.push({
        type: 'missing_telemetry',
        statement: `No HTTP request counter (${REQUEST_COUNTERS.split('|').join(', ')}) for ${job ?? 'the service'}: whether more traffic drove its CPU up could not be seen`,
        runRefs: [traffic.ordinal],
        messageSequences: [],
      });
      return [];
    }
    const surge = routes
      .map((s) => ({ s, jump: jumpOf(s, SURGE_RATIO, SURGE_MIN_RPS) }))
      .filter((x): x is { s: SeriesOut; jump: NonNullable<ReturnType<typeof jumpOf>> } => !!x.jump && !x.jump.at.isAfter(shift(candidate.at, MINUTE)))
      .sort((a, b) => b.jump.reached - b.jump.usual - (a.jump.reached - a.jump.usual))[0];
    if (!surge) {
      if (traffic.outcome === 'succeeded') {
        // The build read before the onset answered "a new version?"; a neighbour on the node starves a process but does not raise its own CPU use.
        const versions = this.versions;
        const noVersion = versions?.seen && !versions.newOne;
        if (noVersion) h.runRefs = [...new Set([...h.runRefs, versions.run])];
        candidate.unexplained = [
          `what drove the CPU use of ${who} up (its traffic did not jump${noVersion ? ' and no new version started near the onset' : ''}; ${noVersion ? 'a change inside the process, such as its configuration or the work it was given, remains' : 'a new version or a change inside the process remain'})`,
        ];
      }
      return [];
    }
    const m = surge.s.metric;
    const route = routeOf(m);
    const what = `${route ? `${methodOf(m) ? `${methodOf(m)} ` : ''}${route}` : 'all routes'} of ${m.job ?? job ?? 'the service'}`;
    const at = surge.jump.at.toISOString();
    h.statement = `A surge of traffic on ${what} from ${at} (${round(surge.jump.usual)} to ${round(surge.jump.reached)} requests/s), which saturated the CPU of ${who}, caused the alert's condition`;
    candidate.at = surge.jump.at;
    candidate.mechanism = `Requests on ${what} rose from ${round(surge.jump.usual)} to ${round(surge.jump.reached)} per second from ${at}; the CPU of ${who} saturated at ${candidate.mechanism.split(' at ').at(-1)}`;
    candidate.action = {
      title: `Absorb or shed the surge on ${what}`,
      rationale: 'The surge drove the CPU to saturation just before the condition began',
      verification: `The request rate on ${what} and the CPU of ${who} return to their usual levels, and the alert resolves`,
    };
    candidate.unexplained = [];
    return [traffic.ordinal];
  }

  /**
   * A restart is a proximate event: why did the process stop? Kubernetes records an out-of-memory
   * kill as the container's last termination reason; the kill is the cause, and verified, when
   * the container's working set was at its memory limit before the restart. The question needs the
   * restarted series' pod (Prometheus' Kubernetes discovery labels targets with it). Returns the
   * runs that showed the mechanism; rewrites the candidate to name the kill when one is found.
   */
  private async askWhyRestarted(session: InvestigationSession, source: SourceBrief, candidate: Candidate): Promise<number[]> {
    const { namespace, pod } = candidate.subject ?? {};
    if (!pod) {
      this.limitations.push({
        type: 'missing_telemetry',
        statement: "The restarted process's series has no pod label, so Kubernetes' record of why it stopped could not be read",
        runRefs: [candidate.run.ordinal],
        messageSequences: [],
      });
      return [];
    }
    const h = candidate.hypothesis;
    const podScope = [namespace ? `namespace=${JSON.stringify(namespace)}` : '', `pod=${JSON.stringify(pod)}`].filter(Boolean).join(', ');
    const before = zoom(session, shift(candidate.at, -15n * MINUTE), shift(candidate.at, 2n * MINUTE));
    const killed = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      hypothesisId: h.id,
      arguments: { query: `kube_pod_container_status_last_terminated_reason{${podScope}, reason="OOMKilled"} == 1`, ...before },
      purpose: `Why did ${pod} restart: was a container killed for running out of memory?`,
    });
    h.runRefs = [...h.runRefs, killed.ordinal];
    const container = seriesOf(killed)[0]?.metric.container;
    if (!container) {
      // The liveness detector read this pod's probes: they passed.
      const probed = this.detectors?.livenessPassed.get(pod);
      if (probed !== undefined) h.runRefs = [...new Set([...h.runRefs, probed])];
      if (killed.outcome === 'succeeded')
        candidate.unexplained = [
          probed !== undefined
            ? `why ${pod} restarted (no container of it was killed for running out of memory, and its liveness probe did not fail; a crash after a configuration change remains)`
            : `why ${pod} restarted (no container of it was killed for running out of memory; a crash after a configuration change or a failing liveness probe remain)`,
        ];
      return [];
    }
    const memory = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      hypothesisId: h.id,
      arguments: {
        query: `container_memory_working_set_bytes{${podScope}, container=${JSON.stringify(container)}} / on(namespace, pod, container) (container_spec_memory_limit_bytes{${podScope}, container=${JSON.stringify(container)}} > 0) >= ${AT_MEMORY_LIMIT}`,
        ...before,
      },
      purpose: `Was ${container} of ${pod} at its memory limit before the restart?`,
    });
    h.runRefs = [...h.runRefs, memory.ordinal];
    const atLimit = earliest(seriesOf(memory).map(firstSampleAt));
    const at = candidate.at.toISOString();
    h.statement = `The out-of-memory kill (OOMKilled) of container ${container} in pod ${pod}, restarted at ${at}, caused the alert's condition`;
    candidate.mechanism = atLimit
      ? `${container} reached ${AT_MEMORY_LIMIT * 100}% or more of its memory limit from ${atLimit.toISOString()}, was OOM-killed and restarted ${minutesBetween(candidate.at, this.onset!.at)} min before the condition began`
      : `${container} was OOM-killed and restarted ${minutesBetween(candidate.at, this.onset!.at)} min before the condition began`;
    candidate.action = {
      title: `Raise the memory limit of ${container} in ${pod}, or find what made its memory grow`,
      rationale: 'It was killed for running out of memory just before the condition began',
      verification: `kube_pod_container_status_last_terminated_reason{pod="${pod}", reason="OOMKilled"} stays absent and the alert resolves`,
    };
    if (!atLimit) {
      this.limitations.push({
        type: 'missing_telemetry',
        statement: `The memory of ${container} against its limit could not be read (container_memory_working_set_bytes, container_spec_memory_limit_bytes), so the out-of-memory kill is not verified`,
        runRefs: [memory.ordinal],
        messageSequences: [],
      });
      candidate.unexplained = [];
      return [];
    }
    candidate.unexplained = [];
    return [killed.ordinal, memory.ordinal];
  }

  /**
   * When the condition began, read with one-minute windows: a rule over `rate(...[5m])` crosses
   * its threshold minutes after what it measures changed, which would blur a rollout's effect with
   * the rollout itself. Null when the rule has no longer window or the query shows nothing.
   */
  private async sharpOnset(session: InvestigationSession, source: SourceBrief, candidate: Candidate): Promise<Timestamp | null> {
    const expression = this.onset!.expression;
    const sharp = expression?.replace(/\[(\d+)([smhdw])\]/g, (window, n: string, unit: string) =>
      Number(n) * ({ s: 1, m: 60, h: 3600, d: 86400, w: 604800 } as Record<string, number>)[unit] > 60 ? '[1m]' : window,
    );
    if (!expression || !sharp || sharp === expression) return this.onset!.at;
    const run = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      hypothesisId: candidate.hypothesis.id,
      arguments: { query: sharp, ...zoom(session, shift(candidate.at, -5n * MINUTE), shift(this.onset!.at, MINUTE)) },
      purpose: `When did the condition begin, read over one-minute windows?`,
    });
    candidate.hypothesis.runRefs = [...candidate.hypothesis.runRefs, run.ordinal];
    // The stretch that runs into the onset, without earlier blips of a noisier reading.
    const times = sampleTimes(run);
    if (times.length === 0) return null;
    return Timestamp.fromEpochMicros(episodeStart(times, stepMicros(run, 1), times[times.length - 1])!);
  }

  /**
   * Precedence alone is passed by any earlier event. For a new version the mechanism is tested
   * too: the condition holds on the instances that run it (a query that returns nothing when the
   * errors come from elsewhere, or cannot be told apart by instance). Returns the runs that showed
   * the mechanism.
   */
  private async testMechanism(session: InvestigationSession, source: SourceBrief, candidate: Candidate): Promise<number[]> {
    const expression = this.onset!.expression;
    // A reported change is dated by the tool that made it, on the service it names: its timing is
    // its mechanism, as for a rollout over the whole service (the report, and the precedence test
    // that found the condition began after it and soon after). One naming no service is not tied to the alert.
    if (candidate.recorded) return candidate.recorded.service ? [candidate.run.ordinal, ...candidate.hypothesis.runRefs.slice(-1)] : [];
    if (!candidate.buildSelector || !expression) return [];
    const h = candidate.hypothesis;
    const replica = ['pod', 'instance'].find((label) => this.conditionLabels[label] !== undefined);
    if (!replica) {
      // A condition over the whole service cannot be told apart by replica; the rollout's timing can:
      // it began while the build rolled out or just after, not after the build had served alone a while.
      if (candidate.rolledOutAt === undefined) return [];
      // The build query and the precedence test (the hypothesis' latest run) show it.
      return [candidate.run.ordinal, ...h.runRefs.slice(-1)];
    }
    const run = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      hypothesisId: h.id,
      arguments: {
        query: `(${expression}) and on(${replica}) ${candidate.buildSelector}`,
        ...zoom(session, candidate.at, shift(this.onset!.at, 5n * MINUTE)),
      },
      purpose: `Test: does the condition hold on the replicas running ${candidate.buildSelector}?`,
    });
    h.runRefs = [...h.runRefs, run.ordinal];
    if (seriesOf(run).some((s) => (s.values?.length ?? 0) > 0)) return [run.ordinal];
    this.limitations.push({
      type: 'missing_telemetry',
      statement:
        run.outcome === 'succeeded'
          ? `The condition could not be tied to the replicas running the new build (${candidate.buildSelector}): its series do not match them by ${replica}`
          : `The test of the new build's mechanism could not run: ${run.error ?? 'failed'}`,
      runRefs: [run.ordinal],
      messageSequences: [],
    });
    return [];
  }

  private conclusion(session: InvestigationSession, stoppedBy: StoppedBy | null): Conclusion {
    const incident = session.incident!;
    const onset = this.onset ?? { at: incident.openedAt, runs: [], expression: null };
    const alertRefs = this.alertRun ? [this.alertRun.ordinal] : [];
    const evidence = (runs: number[]) => runs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n }));
    const findings: FindingItem[] = [];
    const actions: ActionItem[] = [];
    const verificationOf = (t: { candidate: Candidate; mechanismRuns: number[] }): CauseVerification => ({
      causeAt: t.candidate.at.toISOString(),
      onsetAt: onset.at.toISOString(),
      mechanismRunRefs: t.mechanismRuns,
      unexplained: t.candidate.unexplained,
    });
    // Verified causes first, then the rest in the order they were found.
    const supported = [...this.tested.values()]
      .filter((t) => t.supported)
      .map((t) => {
        const refs = [...new Set([...onset.runs, t.candidate.run.ordinal, t.run.ordinal, ...t.mechanismRuns, ...(t.candidate.detected?.chainRuns ?? [])])];
        const finding: FindingItem = {
          kind: 'cause',
          statement: t.candidate.hypothesis.statement,
          mechanism: t.candidate.mechanism,
          runRefs: refs,
          evidenceRefs: evidence(refs),
          hypothesisId: t.candidate.hypothesis.id,
          verification: verificationOf(t),
        };
        return {
          ...t,
          refs,
          finding,
          gaps: verificationGaps(finding, new Map(session.runs.filter((r) => r.outcome === 'succeeded').map((r) => [r.ordinal, r]))),
        };
      })
      .sort((a, b) => Number(a.gaps.length > 0) - Number(b.gaps.length > 0));
    for (const { candidate, refs, finding } of supported) {
      findings.push(finding);
      actions.push({ ...candidate.action, runRefs: refs });
    }
    for (const { run, candidate } of [...this.tested.values()].filter((t) => !t.supported)) {
      const refs = [...new Set([candidate.run.ordinal, ...(candidate.detected?.refuted?.runs ?? [run.ordinal])])];
      findings.push({
        kind: 'ruled_out',
        statement: `Not the cause: ${candidate.hypothesis.statement} (${candidate.refutedBecause ?? 'the condition already held before it'})`,
        mechanism: '',
        runRefs: refs,
        evidenceRefs: evidence(refs),
      });
    }
    // The incident's other alerts: stated and ruled out with the runs that showed their history.
    for (const other of this.others.filter((o) => o.run?.outcome === 'succeeded')) {
      const on = ['namespace', 'job', 'pod', 'instance', 'node', 'container']
        .filter((k) => other.labels[k])
        .map((k) => `${k}=${other.labels[k]}`)
        .join(', ');
      findings.push({
        kind: 'ruled_out',
        statement: `Not the cause: the other alert ${other.alertname}${on ? ` (${on})` : ''}, because ${other.why}`,
        mechanism: '',
        runRefs: [other.run!.ordinal],
        evidenceRefs: evidence([other.run!.ordinal]),
      });
    }
    findings.push(...this.consequences);
    if (onset.expression) {
      findings.push({
        kind: 'symptom',
        statement: `The alert's condition (${onset.expression}) began to hold at ${onset.at.toISOString()}`,
        mechanism: '',
        runRefs: onset.runs,
        evidenceRefs: evidence(onset.runs),
      });
    }
    const limitations = [...this.limitations];
    if (stoppedBy)
      limitations.push({
        type: 'budget',
        statement: `The investigation stopped at its ${stoppedBy.replace('_', ' ')} budget before every hypothesis was tested`,
        runRefs: [],
        messageSequences: [],
      });
    if (this.unread) limitations.push(unreadLimitation(this.unread));
    for (const run of session.runs.filter((r) => r.outcome === 'failed' && !limitations.some((l) => l.runRefs.includes(r.ordinal)))) {
      limitations.push({ type: 'tool_failure', statement: `${run.tool} failed: ${run.error ?? 'no detail'}`, runRefs: [run.ordinal], messageSequences: [] });
    }
    const cause = supported[0];
    // A cause that is not verified says why: its gaps are the limitations of the conclusion; and
    // what could not be looked for for want of series might have been the cause.
    if (cause && cause.gaps.length > 0) limitations.push(...cause.gaps);
    const notLookedFor = this.presence.notLookedFor(this.notLookedFor);
    if (notLookedFor && !(cause && cause.gaps.length === 0)) limitations.push(notLookedFor);
    const alerts = session.alerts.length;
    const event = cause?.candidate.hypothesis.statement.replace(" caused the alert's condition", '');
    const timing = cause
      ? `the condition began at ${onset.at.toISOString()}, ${minutesBetween(cause.candidate.at, onset.at)} min after it, and did not hold before it`
      : '';
    // Without metrics to test them against (no Prometheus), reported changes are listed, not examined.
    const tested = this.hypotheses.filter((h) => h.status !== 'inconclusive' && h.status !== 'untested').length;
    // The suspects that remain, the most likely first: what the on-call engineer looks at next.
    const open = this.hypotheses.filter((h) => h.status !== 'refuted').slice(0, 3);
    const found =
      open.length && (tested > 0 || open.some((h) => h.status === 'untested'))
        ? `No cause is supported by a test; the ${open.length === 1 ? 'candidate' : 'candidates'}, the most likely first: ${open.map((h, i) => `(${i + 1}) ${h.statement.replace(" caused the alert's condition", '')}`).join('; ')}.`
        : this.hypotheses.length
          ? tested > 0
            ? `${this.hypotheses.length} change(s) near the onset were examined and none explains it.`
            : `${this.hypotheses.length} change(s) near the onset were found, and none could be tested.`
          : 'No change near the onset (new build, restart, target down) was found in the metrics.';
    const summary = this.unread
      ? `${this.unread.source.name} could not be read (${this.unread.error}): when the condition began and what changed near it are not known.`
      : !cause
        ? `The condition began at ${onset.at.toISOString()}. ${found}`
        : cause.gaps.length === 0
          ? `${event} is the cause: ${timing}.`
          : `${event} preceded the condition (${timing}), but is not verified as its cause: ${cause.candidate.unexplained.length > 0 ? `the data does not show ${cause.candidate.unexplained.join(', nor ')}` : 'its mechanism was not shown'}.`;
    // The condition's own read (the rule's expression over the window) stands in for the symptom when its threshold could not be split off.
    const conditionRun = onset.expression ? onset.runs[1] : undefined;
    const plot: EvidencePlot = {
      symptom: this.symptom
        ? { runOrdinal: this.symptom.run.ordinal, comparison: this.symptom.threshold.comparison, threshold: this.symptom.threshold.value }
        : conditionRun !== undefined
          ? { runOrdinal: conditionRun, comparison: null, threshold: null }
          : null,
      cause: cause ? { runOrdinal: cause.candidate.run.ordinal, at: cause.candidate.at.toISOString() } : null,
      onsetAt: onset.at.toISOString(),
      alertStartsAt: (earliest((this.alerts.length ? this.alerts : session.alerts).map((a) => a.startsAt)) ?? incident.openedAt).toISOString(),
      changes: [...this.tested.values()].map((t) => ({
        at: t.candidate.at.toISOString(),
        summary: t.candidate.hypothesis.statement,
        runOrdinal: t.candidate.run.ordinal,
        changeId: t.candidate.changeId ?? null,
      })),
    };
    return {
      ...(this.unread ? { incomplete: true } : {}),
      conclusionStatus: !cause ? 'inconclusive' : cause.gaps.length === 0 ? 'verified_cause' : 'supported_explanation',
      summary,
      impact: { summary: `${alerts} alert(s) in incident "${incident.title}" since ${onset.at.toISOString()}`, runRefs: alertRefs },
      findings,
      hypotheses: this.hypotheses,
      actions,
      limitations,
      plot,
    };
  }
}

/**
 * A conversation turn's conclusion as the answer to what was asked: what to do lists the proposed
 * actions (each with its rationale, how to verify it and the runs it rests on); another answer
 * ends with the runs its cause rests on (those of every finding, without a cause); an answer that
 * an earlier turn gave word for word says so, instead of repeating itself unannounced.
 */
export function answerInConversation(conversation: ConversationContext, asksWhatToDo: boolean, concluded: Conclusion): Conclusion {
  let summary = concluded.summary;
  if (asksWhatToDo)
    summary = concluded.actions.length
      ? [
          `What to do, from the analysis (${concluded.conclusionStatus.replace('_', ' ')}):`,
          ...concluded.actions.map((a, i) => `${i + 1}. ${a.title}: ${a.rationale}. Verify: ${a.verification} [${a.runRefs.map((r) => `#${r}`).join(', ')}]`),
        ].join('\n')
      : `No action is proposed: ${concluded.summary}`;
  // The answer cites the runs its cause rests on (or, without one, those of every finding), as every answer of a conversation does.
  if (!asksWhatToDo || !concluded.actions.length) {
    const causes = concluded.findings.filter((f) => f.kind === 'cause');
    const refs = [...new Set((causes.length ? causes : concluded.findings).flatMap((f) => f.runRefs))].sort((a, b) => a - b);
    if (refs.length) summary = `${summary} [${refs.map((r) => `#${r}`).join(', ')}]`;
  }
  const same = [...conversation.turns].reverse().find((t) => t.summary === summary);
  if (same) summary = `The same answer as turn ${same.turn}: ${summary}`;
  return { ...concluded, summary: summary.slice(0, 4096) };
}
