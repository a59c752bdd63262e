import type { Conclusion, StoppedBy } from '../conclusion.types';
import { chooseAlert } from './analysis/alert-choice';
import { answerInConversation, conclude } from './analysis/conclusion';
import { dateOnset, readSymptom } from './analysis/condition';
import { candidateOf, testCandidate } from './analysis/precedence';
import { candidateChanges, reportedChanges } from './analysis/reported-changes';
import { snapshotFinding } from './analysis/kubernetes-snapshot';
import { KUBERNETES_SNAPSHOT_TOOL_NAME } from './explainers/kubernetes-pods';
import { Analysis } from './analysis/state';
import { beyondPeer, foldReleasesIntoPeers, lostTimeCandidate, waitingOn } from './analysis/walk';
import { BuiltInQuestion } from './built-in-question';
import type { Candidate } from './candidate';
import { MetricPresence } from './discovery/metric-presence';
import type { DetectedCause } from './explainers/explainer';
import { aboutLatency, detectionScopeOf, escape } from './explainers/labels';
import { RESERVED_RUNS } from './explainers/context';
import { CAUSE_EXPLAINERS, CHANGE_EXPLAINERS, explainCauses, explainersReads, LOG_EXPLAINERS } from './explainers/registry';
import { selfCandidate, suspectCandidates, SUSPECT_HYPOTHESES } from './localize/hypotheses';
import { canPlace, canRankSuspects, placeEntity, rankSuspects } from './localize/localize';
import { logErrorCandidates, runsKeptForLogs } from './localize/log-errors';
import { readsTheCluster } from './questions/cluster';
import { IncidentQuestions } from './questions/incident-questions';
import { meaningsAsked, meaningsOnly } from './questions/glossary';
import { followingUp, parseQuestion, placesAnUnknownWord, QuestionKind, questionParts, suspectsOf } from './questions/parse';
import { BudgetExhausted } from './reasoner';
import type { IncidentBrief, InvestigationSession, SourceBrief } from './reasoner';
import { readDatastoresWithoutPrometheus, concludeWithDatastores } from './without-prometheus';
import { earliest } from './series-reading';
import { unreadSource } from './source-failure';

/** How many ranked suspects are tested in order until one is supported. */
const RANKED_TESTED = 2;
/** The kinds of question a conversation turn answers as asked, from the data; the cause and what to do come from the incident's analysis. */
const ANSWERED_AS_ASKED = new Set<QuestionKind>(['signals', 'which', 'when', 'changes', 'related', 'logs', 'outside']);

/** Detected causes in order of first appearance, one per hypothesis id. */
const firstOfEach = (causes: DetectedCause[]): DetectedCause[] => causes.filter((d, i) => causes.findIndex((o) => o.id === d.id) === i);

/**
 * The reasoner that needs no model: what a careful on-call engineer does first. Read the alerts,
 * find the rule that fired and query its expression to date the onset, look for changes around
 * the onset (a new build version, a restart, a target going down, a change a tool reported), run
 * the cause detectors, state each as a hypothesis, test each with a query around its time and ask
 * why it happened; when nothing is supported, place the alerting entity among what it calls and
 * walk the calls down to what changed first; conclude from what the data showed. Its steps are
 * the modules of `analysis/`, sharing what is known so far (Analysis).
 */
/** The kinds of question answered as asked that read a few series: answered before an investigation asked with them. */
const CHEAP_KINDS = new Set<QuestionKind>(['signals', 'when', 'which', 'changes', 'outside']);

export class BuiltInReasoner {
  readonly name = 'built-in';
  private readonly analysis = new Analysis();
  private question: BuiltInQuestion | IncidentQuestions | null = null;

  async investigate(session: InvestigationSession): Promise<Conclusion> {
    if (!session.incident) {
      this.question = new BuiltInQuestion();
      return this.question.answer(session);
    }
    // What the words of the incident mean ("what's a liveness probe, and how many times did cart restart?"): said after the answer
    // to the rest of the message, which is answered as if they had not been asked.
    const { meanings, rest } = session.conversation ? meaningsAsked(session.subject) : { meanings: [], rest: session.subject };
    if (!meanings.length) return this.answerAbout(session, session.subject, session.incident);
    if (!rest) return meaningsOnly(session, meanings);
    const answer = await this.answerAbout(session, rest, session.incident);
    if (answer.question !== undefined) return answer;
    return { ...answer, summary: [answer.summary, ...meanings].join('\n').slice(0, 4096) };
  }

  /** The answer to `message` (a conversation's turn, or the incident's investigation). */
  private async answerAbout(session: InvestigationSession, message: string, incident: IncidentBrief): Promise<Conclusion> {
    // In a conversation, a question about the incident's signals, pods, times, changes, relations, logs or cluster is answered as asked;
    // the cause (and anything the grammar does not read) is investigated, and what to do is
    // answered with the investigation's actions.
    // A follow-up that only names another subject ("what about payments?") asks the question before of it.
    const earlier = session.conversation?.messages.filter((m) => m.role === 'user').map((m) => m.text) ?? [];
    const asked = session.conversation ? followingUp(parseQuestion(message), message, earlier) : null;
    // What the cluster says (its events, why a pod crashed) is read from it when a Kubernetes integration is connected.
    const fromCluster = !!asked && readsTheCluster(asked, session);
    // A message that asks several questions answered as asked ("which pods are hit and what's their p99?") gets each answered, in order.
    const parts = asked ? questionParts(message) : [];
    if (parts.length && parts.every((p) => ANSWERED_AS_ASKED.has(p.asked.kind) || readsTheCluster(p.asked, session))) {
      this.question = new IncidentQuestions(parts[0].asked, session.conversation, parts);
      return this.question.answerTurn(session);
    }
    // The cause or what to do asked with questions answered as asked ("what's the cause, and how much of payments' traffic fails?"):
    // one answer, in the order asked. Parts that read a few series (a measure, a time, a listing, the changes) are answered first and
    // the investigation spends the runs left as its budget allows; a part that reads more (how two services relate, logs, the cluster)
    // comes after the investigation, with the runs it left, so that the cause is not starved.
    const asAsked = parts.filter((p) => ANSWERED_AS_ASKED.has(p.asked.kind) || readsTheCluster(p.asked, session));
    if (asked && !asAsked.length && (ANSWERED_AS_ASKED.has(asked.kind) || fromCluster)) {
      this.question = new IncidentQuestions(asked, session.conversation);
      return this.question.answerTurn(session);
    }
    // A name no source knows, in a question the investigation would answer ("is shipping-api part of this?"), is asked about first.
    // (Not a change's name: "the statements-static deploy or archive?" names a deploy, which the investigation weighs.)
    const namesAChange = (w: string): boolean =>
      new RegExp(`\\b${escape(w)}\\s+(deploy|deployment|rollout|release|build|version|image|change|config\\w*)`, 'i').test(message);
    if (
      asked &&
      // (Or whether it is involved: "is the thumbnailer service involved in this?")
      (asked.kind === 'unknown' || asked.kind === 'cause') &&
      (asked.nameShaped.some((w) => !namesAChange(w)) || placesAnUnknownWord(asked)) &&
      !parts.length
    ) {
      const ask = await new IncidentQuestions(asked, session.conversation).askIfUnknown(session);
      if (ask) return ask;
    }
    const asksActions = parts.length ? parts.some((p) => p.asked.kind === 'actions') : asked?.kind === 'actions';
    const cheap = asAsked.every((p) => CHEAP_KINDS.has(p.asked.kind) && !readsTheCluster(p.asked, session));
    const answerParts = async (): Promise<Conclusion | null> => {
      if (!asAsked.length) return null;
      const questions = new IncidentQuestions(asAsked[0].asked, session.conversation, asAsked, true);
      // A budget spent on those parts ends them with what they read; the investigation's answer stands.
      return questions.answerTurn(session).catch((err: unknown) => {
        if (err instanceof BudgetExhausted) return questions.concludeEarly(session, err.stoppedBy);
        throw err;
      });
    };
    let answered = cheap ? await answerParts() : null;
    if (answered?.question !== undefined) return answered;
    const concluded = await this.investigateIncident(session, incident);
    if (!cheap) answered = await answerParts();
    if (answered?.question !== undefined) return answered;
    const alsoTheCause = parts.some((p) => p.asked.kind === 'cause');
    const answer = session.conversation
      ? answerInConversation(session.conversation, asksActions, concluded, alsoTheCause, asked && suspectsOf(asked, message))
      : concluded;
    if (!answered) return answer;
    const causeFirst = parts.findIndex((p) => !asAsked.includes(p)) < parts.indexOf(asAsked[0]);
    return {
      ...answer,
      summary: (causeFirst ? [answer.summary, answered.summary] : [answered.summary, answer.summary]).join('\n').slice(0, 4096),
      findings: [...answer.findings, ...answered.findings],
      limitations: [...answer.limitations, ...answered.limitations],
    };
  }

  async concludeEarly(session: InvestigationSession, stoppedBy: StoppedBy): Promise<Conclusion> {
    if (this.question) return this.question.concludeEarly(session, stoppedBy);
    return conclude(this.analysis, session, stoppedBy);
  }

  /** The incident analysis: the alert that started it, its onset, the changes and causes near it, tested. */
  private async investigateIncident(session: InvestigationSession, incident: IncidentBrief): Promise<Conclusion> {
    const analysis = this.analysis;
    session.beginTurn();
    analysis.alertRun = await session.runTool({
      tool: 'incident.alert_events',
      integrationId: null,
      arguments: {},
      purpose: 'Which alerts fired, for what, and since when',
    });
    // What Kubernetes showed when the incident opened (its events expire after an hour): read first, stated when it shows trouble.
    if (session.tools.some((t) => t.name === KUBERNETES_SNAPSHOT_TOOL_NAME)) {
      const snapshot = await session.runTool({
        tool: KUBERNETES_SNAPSHOT_TOOL_NAME,
        integrationId: null,
        arguments: {},
        purpose: "What the Kubernetes API showed of the alerts' pods and workloads when the incident opened",
      });
      const shown = snapshotFinding(session, snapshot);
      if (shown) analysis.consequences.push(shown);
    }
    const firstAlert = earliest(session.alerts.map((a) => a.startsAt)) ?? incident.openedAt;
    analysis.onset = { at: firstAlert, runs: [analysis.alertRun.ordinal], expression: null };
    const source = session.sources.find((s) => s.type === 'prometheus');
    if (!source) return this.withoutMetrics(session);

    const chosen = await chooseAlert(analysis, session, source);
    if (this.cannotRead(session, source)) return conclude(analysis, session, null);
    analysis.alerts = chosen.alerts;
    const alertname = chosen.alertname;
    analysis.onset = { at: earliest(analysis.alerts.map((a) => a.startsAt)) ?? analysis.onset.at, runs: analysis.onset.runs, expression: null };

    session.beginTurn();
    await dateOnset(analysis, session, source, alertname, chosen.rules, chosen.range);
    if (this.cannotRead(session, source)) return conclude(analysis, session, null);
    await session.progress(`The condition began at ${analysis.onset.at.toISOString()}`);

    session.beginTurn();
    // Which metrics the checks below read are collected: a check with none of its metrics reads nothing.
    analysis.presence = await MetricPresence.read(session, source, explainersReads([...CHANGE_EXPLAINERS, ...CAUSE_EXPLAINERS]));
    if (this.cannotRead(session, source)) return conclude(analysis, session, null);
    const candidates = await this.changesNearOnset(session, source);
    await reportedChanges(analysis, session, candidates);
    // A new version no deploy tool reported goes on the incident's timeline as a change seen in the metrics.
    const build = candidates.find((c) => c.hypothesis.id === 'h-version');
    if (build?.observed) build.changeId = (await session.noteRollout(build.observed)) ?? undefined;
    if (analysis.onset.expression) await this.detectCauses(session, source, candidates);
    for (const c of candidates) analysis.hypotheses.push(c.hypothesis);
    if (candidates.length) await session.updateHypotheses(analysis.hypotheses);

    for (const candidate of candidates) {
      session.beginTurn();
      await testCandidate(analysis, session, source, candidate);
      await session.updateHypotheses(analysis.hypotheses);
    }
    if (this.cannotRead(session, source)) return conclude(analysis, session, null);
    // A change reported on a dependency found failing or slow, just before it, is what started it.
    foldReleasesIntoPeers(analysis, session);
    // A dependency found failing or slow may itself wait on something further down: walk on from it.
    await beyondPeer(analysis, session, source);
    await this.localize(session, source);
    // A rise of the alerting entity's own series restates its condition, and a rise of some service's latency alone may be
    // waiting on something the metrics do not show: what began beneath it, in the logs, is asked too.
    if (!this.causeBeneath({ latencyAlone: false })) {
      await this.errorsInTheLogs(session, source);
      this.weakCausesLast();
    }
    await readSymptom(analysis, session, source, alertname);
    return conclude(analysis, session, null);
  }

  /**
   * Without a Prometheus integration: what changed before the onset can still be shown (none can
   * be tested), and the datastores the alert names (or that serve its services) are read with
   * their own tools.
   */
  private async withoutMetrics(session: InvestigationSession): Promise<Conclusion> {
    const analysis = this.analysis;
    analysis.limitations.push({
      type: 'missing_telemetry',
      statement: 'No Prometheus integration is connected, so the alert could not be compared with metrics',
      runRefs: [],
      messageSequences: [],
    });
    const reported: Candidate[] = [];
    await reportedChanges(analysis, session, reported);
    for (const c of reported) analysis.hypotheses.push({ ...c.hypothesis, status: 'inconclusive' });
    if (reported.length) await session.updateHypotheses(analysis.hypotheses);
    const datastores = await readDatastoresWithoutPrometheus(session, analysis.onset!.at, analysis.hypotheses);
    return concludeWithDatastores(conclude(analysis, session, null), datastores, session);
  }

  /** What the explainers are told of the alert: its labels, its job and workload, its pods, its condition and whether it is about latency. */
  private detectionScope() {
    const onset = this.analysis.onset!;
    return detectionScopeOf(this.analysis.alertLabels, onset.at, aboutLatency(onset.expression ?? ''), onset.expression ?? undefined);
  }

  /**
   * Changes around the onset on the alerting service (see CHANGE_EXPLAINERS): a new build version
   * appearing, a process or container restarting, a target going down, a process' CPU saturating,
   * read whatever the budget (they are what the tests test); each family asks why once its change
   * passes the test.
   */
  private async changesNearOnset(session: InvestigationSession, source: SourceBrief): Promise<Candidate[]> {
    const analysis = this.analysis;
    analysis.changes = await explainCauses(session, source, this.detectionScope(), CHANGE_EXPLAINERS, analysis.presence, { askWhy: 'later', reserve: false });
    analysis.limitations.push(...analysis.changes.limitations);
    analysis.notLookedFor.push(...analysis.changes.notLookedFor);
    return firstOfEach(analysis.changes.causes).map(candidateOf);
  }

  /**
   * The detectors of the standard exporters: causes found and dated on the alert's entity and its
   * relations, stated after a new version and before the proximate events (restarts, targets
   * down, saturation) whose causes they may be.
   */
  private async detectCauses(session: InvestigationSession, source: SourceBrief, candidates: Candidate[]): Promise<void> {
    const analysis = this.analysis;
    session.beginTurn();
    // The runs the logs need are kept (those for testing what the detectors find serve the logs when they find nothing).
    const detectors = await explainCauses(session, source, this.detectionScope(), CAUSE_EXPLAINERS, analysis.presence, {
      askWhy: 'later',
      reserved: Math.max(RESERVED_RUNS, runsKeptForLogs(session)),
    });
    analysis.detectors = detectors;
    analysis.notLookedFor.push(...detectors.notLookedFor);
    analysis.limitations.push(...detectors.limitations);
    // A restart whose failing liveness probe (or whose cause behind it) a detector found is a step of that chain, not a cause of its own.
    const explained = new Set(detectors.causes.flatMap((d) => d.restartedPods ?? []));
    for (let i = candidates.length - 1; i >= 0; i--) {
      const pod = candidates[i].subject?.pod;
      if (candidates[i].hypothesis.id === 'h-restart' && pod && explained.has(pod)) candidates.splice(i, 1);
    }
    const at = candidates.findIndex((c) => c.hypothesis.id !== 'h-version');
    candidates.splice(at < 0 ? candidates.length : at, 0, ...firstOfEach(detectors.causes).map(candidateOf));
  }

  /**
   * When nothing recognised explains the condition: place the alerting entity among what it calls
   * and where it runs; where the call graph times both sides of the calls, find where they lose
   * time. Else read what changed on every candidate (the alerting entity, what it calls, what
   * shares its nodes), walk the calls downstream to the changes nothing explains, and test the
   * first ones until one holds.
   */
  private async localize(session: InvestigationSession, source: SourceBrief): Promise<void> {
    const analysis = this.analysis;
    const onset = analysis.onset!;
    // The runs the logs need are kept: read when the metrics explain nothing, they often say why.
    const kept = runsKeptForLogs(session);
    if (!analysis.supportedYet() && !analysis.placement && canPlace(session, 1 + kept)) {
      session.beginTurn();
      analysis.placement = await placeEntity(session, source, analysis.alertLabels, onset.at, onset.expression);
      const located = analysis.placement && lostTimeCandidate(analysis, session, analysis.placement);
      if (located) {
        analysis.hypotheses.push(located.hypothesis);
        await session.updateHypotheses(analysis.hypotheses);
      }
    }
    if (!analysis.placement || analysis.supportedYet() || !canRankSuspects(session, 1 + kept)) return;
    session.beginTurn();
    const localized = await rankSuspects(session, source, analysis.placement, analysis.alertLabels, onset.at, 1 + kept, aboutLatency(onset.expression ?? ''));
    // The changes reported on every candidate: a release just before a candidate's own change names what started it.
    const reported = await candidateChanges(analysis, session, localized);
    const ranked = [...suspectCandidates(localized, onset.at, onset.expression, reported?.run), ...(reported?.unattached ?? [])].slice(0, SUSPECT_HYPOTHESES);
    const self = ranked.length < SUSPECT_HYPOTHESES ? selfCandidate(localized, onset.at, analysis.conditionRuns(session), ranked.length) : null;
    if (self) self.hypothesis.status = 'inconclusive';
    if (ranked.length || self) {
      analysis.hypotheses.push(...ranked.map((c) => c.hypothesis), ...(self ? [self.hypothesis] : []));
      await session.updateHypotheses(analysis.hypotheses);
    }
    // A reported change that no change of its service's series followed is listed, not tested:
    // the condition beginning after it would support any change of a release train alike.
    for (const candidate of ranked.filter((c) => !c.hypothesis.id.startsWith('h-reported')).slice(0, RANKED_TESTED)) {
      // A ranked change's test is one run (its mechanism is untested): the last run before those kept for the logs will do.
      if (session.runs.length + kept >= session.budgets.toolRuns) break;
      session.beginTurn();
      await testCandidate(analysis, session, source, candidate);
      await session.updateHypotheses(analysis.hypotheses);
      if (candidate.hypothesis.status !== 'supported') continue;
      // What waits on the supported suspect (or shares its node) changed as its consequence.
      const i = ranked.indexOf(candidate);
      if (i < localized.suspects.length) analysis.consequences.push(...waitingOn(session, localized.suspects[i], candidate));
      break;
    }
  }

  /**
   * When the metrics explain nothing: what the logs say. A new error of the alerting workload
   * (LOG_EXPLAINERS), then, without one, where errors began among the workloads of its namespace
   * (a code fault shows there and nowhere in the metrics); each stated and tested like any change.
   */
  private async errorsInTheLogs(session: InvestigationSession, source: SourceBrief): Promise<void> {
    const analysis = this.analysis;
    if (!analysis.onset?.expression || !session.sources.some((s) => s.type === 'loki')) return;
    session.beginTurn();
    // The runs kept for this step are its own: only its test is reserved after it.
    const own = await explainCauses(session, source, this.detectionScope(), LOG_EXPLAINERS, analysis.presence, { askWhy: 'later', reserved: 1 });
    analysis.limitations.push(...own.limitations);
    await this.testAll(session, source, firstOfEach(own.causes).map(candidateOf));
    if (!this.causeBeneath({ latencyAlone: false })) {
      session.beginTurn();
      const found = await logErrorCandidates(session, this.detectionScope(), analysis.onset.at);
      analysis.limitations.push(...found.limitations);
      await this.testAll(session, source, found.causes.map(candidateOf));
    }
    if (this.causeBeneath()) this.demoteOwnSymptoms(session);
  }

  /** Once a cause the logs show is supported, weak causes (see weak) are listed after it: still supported, no longer first. */
  private weakCausesLast(): void {
    const tested = this.analysis.tested;
    if (!this.causeBeneath({ latencyAlone: false })) return;
    for (const [id, t] of [...tested].filter(([, t]) => t.supported && this.weak(t.candidate))) {
      tested.delete(id);
      tested.set(id, t);
    }
  }

  /**
   * Whether a cause is supported that is neither the alerting entity's own rise nor weak (see
   * weak); with `latencyAlone: false`, nor a rise of some service's latency alone either.
   */
  private causeBeneath(options: { latencyAlone?: boolean } = {}): boolean {
    return [...this.analysis.tested.values()].some(
      (t) => t.supported && !t.candidate.ownSymptom && !this.weak(t.candidate) && (options.latencyAlone !== false || !t.candidate.latencyOnly),
    );
  }

  /**
   * A supported change that says little: a rise of some service's latency alone, when it is
   * supported only by preceding an alert whose condition the metrics do not show (raised by hand),
   * or when the logs show a workload's error that began with the onset (a slow service may be
   * waiting on the one that fails; the new error names where).
   */
  private weak(candidate: Candidate): boolean {
    if (!candidate.latencyOnly) return false;
    return this.analysis.conditionAbsent || [...this.analysis.tested.values()].some((t) => t.supported && t.candidate.detected?.newInLogs);
  }

  /** Once a cause beneath it is found, a rise of the alerting entity's own series is its condition showing: a symptom, no longer a cause. */
  private demoteOwnSymptoms(session: InvestigationSession): void {
    const analysis = this.analysis;
    for (const [id, t] of [...analysis.tested]) {
      if (!t.supported || !t.candidate.ownSymptom) continue;
      analysis.tested.delete(id);
      const refs = [t.candidate.run.ordinal, t.run.ordinal];
      analysis.consequences.push({
        kind: 'symptom',
        statement: `${t.candidate.hypothesis.statement.replace(" caused the alert's condition", '')}: the alert's condition showing, not its cause`,
        mechanism: '',
        runRefs: refs,
        evidenceRefs: refs.map((n) => ({ investigationId: session.investigationId, toolRunOrdinal: n })),
      });
    }
  }

  /** States the candidates as hypotheses, then tests each in turn. */
  private async testAll(session: InvestigationSession, source: SourceBrief, candidates: Candidate[]): Promise<void> {
    if (!candidates.length) return;
    this.analysis.hypotheses.push(...candidates.map((c) => c.hypothesis));
    await session.updateHypotheses(this.analysis.hypotheses);
    for (const candidate of candidates) {
      session.beginTurn();
      await testCandidate(this.analysis, session, source, candidate);
      await session.updateHypotheses(this.analysis.hypotheses);
    }
  }

  /** Whether the metrics source's last read showed it cannot be read at all (see sourceUnreadable): then nothing more is read from it. */
  private cannotRead(session: InvestigationSession, source: SourceBrief): boolean {
    this.analysis.unread ??= unreadSource(session.runs, source);
    return this.analysis.unread !== null;
  }
}

export { answerInConversation };
