import { distance } from 'fastest-levenshtein';
import { Timestamp } from '@svc/platform';
import type { Conclusion, StoppedBy } from '../../conclusion.types';
import { detectionScopeOf, escape, EXPORTER_JOBS, quote, REQUEST_RATES, ROUTE_LABELS, routeOf, workloadOfPod } from '../explainers/labels';
import { CallPair, readCallPairs } from '../graph/call-graph';
import { prometheusReader } from '../discovery/related-series';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { earliest, MINUTE, pointsOf, seriesOf, shift } from '../series-reading';
import { names } from '../built-in-question';
import { AnswerWriter } from './answer';
import { CHANGES_TOOL } from '../recorded-changes';
import { answerChanges, answerEdits, answerNamedChanges, CHANGE_ID, lastRollout, reportedDeploy, reportedNames } from './changes';
import { answerConnectionStates } from './connection-states';
import { answerCluster, readsTheCluster } from './cluster';
import { answerAlertSubject } from './alert-subjects';
import { answerCertificates } from './certificates';
import { answerDiskFilled, answerDisks } from './disks';
import { answerLogs } from './logs';
import { answerQuery } from './query';
import { answerNodeHealth } from './nodes';
import { clock, quantity, Unit } from './format';
import type { QuestionPart, Reference, Signal, TypedQuestion } from './parse';
import { isEnglish, parseQuestion, peopleOrSuperlative, placesAnUnknownWord } from './parse';
import { answerRelated } from './related';
import {
  calleesOfKind,
  incidentNamespace,
  PEER_KINDS,
  podUseAndLimit,
  readSignals,
  SIGNAL_NAMES,
  SignalMissing,
  SignalRead,
  STEP_SECONDS,
  Subject,
  subjectPods,
  workloadPods,
} from './signal-reads';
import { answerWhen, changeStart, minimumMove } from './when';

/** "Then" is read from this long before the moment to this long after it, for the sample nearest it. */
const AROUND_THEN = 10n * MINUTE;
/** The range read when the question names none. */
const DEFAULT_RANGE_MINUTES = 60;
/** A route whose value after is at least this multiple of before (and the difference counts) moved. */
const MOVED = 1.5;
const MAX_ROWS = 12;
/** Labels whose values name the subjects a question may be about: services and jobs, containers (a batch job without a scrape target), and what services call (a database, a partner's API). */
const SUBJECT_LABELS = ['job', 'service', 'container', 'pod', 'node', 'peer'];
/** Labels whose values a word names only whole: "checkout" is no one pod of checkout, "eu" no node. */
const WHOLE_ONLY = new Set(['pod', 'node', 'configmap', 'secret', 'persistentvolumeclaim']);
/** Labels of the Kubernetes objects a question may name besides workloads (kube-state-metrics'): read only when a name matches nothing else. */
const OBJECT_LABELS = ['configmap', 'secret', 'persistentvolumeclaim'];
/** A word this close to a known name (see closeness) is that name misspelt: "chekout", "serch". */
const NEARLY = 0.34;
/** How far a word is from a name: the edits between them over the longer's length (0 the same, 1 nothing shared). */
const closeness = (word: string, name: string): number => {
  const known = name.toLowerCase();
  // Two letters typed the wrong way round ("crat", "paymetns") are one slip, not two.
  const swapped =
    word.length === known.length &&
    [...word].some((_, i) => i + 1 < word.length && `${word.slice(0, i)}${word[i + 1]}${word[i]}${word.slice(i + 2)}` === known);
  return (swapped ? 1 : distance(word, known)) / Math.max(word.length, known.length);
};
/** Versions as answers write them: `3.3.0`, `v2.15.0`, after an arrow when a change names the one before. */
const NEW_VERSION = /→ v?(\d+\.\d+(?:\.\d+)?(?:-[a-z0-9.]+)?)\b/g;
/** A version as an answer's table or sentence writes it (`2.15.0`), not a part of an address (`10.2.0.11`). */
const A_VERSION = /(?<![\w.])v?(\d+\.\d+\.\d+(?:-[a-z0-9.]+)?)(?![\w.]*\d)/g;

/** Whether a job is an exporter's (Kubernetes' own, or any `…-exporter` such as redis-exporter): what it watches is named elsewhere. */
const isExporter = (value: string): boolean => EXPORTER_JOBS.test(value) || /(^|[-_])exporter([-_]|$)/.test(value);

/** Whether a word is a subject's whole name: its value (or its plural, "frontends calls"), or a node's host name without its domain (`ip-10-0-2-34`). */
const whole = (s: Subject, word: string): boolean => {
  const value = s.value.toLowerCase();
  return value === word || (s.label !== 'node' && s.label !== 'pod' && `${value}s` === word) || (s.label === 'node' && value.split('.')[0] === word);
};

const mean = (values: number[]): number | null => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

/**
 * Answers the common questions of an incident's conversation from the data, without a model:
 * the request rate, errors, latency, restarts, CPU or memory of a service over a range (compared
 * before and after the incident began, or a version started; split by route when asked); which
 * pods, nodes and versions run it; when something started and whether it still holds; what
 * changed; whether two services are related. Each answer reads what it needs (recorded, cited
 * runs), writes its numbers as people do (three significant digits, units, times in UTC), and
 * says what the data cannot answer. A subject named in the question is matched against the
 * sources' label values; a reference ("it", "those pods", "the new version") or no subject at all
 * means what the conversation named before, else the incident's service.
 */
/** A deploy only its report shows, said as reported, with what the metrics do not show of it. */
const reportedAt = (deploy: { what: string; at: Timestamp }, until: Timestamp, unseen: string): string =>
  `${deploy.what[0].toUpperCase()}${deploy.what.slice(1)} was reported at ${clock(deploy.at, until)}; the metrics show no ${unseen}`;

/** The names the sources know, read once per turn: the jobs first, every subject label (`all`) and the objects when needed. */
interface Known {
  catalog: Subject[];
  runs: number[];
  /** The labels whose values were read. */
  read: Set<string>;
  objects?: boolean;
  queues?: boolean;
  all?: boolean;
}

export class IncidentQuestions {
  private readonly answer = new AnswerWriter();
  private asked: TypedQuestion;
  /** The user's messages before the question being answered: the conversation's, then the earlier parts of its own message. */
  private earlier: string[];
  /** The routes the services answer with their methods, read once per turn (see routesNamed). */
  private routeCatalog?: RecordedRun;
  /** The names the sources know, read once per turn (see readNames): every part of a message matches its words against them. */
  private known?: Known;
  /** The names the reported changes give (see reportedNames), read once per turn when a name-shaped word names nothing else. */
  private reportedNames?: Set<string>;

  /**
   * `parts`: the questions of a message that asks several (see questionParts), answered in order
   * into one answer, each later part reading the earlier ones as the conversation before it.
   */
  constructor(
    asked: TypedQuestion,
    private readonly conversation: InvestigationSession['conversation'] = null,
    private readonly parts: QuestionPart[] = [],
    /** Whether the incident is investigated in the same turn: what is only said beside an answer (a status's last rollout) is left to the investigation. */
    private readonly lean = false,
  ) {
    this.asked = withContext(asked, conversation);
    this.earlier = (conversation?.messages ?? []).filter((m) => m.role === 'user').map((m) => m.text);
  }

  async answerTurn(session: InvestigationSession): Promise<Conclusion> {
    this.sayWhenRepeated(session.subject, session.window.until);
    if (!this.parts.length) return (await this.answerPart(session)) ?? this.answer.conclusion(session, null);
    const before = this.earlier;
    for (const [i, part] of this.parts.entries()) {
      const earlier = this.parts.slice(0, i).map((p) => p.text);
      const conversation = this.conversation && {
        ...this.conversation,
        messages: [...this.conversation.messages, ...earlier.map((text, n) => ({ sequence: -1 - n, role: 'user' as const, text, at: '' }))],
      };
      this.asked = withContext(part.asked, conversation);
      this.earlier = [...before, ...earlier];
      // A part that must ask which service is meant asks for the whole message. The parts of one message are one
      // turn: a part answered without a read (what no source records) is no stagnation of the turns.
      const ask = await this.answerPart(session, i === 0);
      if (ask) return ask;
    }
    return this.answer.conclusion(session, null);
  }

  /**
   * The question back when the message names, shaped as a name, something none of the sources knows ("is shipping-api part of
   * this?", "is the notifications-worker consuming?"), with the names they know; null when every name it gives is known.
   */
  async askIfUnknown(session: InvestigationSession): Promise<Conclusion | null> {
    const source = session.sources.find((s) => s.type === 'prometheus');
    // (Or a word no dictionary holds where a name stands, which may be a known name misspelt: "invntory status?".)
    if (!source || !(this.asked.nameShaped.length || placesAnUnknownWord(this.asked))) return null;
    const named = await this.subjects(session, source);
    return 'ask' in named ? named.ask : null;
  }

  /**
   * A question asked again in the same conversation (the same words, or the same question in
   * other words) is said to be one: the answer reads the data again, and says which earlier
   * answer it repeats, by when that was asked.
   */
  private sayWhenRepeated(message: string, now: Timestamp): void {
    const asked = parseQuestion(message);
    const same = this.conversation?.messages.find(
      (m) =>
        m.role === 'user' &&
        m.sequence !== this.conversation?.messageSequence &&
        (normalised(m.text) === normalised(message) || sameQuestion(parseQuestion(m.text), asked)),
    );
    if (!same) return;
    const when = Timestamp.parse(same.at);
    this.answer.note(
      `You asked this before${when ? `, at ${clock(when, now)}` : ''}: the answer below reads the data again, up to now, rather than repeating the earlier answer.`,
    );
  }

  /** Answers the question asked into the turn's answer; a conclusion only when it must ask the person instead. */
  private async answerPart(session: InvestigationSession, newTurn = true): Promise<Conclusion | null> {
    if (newTurn) session.beginTurn();
    if (this.asked.kind === 'outside') {
      const types = [...new Set(session.sources.map((s) => s.type))];
      this.answer.cannot(
        `this cannot be answered from the data: the connected sources (${types.join(', ') || 'none'}) record what the systems did, not who approved, reviewed or owns what, what customers or tickets said, or which thread or line of code ran`,
        null,
      );
      return null;
    }
    // "when was cfg-8841 applied?": a change named by the id its tool gave it is read from the changes reported, not asked about as a service.
    const changeIds = this.asked.words.filter((w) => CHANGE_ID.test(w));
    if ((this.asked.kind === 'when' || this.asked.kind === 'changes') && changeIds.length && (await answerNamedChanges(session, this.answer, changeIds)))
      return null;
    const source = session.sources.find((s) => s.type === 'prometheus');
    // The cluster's events and pod states, when a Kubernetes integration is connected and the question asks what it says.
    if (readsTheCluster(this.asked, session)) {
      const named = source ? await this.subjects(session, source) : { found: [] };
      if ('ask' in named) return named.ask;
      await answerCluster(session, this.answer, named.found[0]?.value ?? this.incidentSubject(session)?.value ?? null);
      return null;
    }
    if (this.asked.kind === 'logs') {
      // The workload named (matched against the metrics' label values when there are metrics), else the incident's.
      const named = source ? await this.subjects(session, source) : { found: [] };
      if ('ask' in named) return named.ask;
      await answerLogs(session, this.answer, named.found[0]?.value ?? this.incidentSubject(session)?.value ?? null);
      return null;
    }
    if (!source) {
      this.answer.limit('missing_telemetry', 'No Prometheus integration is connected, so the question cannot be answered from metrics', []);
      return null;
    }
    const until = session.window.until;
    if (this.asked.query) {
      await answerQuery(session, source, this.answer, this.asked.query, until);
      return null;
    }
    // "CPUThrottlingHigh is firing too: which workload is it about?"
    if (this.asked.listings.includes('alerts') && this.asked.alertNamed) {
      await answerAlertSubject(session, source, this.answer, this.asked.alertNamed, until);
      return null;
    }
    // Which node failed, and when: the nodes' conditions, of the nodes the question names (else of every node).
    if (this.asked.nodeHealth && ['which', 'when', 'signals', 'unknown'].includes(this.asked.kind)) {
      const named = await this.subjects(session, source);
      // A name no source knows ("did the wishlist service lose pods there too?") is asked about.
      if ('ask' in named && this.asked.nameShaped.length) return named.ask;
      const found = 'found' in named ? named.found : [];
      // A pod or workload named ("is the node orders-6fb5cc5f8-rpc5b runs on under pressure?"): the nodes it runs on.
      const nodes = found.some((s) => s.label === 'node')
        ? found.filter((s) => s.label === 'node').map((s) => s.value)
        : this.asked.words.length && found[0] && found[0].label !== 'peer'
          ? (await this.nodesOf(session, source, found[0], until)).map((s) => s.value)
          : [];
      await answerNodeHealth(session, source, this.answer, nodes, until);
      return null;
    }
    if (this.asked.kind === 'changes') {
      // Who made a change is what deploy and configuration tools report; the metrics only show what changed.
      if (this.asked.asksWho && !session.tools.some((t) => t.name === CHANGES_TOOL)) {
        this.answer.cannot(
          "who made a change cannot be answered from the data: no changes integration reports this incident's deploys and configuration changes with their authors, and the metrics record what changed, not who changed it",
          null,
        );
        return null;
      }
      const around = await this.changesAround(session, source);
      await answerChanges(session, source, this.answer, { minutes: this.asked.rangeMinutes, ...(around ? { around } : {}) });
      // "Did we ship anything for cart?", "did the version change too?": what the service named (or asked about before) runs now, whatever changed.
      if (this.asked.words.length || this.asked.aboutVersions) {
        const named = await this.subjects(session, source);
        const service = 'found' in named ? named.found.find((s) => s.label !== 'node' && s.label !== 'peer' && s.label !== 'pod') : undefined;
        if (service) await this.runningVersions(session, source, service, until);
      }
      return null;
    }
    // Two services may be related through calls to a peer no job names (a database, a partner's API): the calls are read first.
    const listsPeers = this.asked.kind === 'which' && this.asked.listings.includes('peers');
    const calls =
      this.asked.kind === 'related' || listsPeers
        ? await readCallPairs(
            prometheusReader(session, source),
            until.toISOString(),
            listsPeers
              ? 'Which services call which, to list what the service calls and what calls it'
              : 'Which services call which, to relate the services the question names',
          )
        : null;
    const peers = calls ? [...new Set(calls.pairs.flatMap((p) => [p.caller, p.callee]))].map((value) => ({ label: 'peer', value })) : [];
    const subjects = await this.subjects(session, source, peers, this.asked.kind === 'related' ? 2 : 1);
    if ('ask' in subjects) return subjects.ask;
    let found = this.asked.callee ? callsTo(subjects.found, this.asked.callee) : subjects.found;
    // "orders' calls to the db": the database orders calls, whatever its name.
    const kind = this.asked.callee ? PEER_KINDS.find(([word]) => word.test(this.asked.callee!))?.[1] : undefined;
    const caller = found[0];
    if (kind && caller && !found.some((f) => f.label === 'peer') && caller.label !== 'node' && caller.label !== 'pod') {
      const { callees } = await calleesOfKind(
        session,
        source,
        caller.value,
        kind,
        until,
        `Which services ${caller.value} calls, to find the ${this.asked.callee} it calls`,
      );
      if (callees.length === 1) found = [{ label: 'peer', value: callees[0], caller: caller.value }];
    }
    // "p99 of the search pod on ip-10-0-2-34": the pods of the workload on the node named.
    const onNode = found.find((f) => f.label === 'node');
    const workload = found.find((f) => f.label !== 'node' && f.label !== 'peer' && f.label !== 'pod');
    const namedHere = (s: Subject): boolean => this.asked.words.some((w) => whole(s, w) || names(w, s.value));
    if (onNode && workload && namedHere(onNode) && namedHere(workload) && (this.asked.kind === 'signals' || this.asked.kind === 'when') && !this.asked.nodeOf) {
      const pods = await this.podsOn(session, source, workload, onNode.value, until);
      if (pods.length) found = pods;
    }
    // "cpu on the node ledger-reconcile is on": the nodes its pods run on; so is "that node" when no answer named one ("how much
    // CPU is catalog-sync using, and how busy is that node?").
    const ofItsNode = this.asked.nodeOf || (this.asked.refersNode && this.asked.kind === 'signals');
    if (ofItsNode && this.asked.kind !== 'which' && found[0] && found[0].label !== 'node' && found[0].label !== 'peer') {
      const nodes = await this.nodesOf(session, source, found[0], until);
      if (nodes.length) found = nodes;
    }
    if (calls && listsPeers) {
      for (const subject of found.slice(0, 2)) this.peers(session, subject, calls);
      return null;
    }
    if (calls) {
      const incident = this.incidentSubject(session);
      const pair = [...found, ...(incident && !found.some((f) => f.value === incident.value) ? [incident] : [])];
      if (pair.length < 2) this.answer.limit('scope', 'The question names one service, and there is no other (nor an incident service) to relate it to', []);
      else await answerRelated(session, source, this.answer, [pair[0], pair[1]], calls);
      return null;
    }
    // A measure outside the signals ("inodes left", "jvm heap", "cpu requests") is answered from its own series only: none, and it is unknown.
    if (this.asked.runtime && (this.asked.kind === 'signals' || this.asked.kind === 'when')) {
      const { what, metrics } = this.asked.runtime;
      const run = await session.runTool({
        tool: 'prometheus.query',
        integrationId: source.integrationId,
        arguments: { query: `count by (__name__) ({__name__=~${quote(metrics)}})`, time: until.toISOString() },
        purpose: `Which series measure ${what}`,
      });
      if (run.outcome === 'succeeded' && !seriesOf(run).length) {
        this.answer.cannot(`no series measures ${what} (${metrics.split('|').join(', ')}), so it cannot be answered from the data`, run);
        return null;
      }
    }
    // A ConfigMap or Secret named ("when was cart-config edited?"): when it was edited.
    const object = found[0];
    if (object && (object.label === 'configmap' || object.label === 'secret') && this.asked.kind !== 'which') {
      await answerEdits(session, source, this.answer, { label: object.label, value: object.value });
      return null;
    }
    if (!found.length && this.asked.kind !== 'when')
      this.answer.limit('scope', "The question names no service, and the incident's alerts name none to answer it for", []);
    // When a certificate expires is a time the probe reads, not a change to date.
    if ((this.asked.kind === 'when' || this.asked.kind === 'signals') && this.asked.signals.includes('certificate') && found[0]) {
      await answerCertificates(session, source, this.answer, found[0], until);
      if (this.asked.signals.length === 1) return null;
      this.asked = { ...this.asked, signals: this.asked.signals.filter((x) => x !== 'certificate') };
    }
    // "What time did 2.15.0 go out?": when the version named (or the one the conversation named) started.
    if (this.asked.kind === 'when' && !this.asked.signals.length && this.asked.versions.length && this.asked.wentOut && !this.asked.still && found[0]) {
      const version = this.asked.versions[0];
      const from = shift(until, -BigInt(DEFAULT_RANGE_MINUTES * 3) * MINUTE);
      const { at, run } = await this.versionStart(session, source, found[0], version, from, until);
      if (at) {
        this.answer.record(session, `${version} of ${found[0].value} started at ${clock(at, until)}, when its first pod with it did`, run);
        return null;
      }
      // A version the metrics do not show (an asset bundle, a build of the same program) may be known from its report.
      const reported = await reportedDeploy(session, from, until, null, (c) => c.versionAfter === version || c.summary.includes(version));
      if (reported) this.answer.record(session, reportedAt(reported, until, `${version} of ${found[0].value}`), [run, reported.run]);
      else this.answer.cannot(`${version} of ${found[0].value} did not start from ${clock(from, until)} to ${clock(until, until)}`, run);
      return null;
    }
    // "When did the checkout rollout start?": the subject's last rollout, from its versions (else a reported deploy).
    if (
      this.asked.kind === 'when' &&
      this.asked.rollout &&
      !this.asked.versions.length &&
      !this.asked.still &&
      found[0] &&
      found[0].label !== 'node' &&
      found[0].label !== 'peer'
    ) {
      const from = shift(until, -BigInt(DEFAULT_RANGE_MINUTES * 3) * MINUTE);
      const rollout = await lastRollout(session, source, found[0].value, from, until);
      // "what time did that go out?" after a question about changes: the last change reported of it, a configuration change too.
      const changed =
        !('at' in rollout) && parseQuestion(this.earlier.at(-1) ?? '').kind === 'changes'
          ? await reportedDeploy(session, from, until, found[0].value, (c) => c.service === found[0].value, true)
          : null;
      if (changed) this.answer.record(session, reportedAt(changed, until, `change of ${found[0].value}`), changed.run);
      else if ('at' in rollout)
        this.answer.record(
          session,
          rollout.reported
            ? reportedAt(rollout, until, `new version of ${found[0].value}`)
            : `The rollout of ${rollout.what} started at ${clock(rollout.at, until)}`,
          rollout.run,
        );
      else if (!this.asked.words.length) await answerChanges(session, source, this.answer, { minutes: null });
      else this.answer.cannot(`${found[0].value} did not roll out from ${clock(from, until)} to ${clock(until, until)}`, rollout.none);
      return null;
    }
    // When a disk filled up: the one that was not full before, not one full all along.
    if (this.asked.kind === 'when' && this.asked.signals[0] === 'disk' && found[0]) {
      await answerDiskFilled(session, source, this.answer, found[0], session.window.from, until, this.asked.routes);
      return null;
    }
    // When a CPU or memory limit changed ("when did the recommendations cpu limit get changed?"): the limit it had until then, then now.
    if (this.asked.kind === 'when' && this.asked.limitValue && found[0]) {
      this.asked = { ...this.asked, before: true };
      await this.limits(session, source, found[0], shift(until, -BigInt(DEFAULT_RANGE_MINUTES * 3) * MINUTE), until);
      return null;
    }
    if (this.asked.kind === 'when') {
      const subject = found[0] ?? null;
      await answerWhen(
        {
          session,
          source,
          answer: this.answer,
          signal: this.asked.signals[0] ?? null,
          percentile: this.asked.percentile,
          still: this.asked.still,
          trend: this.asked.trend,
          latest: this.asked.latest,
          probe: this.asked.probe,
          fired: this.asked.fired,
          alert: this.asked.alertNamed,
        },
        subject,
      );
      return null;
    }
    const from = shift(until, -BigInt(this.asked.rangeMinutes ?? DEFAULT_RANGE_MINUTES) * MINUTE);
    for (const subject of found.slice(0, 2)) {
      session.beginTurn();
      if (this.asked.kind === 'which' && subject.label === 'node') await this.nodePods(session, source, subject, until);
      else if (
        this.asked.kind === 'which' &&
        this.asked.onNode &&
        (this.asked.refersNode || this.asked.listings.includes('nodes')) &&
        !this.asked.versions.length &&
        subject.label !== 'peer'
      )
        await this.busiestNodePods(session, source, subject, until);
      else if (this.asked.kind === 'which' && this.asked.listings.length === 1 && this.asked.listings[0] === 'routes')
        await this.routes(session, source, subject, until);
      // "which version was it on an hour ago?": the versions its pods ran then.
      else if (
        this.asked.kind === 'which' &&
        this.asked.listings.length === 1 &&
        this.asked.listings[0] === 'versions' &&
        this.asked.reference?.kind === 'ago' &&
        this.asked.reference.minutes
      )
        await this.runningVersions(session, source, subject, shift(until, -BigInt(this.asked.reference.minutes) * MINUTE), until);
      else if (this.asked.kind === 'which') await this.listing(session, source, subject, until);
      else await this.signals(session, source, subject, from, until);
    }
    return null;
  }

  /** The versions `service`'s pods run at `until` (its build series, else its containers' images), with how many pods run each. */
  private async runningVersions(session: InvestigationSession, source: SourceBrief, service: Subject, at: Timestamp, until = at): Promise<void> {
    const name = quote(service.value);
    const run = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: {
        query: `count by (version) ({__name__=~".+_build_info", job=${name}}) or count by (image) (kube_pod_container_info{container=${name}})`,
        time: at.toISOString(),
      },
      purpose: `Which versions ${service.value} ran at ${clock(at, until)}`,
    });
    const versions = seriesOf(run)
      // An image is said by its tag ("registry/shop/archive:5.0.3" runs 5.0.3).
      .map((s) => ({ version: s.metric.version ?? (s.metric.image ?? '').replace(/^[^@]*:(?=[^:/@]+$)/, ''), pods: Number(s.value?.[1] ?? 0) }))
      .filter((v) => v.version)
      // The build series and the images may both say a version: once.
      .filter((v, i, all) => all.findIndex((o) => o.version === v.version) === i);
    if (!versions.length) return;
    this.answer.record(
      session,
      `${service.value} ${at === until ? 'runs' : 'ran'} ${versions.map((v) => `${v.version} (${v.pods} pod${v.pods === 1 ? '' : 's'})`).join(', ')} at ${clock(at, until)}`,
      run,
    );
  }

  async concludeEarly(session: InvestigationSession, stoppedBy: StoppedBy): Promise<Conclusion> {
    return this.answer.conclusion(session, stoppedBy);
  }

  /**
   * The incident's service: the job its alerts name, else the workload of the pods they name (an
   * alert on kube-state-metrics' series is about the pods it names), whose job is usually its name.
   */
  private incidentSubject(session: InvestigationSession): Subject | null {
    const scope = detectionScopeOf(
      session.alerts.map((a) => a.labels),
      session.window.until,
      false,
    );
    const name = scope.job ?? scope.workload;
    return name ? { label: 'job', value: name } : null;
  }

  /**
   * The subjects the question names, matched against the values of SUBJECT_LABELS (and `extra`:
   * the peers a relation question read); with none named (or a reference to what was named
   * before), those of the earlier messages, else the incident's service. Names none of the sources
   * know are asked about when what was found is fewer than the question `needs` (a relation needs two).
   */
  private async subjects(
    session: InvestigationSession,
    source: SourceBrief,
    extra: Subject[] = [],
    needs = 1,
  ): Promise<{ found: Subject[] } | { ask: Conclusion }> {
    const incidentSubject = this.incidentSubject(session);
    // An alert's name ("RecommendationsLatencyHigh is firing") names the alert, not a service: its labels say what it is about.
    const alertNames = new Set(session.alerts.map((a) => (a.labels.alertname ?? '').toLowerCase()).filter(Boolean));
    const notAlerts = (ws: string[]): string[] => ws.filter((w) => !alertNames.has(w));
    const earlierAsked = this.earlier.map((text) => parseQuestion(text));
    const earlier = earlierAsked.map((q) => notAlerts(q.words));
    let words = notAlerts(this.asked.words);
    // ("which cart pod was on it?" after an answer about a node: that node.)
    const onTheNodeAnswered =
      this.asked.onNode && this.asked.refers && /^(Node |\d+ pod\(s\) run on node )/.test(this.conversation?.turns.at(-1)?.summary ?? '');
    const asksNode = this.asked.refersNode || (this.asked.onNode && !words.length) || onTheNodeAnswered;
    if (!words.length && !earlier.some((w) => w.length) && !asksNode) return { found: incidentSubject ? [incidentSubject] : [] };
    // The jobs first (one read): the other labels (services, containers, pods, nodes, peers) only when a word the question
    // places as a name is none of the jobs, or it asks about nodes, pods or what is called.
    const known: Known = (this.known ??= await this.readNames(session, source, ['job']));
    // A name a reported change gives and no job is called (its author "ci-bot", the program "statements-static" it deployed) is known
    // from the changes, read once for it: no other label is read for it, and it is asked about as nothing.
    const fromChanges = (w: string): boolean => /[\d_.-]/.test(w) && !known.catalog.some((s) => whole(s, w) || names(w, s.value));
    if (session.tools.some((t) => t.name === CHANGES_TOOL) && words.some(fromChanges)) {
      const reported = (this.reportedNames ??= await reportedNames(session));
      words = words.filter((w) => !fromChanges(w) || !reported.has(w));
    }
    if (!known.all) {
      const inJobs = (w: string): boolean => known.catalog.some((s) => whole(s, w) || names(w, s.value));
      const placedEarlier = earlierAsked.flatMap((q) => q.placedAsNames);
      const wanting =
        asksNode ||
        this.asked.other ||
        this.asked.nodeOf ||
        this.asked.onNode ||
        this.asked.nodeHealth ||
        this.asked.listings.includes('nodes') ||
        !!this.asked.callee ||
        this.asked.calleeRefers ||
        // "the orders database" may be ordersdb, which no job is called.
        this.asked.compounds.some((c) => /db$/.test(c) && !inJobs(c)) ||
        words.some(
          (w) => !inJobs(w) && (this.asked.placedAsNames.includes(w) || /[\d_.-]/.test(w) || known.catalog.some((s) => closeness(w, s.value) <= NEARLY)),
        ) ||
        earlier.some((ws) => ws.some((w) => !inJobs(w) && (placedEarlier.includes(w) || /[\d_.-]/.test(w)))) ||
        // "its redis" matches only redis-exporter among the jobs: what the exporter watches may be what is meant.
        words.some((w) => {
          const jobs = known.catalog.filter((s) => whole(s, w) || names(w, s.value));
          return jobs.length > 0 && jobs.every((s) => isExporter(s.value));
        });
      // The labels the question needs are read first (a node's, a pod's, a callee's); with a callee, the others only while a name it gives is still
      // unknown: "the p99 of payments' calls to partner-bank" reads the peers, and stops once partner-bank is found there.
      const first = [
        ...(asksNode || this.asked.nodeOf || this.asked.onNode || this.asked.nodeHealth || this.asked.listings.includes('nodes') ? ['node'] : []),
        ...(this.asked.other ? ['pod'] : []),
        ...(this.asked.callee || this.asked.calleeRefers ? ['peer'] : []),
      ];
      const exporterOnly = (w: string): boolean => {
        const jobs = known.catalog.filter((s) => whole(s, w) || names(w, s.value));
        return jobs.length > 0 && jobs.every((s) => isExporter(s.value));
      };
      const wanted = [
        ...words.filter(
          (w) =>
            (!inJobs(w) && (this.asked.placedAsNames.includes(w) || /[\d_.-]/.test(w) || known.catalog.some((s) => closeness(w, s.value) <= NEARLY))) ||
            exporterOnly(w),
        ),
        ...earlier.flat().filter((w) => !inJobs(w) && (placedEarlier.includes(w) || /[\d_.-]/.test(w))),
        ...this.asked.compounds.filter((c) => /db$/.test(c) && !inJobs(c)),
        ...(this.asked.callee ? [this.asked.callee] : []),
      ];
      const found = (w: string): boolean => known.catalog.some((s) => !isExporter(s.value) && (whole(s, w) || (!WHOLE_ONLY.has(s.label) && names(w, s.value))));
      // (Only a callee's name stops the reading early: a node, a pod or an unknown name reads every label.)
      const enough = this.asked.callee && !first.includes('node') && !first.includes('pod') ? () => wanted.every(found) : undefined;
      if (wanting) await this.allNames(session, source, first, enough);
    }
    const unknown = (w: string): boolean => !known.catalog.some((s) => whole(s, w) || (!WHOLE_ONLY.has(s.label) && names(w, s.value)));
    // A name-shaped word no service, pod or node is called may name a ConfigMap, a Secret or a volume claim ("cart-config", "the data-ledger PVC"): those are read then.
    if (words.some((w) => /[-_.]/.test(w) && unknown(w)) && !known.objects) {
      await this.learnNames(session, source, known, OBJECT_LABELS);
      known.objects = true;
    }
    // A word that names nothing else, in a question of a queue ("same for emails?"), may name a queue: RabbitMQ's queues are read then.
    if (words.some(unknown) && this.asked.signals.includes('queue') && !known.queues) {
      await this.learnNames(session, source, known, ['queue']);
      known.queues = true;
    }
    const catalog = [...known.catalog, ...extra];
    const runs = known.runs;
    // A host name no service is called, in a question of certificates ("the cert on api.partner-bank.example"): the probes' target that names it.
    const host = this.asked.signals.includes('certificate')
      ? words.find((w) => /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(w) && !catalog.some((s) => whole(s, w)))
      : undefined;
    if (host) return { found: [{ label: 'instance', value: host }] };
    // A route the question gives ("our POST /api/checkout calls get 500s") is served by a service: that one is asked about
    // (of those that serve it, the one the question names), whatever else its words name ("we're a partner integrating …").
    // (A disk's paths are mounts, not routes.)
    if (this.asked.routes.length && needs === 1 && !this.asked.signals.includes('disk')) {
      const table = await this.routeTable(session, source);
      const jobs = new Set(table.filter((r) => this.asked.routes.includes(r.route) && r.job).map((r) => r.job));
      const serving = catalog.filter((s) => s.label === 'job' && jobs.has(s.value));
      const namedServing = serving.filter((s) => words.some((w) => whole(s, w) || names(w, s.value)));
      if (serving.length) return { found: namedServing.length ? namedServing : serving };
    }
    // A word that names no service but a part of a route's path ("uploads", "the status route") asks about that route.
    if (
      !this.asked.routes.length &&
      !this.asked.signals.includes('disk') &&
      this.asked.signals.some((x) => x === 'rate' || x === 'errors' || x === 'latency')
    ) {
      const candidates = this.asked.routeWords.filter((w) => !catalog.some((s) => whole(s, w) || names(w, s.value)));
      const jobs = [...words.filter((w) => catalog.some((s) => s.label === 'job' && whole(s, w))), ...[this.incidentSubject(session)?.value ?? []].flat()];
      const named = candidates.length || this.asked.method ? await this.routesNamed(session, source, candidates, jobs) : null;
      if (named?.routes.length) {
        this.asked = { ...this.asked, routes: named.routes, byRoute: true };
        words = words.filter((w) => !named.words.includes(w));
        // What serves the routes is asked about, not what an earlier message named ("how many uploads failed since then?" after a node's disk).
        const serving = catalog.filter((s) => s.label === 'job' && named.jobs.includes(s.value));
        if (!words.length && serving.length) return { found: serving };
      }
    }
    // A name written with a space ("the orders worker") is the one name when the sources know it, not its two words.
    for (const compound of this.asked.compounds.filter((c) => catalog.some((s) => whole(s, c)))) {
      const first = words.find((w) => compound.startsWith(`${w}-`) && words.includes(compound.slice(w.length + 1)));
      if (first) words = words.flatMap((w) => (w === first ? [compound] : w === compound.slice(first.length + 1) ? [] : [w]));
      // "the orders database" is ordersdb when the sources know it.
      const database = words.find((w) => compound === `${w}db` || compound === `${w}-db`);
      if (!first && database) words = words.map((w) => (w === database ? compound : w));
    }
    // "the other replica": the other pods of the workload whose pod the question before named.
    if (this.asked.other) {
      const lastAnswer = this.conversation?.turns.at(-1)?.summary ?? '';
      // The pod the question names, else the first the last answer names (of several listed, the others are "the other").
      const inWords = catalog.filter((s) => s.label === 'pod' && words.some((w) => whole(s, w)));
      const inAnswer = catalog
        .filter((s) => s.label === 'pod' && lastAnswer.includes(s.value))
        .sort((a, b) => lastAnswer.indexOf(a.value) - lastAnswer.indexOf(b.value));
      const named = inWords.length ? inWords : inAnswer.slice(0, 1);
      const others = catalog.filter(
        (s) => s.label === 'pod' && named.some((n) => n.value !== s.value && workloadOfPod(n.value) === workloadOfPod(s.value)) && !named.includes(s),
      );
      // ("p99 of search-…-m9xrk, and the other search pod for comparison?": the pod named and the others beside it.)
      if (others.length) return { found: inWords.length && this.asked.withOther ? [...inWords, ...others] : others };
    }
    // "that node", "what else runs there": the nodes an earlier answer named, unless the question names one.
    const unknownShaped = this.asked.nameShaped.some((w) => words.includes(w) && !catalog.some((s) => whole(s, w) || names(w, s.value)));
    if (asksNode && !unknownShaped && !catalog.some((s) => s.label === 'node' && words.some((w) => whole(s, w) || names(w, s.value)))) {
      const nodes = this.nodesNamedBefore(catalog.filter((s) => s.label === 'node'));
      if (nodes.length) return { found: nodes };
    }
    // A shortening of one service's name where a name stands ("recs", "recos" for recommendations, "inv" for inventory): the start of exactly one, three letters or more.
    const abbreviated = (w: string): Subject[] => {
      const stem = w.replace(/s$/, '');
      if (stem.length < 3 || /[\d_.-]/.test(stem) || !this.asked.placedAsNames.includes(w)) return [];
      // (A name short of a letter or two is misspelt, not shortened: "archiv" is asked about; "payment" is payments.)
      const starting = catalog.filter(
        (s) =>
          !WHOLE_ONLY.has(s.label) &&
          !isExporter(s.value) &&
          s.value.toLowerCase().startsWith(stem) &&
          (s.value.length - stem.length >= 3 || s.value.toLowerCase() === `${stem}s`),
      );
      return new Set(starting.map((s) => s.value)).size === 1 ? starting.slice(0, 1) : [];
    };
    // Each word names the values equal to it, else those it is a part of ("orders" is orders, not orders-worker, when both exist); in the question's order.
    const match = (ws: string[]): Subject[] => {
      const found = ws.flatMap((w) => {
        const exact = catalog.filter((s) => whole(s, w));
        if (exact.length) return exact;
        const part = catalog.filter((s) => !WHOLE_ONLY.has(s.label) && names(w, s.value));
        if (part.length) return part;
        // A pod named by its own suffix ("the rff78 pod"): the one pod whose name ends with it.
        const bySuffix = /^[a-z0-9]{5}$/.test(w) ? catalog.filter((s) => s.label === 'pod' && s.value.endsWith(`-${w}`)) : [];
        if (bySuffix.length === 1) return bySuffix;
        // A plural of a service's name ("the slowest searches", "carts"), or the singular of a plural one ("the order pods" of orders): that service.
        const plural = catalog.filter(
          (s) =>
            !WHOLE_ONLY.has(s.label) && [`${s.value}s`, `${s.value}es`, s.value.replace(/e?s$/, ''), s.value.replace(/s$/, '')].includes(w) && w !== s.value,
        );
        if (plural.length) return plural.slice(0, 1);
        // A program of a service a version's deploy names ("statements-static 2026.11.27-1" of statements): that service, the longest name first.
        const program = this.asked.versions.length
          ? catalog
              .filter((s) => !WHOLE_ONLY.has(s.label) && !isExporter(s.value) && w.startsWith(`${s.value}-`))
              .sort((a, b) => b.value.length - a.value.length)
          : [];
        return program.length ? program.slice(0, 1) : abbreviated(w);
      });
      // A service named by several labels is one subject: its job, else the first label that names it.
      return found.filter((s, i) => found.findIndex((o) => o.value === s.value) === i);
    };
    // An exporter named beside a service ("the blackbox probe on inventory") is how the service is watched: the service comes first.
    const matched = match(words);
    const named = matched.some((s) => !isExporter(s.value))
      ? [...matched.filter((s) => !isExporter(s.value)), ...matched.filter((s) => isExporter(s.value))]
      : matched;
    // A word that names nothing known is asked about when it stands where a name stands, or nearly
    // matches a known name (a typo); otherwise it is one of the question's own words ("rising").
    const nearlyNames = (w: string): boolean => catalog.some((s) => !WHOLE_ONLY.has(s.label) && closeness(w, s.value) <= NEARLY);
    const unresolved = words.filter(
      (w) =>
        !catalog.some((s) => (WHOLE_ONLY.has(s.label) ? whole(s, w) : names(w, s.value))) &&
        !match([w]).length &&
        !abbreviated(w).length &&
        // A plain word of the language stands for a name only when the question needs one more than it names ("is search related
        // to billing?"); a word of the language close to a name is that word, not a typo ("searches").
        ((this.asked.placedAsNames.includes(w) && (!this.asked.plainWords.includes(w) || (needs > 1 && !peopleOrSuperlative(w)))) ||
          (nearlyNames(w) && !isEnglish(w)) ||
          // (Shaped as a name, where a relation needs one more than it names: "the thumbnailer cronjob - is that related to search?")
          (needs > 1 && this.asked.nameShaped.includes(w))),
    );
    // A word that is a part of several names and the whole of none is ambiguous: asked about, never guessed.
    const ambiguous = words
      .filter((w) => !catalog.some((s) => whole(s, w)))
      .map((w) => ({ w, values: [...new Set(catalog.filter((s) => !WHOLE_ONLY.has(s.label) && names(w, s.value)).map((s) => s.value))] }))
      // An exporter's job ("redis-exporter") is not what a word names when a service is named by it too ("sessions-redis").
      .map(({ w, values }) => ({ w, values: values.some((v) => !isExporter(v)) ? values.filter((v) => !isExporter(v)) : values }))
      .filter(({ values }) => values.length > 1);
    if (ambiguous.length)
      return {
        ask: asking(
          `${ambiguous.map(({ w, values }) => `"${w}" names ${values.length} services: ${values.slice(0, 10).join(', ')}`).join('; ')}. Which do you mean?`,
          `${ambiguous.map(({ w }) => w).join(', ')} name${ambiguous.length === 1 ? 's' : ''} several services`,
          runs,
        ),
      };
    // The first name of the question is one no source knows ("the loyalty-points service also calls payments: is it affected?"): asked about, not passed over for the next.
    const firstNamed = words.find((w) => unresolved.includes(w) || match([w]).length);
    // (A question about a version may name what a deploy report calls the service: "the statements-static 2026.11.27-1 bundle".)
    const unknownFirst = !!firstNamed && unresolved.includes(firstNamed) && this.asked.nameShaped.includes(firstNamed) && !this.asked.versions.length;
    // Enough named to answer (a relation needs two): the names not found are said; else they are asked about.
    if (!unknownFirst && (named.length >= needs || (named.length && !unresolved.length))) {
      if (unresolved.length) this.answer.limit('scope', `Nothing named ${unresolved.join(', ')} was found in the sources`, runs);
      return { found: named };
    }
    // A plain word where a name may stand ("errors on the storefront") that names nothing known is said, not asked about.
    const plain = words.filter((w) => this.asked.plainWords.includes(w) && !peopleOrSuperlative(w) && !match([w]).length && !abbreviated(w).length);
    if (plain.length) this.answer.limit('scope', `Nothing named ${plain.join(', ')} was found in the sources`, runs);
    // A reference, or no name at all: what the conversation named last, else the incident's service.
    // What an earlier message named that is a service, before an exporter it named ("so the kubelet is killing it" is still about inventory).
    const named_ = [...earlier].reverse().map(match);
    // After what an alert is about was answered ("CPUThrottlingHigh: which workload?"), "it" is the service that answer named.
    const lastAnswer = this.conversation?.turns.at(-1)?.summary ?? '';
    const alertAnswered = earlierAsked.at(-1)?.listings.includes('alerts')
      ? catalog
          .filter((s) => !WHOLE_ONLY.has(s.label) && s.label !== 'node' && s.label !== 'pod' && !isExporter(s.value))
          .map((s) => ({ s, at: lastAnswer.search(new RegExp(`\\b${escape(s.value)}\\b`)) }))
          .filter(({ at }) => at >= 0)
          .sort((a, b) => a.at - b.at)
          .slice(0, 1)
          .map(({ s }) => s)
      : [];
    // "when did the restarts begin?" after a question about cart's restarts and then one about redis's latency: cart, whose restarts were asked.
    const askedLatestFirst = [...earlierAsked].reverse();
    const latestNamed = named_.findIndex((s) => s.length);
    const measures = (q: TypedQuestion | undefined): Signal[] => q?.mentioned ?? [];
    const sameMeasure =
      !words.length &&
      this.asked.signals.length &&
      latestNamed >= 0 &&
      measures(askedLatestFirst[latestNamed]).length &&
      !measures(askedLatestFirst[latestNamed]).some((x) => this.asked.signals.includes(x))
        ? named_.find((s, i) => s.length && measures(askedLatestFirst[i]).some((x) => this.asked.signals.includes(x)))
        : undefined;
    // After a cause was answered that a service's own act began ("orders-worker was scaled to zero …"), "when was it scaled down?" asks about that service.
    const causeActor =
      earlierAsked.at(-1)?.kind === 'cause' && !named.length && (this.asked.kind === 'when' || this.asked.signals.includes('replicas'))
        ? catalog
            .filter((s) => !WHOLE_ONLY.has(s.label) && !isExporter(s.value) && new RegExp(`^${escape(s.value)} (was|were|went|had|has|is) `).test(lastAnswer))
            .slice(0, 1)
        : [];
    const before = alertAnswered.length
      ? alertAnswered
      : causeActor.length
        ? causeActor
        : (sameMeasure ?? named_.find((s) => s.some((x) => !isExporter(x.value))) ?? named_.find((s) => s.length) ?? []);
    // A reference ("is it still failing?") means what was named before, unless a word of the question is plainly a name
    // nothing known is called: one shaped like a name ("notifications-gateway", "the thumbnailer service") or a known name misspelt ("the inventroy service").
    const plainlyNames = unresolved.some((w) => /[\d_.-]/.test(w) || nearlyNames(w) || this.asked.nameShaped.includes(w));
    if (!unresolved.length || (this.asked.refers && !named.length && !plainlyNames))
      return { found: before.length ? before : incidentSubject ? [incidentSubject] : [] };
    // The candidates, the closest to the names asked about first (a typo finds its service), exporters left out.
    const nearest = (value: string): number => Math.min(...unresolved.map((w) => closeness(w, value)));
    const services = [...new Set(catalog.filter((s) => !WHOLE_ONLY.has(s.label)).map((s) => s.value))]
      .filter((v) => !isExporter(v))
      .sort((a, b) => nearest(a) - nearest(b))
      .slice(0, 10);
    return {
      ask: asking(
        `I could not find ${unresolved.map((w) => `"${w}"`).join(', ')} among the services and jobs the sources know. Which of these do you mean: ${services.join(', ') || 'none is listed'}?`,
        `Nothing named ${unresolved.join(', ')} was found in the sources`,
        runs,
      ),
    };
  }

  /** The service a reference names ("the frontend rollout", "before checkout began failing"), matched as subjects are; null when it names none. */
  private async referenceSubject(session: InvestigationSession, source: SourceBrief, reference: Reference): Promise<Subject | null> {
    if (!reference.words.length) return null;
    // The jobs first; the other names (a database, a dependency no job names) when no job is named.
    const find = (catalog: Subject[]): Subject | null => {
      // An exporter's job ("redis-exporter") is not the service a reference names ("before redis went down").
      const services = catalog.filter((s) => !WHOLE_ONLY.has(s.label) && !isExporter(s.value));
      return services.find((s) => reference.words.some((w) => whole(s, w))) ?? services.find((s) => reference.words.some((w) => names(w, s.value))) ?? null;
    };
    const jobs = (this.known ??= await this.readNames(session, source, ['job']));
    return find(jobs.catalog) ?? (jobs.all ? null : find((await this.allNames(session, source)).catalog));
  }

  /** The moment a changes question asks around: the time the previous answer named ("then"), or when the change it names began ("when search got slow"). */
  private async changesAround(session: InvestigationSession, source: SourceBrief): Promise<Timestamp | null> {
    const reference = this.asked.reference;
    if (reference?.kind === 'then') return this.namedTime(session);
    if (reference?.kind !== 'change' || !reference.signal) return null;
    const whose = (await this.referenceSubject(session, source, reference)) ?? this.incidentSubject(session);
    if (!whose) return null;
    const started = await changeStart({ session, source, percentile: this.asked.percentile }, reference.signal, whose);
    return 'at' in started ? started.at : null;
  }

  /** What the answers before this question said, the latest first: the earlier parts of this message, then the earlier turns. */
  private answersBefore(): string[] {
    return [
      this.answer.text(),
      ...[...(this.conversation?.turns ?? [])]
        .reverse()
        .map((t) => t.summary ?? '')
        .filter(Boolean),
    ];
  }

  /** The nodes the latest answer that named any named, in the order it named them. */
  private nodesNamedBefore(nodes: Subject[]): Subject[] {
    for (const text of this.answersBefore()) {
      const lower = text.toLowerCase();
      const at = (s: Subject): number => {
        const value = s.value.toLowerCase();
        const i = lower.indexOf(value);
        return i >= 0 ? i : lower.search(new RegExp(`\\b${escape(value.split('.')[0])}\\b`));
      };
      const named = nodes.filter((s) => at(s) >= 0).sort((a, b) => at(a) - at(b));
      if (named.length) return named;
    }
    return [];
  }

  /**
   * The time the latest answer that states one named ("then"): its first time that is not the
   * start of a range it read ("from 04:40 UTC to 05:40 UTC") nor the minute it was read at (now),
   * on the day of the window's end unless it names its own day.
   */
  private namedTime(session: InvestigationSession): Timestamp | null {
    for (const text of this.answersBefore()) {
      const at = timeNamed(text, session.window.until);
      if (at) return at;
    }
    return null;
  }

  /** The pods running on `node` at `until`, the workload each belongs to and the CPU each uses, the busiest first. */
  /**
   * What runs on a service's node when the question names the service, not the node ("one of the
   * checkout nodes looks pegged, what's running there?"): the busiest of the nodes its pods run on
   * (the share of its cores busy), then that node's pods.
   */
  private async busiestNodePods(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp): Promise<void> {
    const namespace = incidentNamespace(session);
    const pods = workloadPods(namespace, subject.value);
    const run = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: {
        query: `(1 - avg by (node) (rate(node_cpu_seconds_total{mode="idle"}[5m]))) * on (node) group_left () max by (node) (kube_pod_info{${pods}})`,
        time: until.toISOString(),
      },
      purpose: `How busy the CPUs of the nodes ${subject.value} runs on are`,
    });
    const busiest = seriesOf(run)
      .map((x) => ({ node: x.metric.node, busy: Number(x.value?.[1]) }))
      .filter((x) => x.node && Number.isFinite(x.busy))
      .sort((a, b) => b.busy - a.busy)[0];
    if (!busiest) {
      await this.listing(session, source, subject, until);
      return;
    }
    this.answer.record(
      session,
      `The busiest node ${subject.value} runs on is ${busiest.node}, ${quantity(busiest.busy, 'ratio')} of its cores busy at ${clock(until, until)}`,
      run,
    );
    await this.nodePods(session, source, { label: 'node', value: busiest.node }, until);
  }

  private async nodePods(session: InvestigationSession, source: SourceBrief, node: Subject, until: Timestamp): Promise<void> {
    const onNode = `kube_pod_info{node=${quote(node.value)}}`;
    const query = (q: string, purpose: string) =>
      session.runTool({ tool: 'prometheus.query', integrationId: source.integrationId, arguments: { query: q, time: until.toISOString() }, purpose });
    const pods = await query(`max by (namespace, pod) (${onNode})`, `Which pods run on node ${node.value}`);
    const listed = seriesOf(pods).filter((s) => s.metric.pod);
    if (!listed.length) {
      this.answer.cannot(`no kube_pod_info names a pod on node ${node.value} at ${clock(until, until)}, so what runs on it is unknown`, pods);
      return;
    }
    const cpu = await query(
      `sum by (namespace, pod) (rate(container_cpu_usage_seconds_total{container!=""}[5m]) * on (namespace, pod) group_left () max by (namespace, pod) (${onNode}))`,
      `How much CPU each pod on node ${node.value} uses`,
    );
    const used = new Map(seriesOf(cpu).map((s) => [`${s.metric.namespace}/${s.metric.pod}`, Number(s.value?.[1] ?? NaN)]));
    const rows = listed
      .map((s) => ({
        pod: s.metric.pod,
        namespace: s.metric.namespace,
        workload: workloadOfPod(s.metric.pod),
        cpu: used.get(`${s.metric.namespace}/${s.metric.pod}`),
      }))
      .sort((a, b) => (b.cpu ?? -1) - (a.cpu ?? -1));
    // The pods of the workloads the question names ("which cart pod was on it?"), unless it asks what else runs there.
    const named =
      /\b(which|what) (?:[a-z0-9_-]+ )?(pods?|replicas?|instances?)\b/i.test(session.subject) &&
      !/\b(else|besides|other than|apart from|except)\b/i.test(session.subject)
        ? rows.filter((r) => this.asked.words.includes(r.workload))
        : [];
    if (named.length) {
      this.answer.record(
        session,
        `${named.length} pod(s) of ${[...new Set(named.map((r) => r.workload))].join(', ')} run on node ${node.value} at ${clock(until, until)}: ${named.map((r) => r.pod).join(', ')}`,
        [pods],
      );
      return;
    }
    const workloads = [...new Set(rows.map((r) => r.workload))];
    const busiest = rows.find((r) => r.cpu !== undefined && Number.isFinite(r.cpu));
    this.answer.record(
      session,
      `${rows.length} pod(s) run on node ${node.value} at ${clock(until, until)}, of ${workloads.length} workload(s): ${workloads.slice(0, MAX_ROWS).join(', ')}${busiest ? `; the most CPU: ${busiest.pod} (${busiest.workload}), ${quantity(busiest.cpu!, 'cores')}` : ''}`,
      [pods, busiest ? cpu : null],
      [
        '| pod | workload | namespace | CPU |',
        '|---|---|---|---:|',
        ...rows
          .slice(0, MAX_ROWS)
          .map(
            (r) =>
              `| ${r.pod} | ${r.workload} | ${r.namespace ?? '-'} | ${r.cpu !== undefined && Number.isFinite(r.cpu) ? quantity(r.cpu, 'cores') : 'unknown'} |`,
          ),
      ].join('\n'),
    );
  }

  /** The values of SUBJECT_LABELS the sources know, one run each, with the runs that read them. */
  /**
   * The routes `words` name by a part of their path ("uploads" names `/api/uploads`, "invoice"
   * `/api/invoices`), of the writes or reads asked for: read once per turn, with their methods.
   */
  private async routesNamed(
    session: InvestigationSession,
    source: SourceBrief,
    words: string[],
    /** The services asked about, the first named first: writes or reads alone ("ledger writes") are of the first's routes. */
    jobs: string[],
  ): Promise<{ routes: string[]; words: string[]; jobs: string[] }> {
    const routes = await this.routeTable(session, source);
    const forms = (w: string): string[] => [w, `${w}s`, w.replace(/s$/, ''), w.replace(/ies$/, 'y'), w.replace(/y$/, 'ies')];
    const segments = (route: string): string[] =>
      route
        .toLowerCase()
        .split(/[/._-]+/)
        .filter((x) => x && x !== 'api' && !/^\{.*\}$|^v\d+$/.test(x));
    const used = words.filter((w) => routes.some((r) => r.route && segments(r.route).some((x) => forms(w).includes(x))));
    const wanted = (m: string | undefined): boolean =>
      !this.asked.method || !m || (this.asked.method === 'read' ? m === 'GET' || m === 'HEAD' : m !== 'GET' && m !== 'HEAD');
    const found = routes.filter(
      (r) =>
        wanted(r.method) &&
        (used.length ? segments(r.route).some((x) => used.some((w) => forms(w).includes(x))) : !!this.asked.method && !!jobs[0] && r.job === jobs[0]),
    );
    return { routes: [...new Set(found.map((r) => r.route))], words: used, jobs: [...new Set(found.flatMap((r) => (r.job ? [r.job] : [])))] };
  }

  /** The routes the services answer, each with its method and job, read once per turn. */
  private async routeTable(session: InvestigationSession, source: SourceBrief): Promise<{ route: string; method?: string; job?: string }[]> {
    const run = (this.routeCatalog ??= await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: {
        query: `group by (job, method, ${ROUTE_LABELS.join(', ')}) ({__name__=~${quote(REQUEST_RATES.join('|'))}})`,
        time: session.window.until.toISOString(),
      },
      purpose: 'Which routes the services answer, to match the routes the question names',
    }));
    return seriesOf(run).flatMap((s) => {
      const route = routeOf(s.metric);
      return route ? [{ route, method: s.metric.method?.toUpperCase() as string | undefined, job: s.metric.job as string | undefined }] : [];
    });
  }

  /**
   * The names of the subject labels, beside the jobs read first (see subjects): `first` before the
   * others, one label at a time until `enough` holds once `first` are read (every label without it).
   */
  private async allNames(session: InvestigationSession, source: SourceBrief, first: string[] = [], enough?: () => boolean): Promise<Known> {
    const known = (this.known ??= await this.readNames(session, source, ['job']));
    for (const label of [...new Set([...first, ...SUBJECT_LABELS])]) {
      if (known.read.has(label)) continue;
      if (enough && first.every((l) => known.read.has(l)) && enough()) break;
      await this.learnNames(session, source, known, [label]);
    }
    known.all = SUBJECT_LABELS.every((l) => known.read.has(l));
    return known;
  }

  /** Reads the values of `labels` into what is known, with the runs that read them; a value named by several labels is matched by the first of SUBJECT_LABELS. */
  private async learnNames(session: InvestigationSession, source: SourceBrief, known: Known, labels: string[]): Promise<void> {
    const read = await this.readNames(session, source, labels);
    known.catalog.push(...read.catalog);
    known.runs.push(...read.runs);
    for (const label of labels) known.read.add(label);
    const rank = (label: string): number => (SUBJECT_LABELS.includes(label) ? SUBJECT_LABELS.indexOf(label) : SUBJECT_LABELS.length);
    known.catalog.sort((a, b) => rank(a.label) - rank(b.label));
  }

  private async readNames(session: InvestigationSession, source: SourceBrief, labels = SUBJECT_LABELS): Promise<Known> {
    const catalog: Subject[] = [];
    const runs: number[] = [];
    for (const label of labels) {
      const run = await session.runTool({
        tool: 'prometheus.label_values',
        integrationId: source.integrationId,
        arguments: { label },
        purpose: `Which values of ${label} exist, to match the names in the question`,
      });
      runs.push(run.ordinal);
      const values = run.outcome === 'succeeded' ? ((run.output as { values?: unknown[] } | null)?.values ?? []).map(String) : [];
      catalog.push(...values.map((value) => ({ label, value })));
    }
    return { catalog, runs, read: new Set(labels) };
  }

  /** The signals asked of `subject` from `from` to `until`, compared before and after a split when asked. */
  private async signals(session: InvestigationSession, source: SourceBrief, subject: Subject, from: Timestamp, until: Timestamp): Promise<void> {
    // The limit itself is told with the one it had before it changed, whatever moment is named.
    if (this.asked.limitValue) {
      await this.limits(session, source, subject, from, until);
      return;
    }
    if (this.asked.reference?.kind === 'then' && this.asked.reference.at) {
      await this.signalsThen(session, source, subject, until);
      return;
    }
    if (this.asked.reference?.kind === 'ago' && this.asked.reference.minutes) {
      await this.signalsAgo(session, source, subject, until, this.asked.reference.minutes);
      return;
    }
    // Each pod's CPU or memory with its limit, as a capacity table shows them.
    if (
      (this.asked.againstLimit || this.asked.amount) &&
      this.asked.byPod &&
      subject.label !== 'node' &&
      subject.label !== 'peer' &&
      !this.asked.compare &&
      !this.asked.peak &&
      this.asked.signals.length &&
      this.asked.signals.every((x) => x === 'cpu' || x === 'memory')
    ) {
      await this.useAgainstLimits(session, source, subject, until);
      return;
    }
    if (this.asked.connectionStates && this.asked.signals[0] === 'connections') {
      await answerConnectionStates(session, source, this.answer, subject, until, session.subject);
      return;
    }
    // A volume claim has no CPU or memory of its own: "data-ledger pvc: what is its capacity?" asks its size.
    if (subject.label === 'persistentvolumeclaim' && !this.asked.signals.includes('disk') && this.asked.signals.every((x) => x === 'cpu' || x === 'memory'))
      this.asked = { ...this.asked, signals: ['disk'], size: true, free: null, againstLimit: false };
    // How full its disks are is a listing of its filesystems and volumes, not a series over time (with their sizes when asked
    // beside the space left: "how big is the ledger volume, and how much of it is free").
    if (this.asked.signals.includes('disk') && (!this.asked.free || this.asked.size)) {
      await answerDisks(session, source, this.answer, subject, until, {
        mounts: this.asked.routes,
        size: this.asked.size,
        volumes: this.asked.free === 'volumes' || !!this.asked.volumes,
      });
      if (this.asked.signals.length === 1 && !this.asked.free) return;
    }
    const asked = this.asked.free ? this.asked.signals : this.asked.signals.filter((x) => x !== 'disk');
    const split = await this.splitAt(session, source, subject, from, until);
    // A pod's restarts, asked with no range nor moment, are its restart counter ("restarts on cart-567575f65-gv5zw?").
    const podCounter = subject.label === 'pod' && !this.asked.count && !this.asked.compare && !this.asked.rangeMinutes && !this.asked.reference;
    if ((this.asked.soFar || podCounter) && this.asked.signals.length && this.asked.signals.every((x) => x === 'restarts')) {
      await this.restartsSoFar(session, source, subject, until);
      return;
    }
    if (this.asked.slowerThan && this.asked.signals.includes('latency')) {
      await this.slowRequests(session, source, subject, this.asked.slowerThan, split ?? { at: from, what: null }, until);
      return;
    }
    if (this.asked.count) {
      await this.counts(session, source, subject, split ?? { at: from, what: null }, until);
      return;
    }
    const reads = await readSignals(
      session,
      source,
      subject,
      asked,
      this.readOptions(from, until, { byRoute: this.asked.byRoute && !this.asked.signals.includes('disk') }),
    );
    // "… per pod and the node each one is on": where each pod runs, read once for every measure.
    const podNodes = this.asked.podNodes && this.asked.byPod && subject.label !== 'peer' ? await this.podNodes(session, source, subject, until) : undefined;
    for (const read of reads) {
      if ('cannot' in read) this.answer.cannot(read.cannot, read.run);
      // The memory of what is called is its own, as its exporter says, not of the calls to it.
      else
        this.describe(
          session,
          read,
          read.signal === 'memory' && subject.label === 'peer' ? { ...subject, label: 'service' } : subject,
          split,
          from,
          until,
          podNodes,
        );
    }
    // How a service is doing ("anything weird with payments?") is told with what it rolled out, when it did within the range.
    if (this.asked.status && subject.label !== 'node' && !this.lean) {
      const rollout = await lastRollout(session, source, subject.value, from, until);
      if ('at' in rollout) {
        const began = earliest(session.alerts.map((a) => a.startsAt));
        const minutes = began ? Math.round(Number(began.epochMicros - rollout.at.epochMicros) / 60e6) : null;
        const relative =
          minutes === null
            ? ''
            : minutes > 0
              ? `, ${minutes} min before the incident began`
              : minutes < 0
                ? `, ${-minutes} min after the incident began`
                : ', as the incident began';
        this.answer.record(
          session,
          `The last rollout of ${subject.value} in the range: ${rollout.what}, at ${clock(rollout.at, until)}${relative}`,
          rollout.run,
        );
      }
    }
  }

  /**
   * How many requests, failed requests or container restarts `subject` had from `since.at` to
   * `until` ("how many requests failed since then?"): the increase of their counters over it,
   * since the moment the question names (`since.what`), else over the range asked.
   */
  private async counts(
    session: InvestigationSession,
    source: SourceBrief,
    subject: Subject,
    since: { at: Timestamp; what: string | null; run?: RecordedRun | RecordedRun[] | null },
    until: Timestamp,
  ): Promise<void> {
    const routes = this.asked.routes.length && this.asked.signals.every((x) => x === 'rate' || x === 'errors') ? this.asked.routes : [];
    const reads = await readSignals(session, source, subject, this.asked.signals, {
      ...this.readOptions(since.at, until, { byRoute: this.asked.byRoute && !this.asked.shareOfCount && !this.asked.signals.includes('restarts') }),
      percentile: null,
      count: true,
      routes,
    });
    // (Of the routes named: "on /api/checkout since …".)
    const range = `${routes.length ? `on ${routes.join(', ')} ` : ''}${rangeSince(since, until)}`;
    // The failed requests as a share of all requests over the same range: both counted.
    if (this.asked.shareOfCount && (await this.shareOfCounts(session, source, subject, reads, range, since, until))) return;
    this.recordCounts(session, reads, subject, range, (name) => `no series counts the ${name} of ${shownAs(subject)} ${range}`, since.run);
  }

  /**
   * The requests of `subject` slower than a duration from `since.at` to `until`: their share of all
   * its requests ("what % took longer than 1 s since the deploy?") or how many, from its latency
   * histogram's buckets.
   */
  private async slowRequests(
    session: InvestigationSession,
    source: SourceBrief,
    subject: Subject,
    slower: { seconds: number; share: boolean },
    since: { at: Timestamp; what: string | null; run?: RecordedRun | RecordedRun[] | null },
    until: Timestamp,
  ): Promise<void> {
    const reads = await readSignals(session, source, subject, ['latency'], {
      ...this.readOptions(since.at, until),
      percentile: null,
      count: true,
      slowerThan: slower,
      routes: this.asked.routes,
    });
    const range = rangeSince(since, until);
    const beyond = quantity(slower.seconds, 'seconds');
    const of = `${shownAs(subject)}'s requests${this.asked.routes.length ? ` on ${this.asked.routes.join(', ')}` : ''}`;
    for (const read of reads) {
      if ('cannot' in read) {
        this.answer.cannot(read.cannot, read.run);
        continue;
      }
      const n = lastCount(read);
      const cited = [read.run, read.also, ...[since.run].flat()];
      if (n === undefined)
        this.answer.cannot(`no request of ${shownAs(subject)} was counted ${range}, so how many took longer than ${beyond} is unknown`, read.run);
      else if (slower.share) this.answer.record(session, `${quantity(n, 'ratio')} of ${of} took longer than ${beyond} ${range}`, cited);
      else this.answer.record(session, `${Math.round(n)} of ${of} took longer than ${beyond} ${range}`, cited);
    }
  }

  /**
   * The failed requests `reads` counted as a share of all `subject`'s requests over the same range,
   * read as one more expression of the two counts so that a run shows it; false when either count is missing.
   */
  private async shareOfCounts(
    session: InvestigationSession,
    source: SourceBrief,
    subject: Subject,
    reads: Array<SignalRead | SignalMissing>,
    range: string,
    since: { at: Timestamp; run?: RecordedRun | RecordedRun[] | null },
    until: Timestamp,
  ): Promise<boolean> {
    const failed = reads.find((r): r is SignalRead => !('cannot' in r) && r.signal === 'errors');
    const [all] = await readSignals(session, source, subject, ['rate'], {
      ...this.readOptions(since.at, until),
      percentile: null,
      count: true,
      routes: this.asked.shareOfAll ? [] : this.asked.routes,
    });
    if (!failed || !all || 'cannot' in all) return false;
    const [f, t] = [lastCount(failed), lastCount(all)];
    const [fq, tq] = [failed.run.arguments.query, all.run.arguments.query];
    if (f === undefined || !t || typeof fq !== 'string' || typeof tq !== 'string') return false;
    // Availability is the share that succeeded: one less the share that failed.
    const succeeded = !!this.asked.availability;
    const share = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: { query: succeeded ? `1 - (${fq}) / (${tq})` : `(${fq}) / (${tq})`, time: until.toISOString() },
      purpose: `The share of ${shownAs(subject)}'s requests that ${succeeded ? 'succeeded' : 'failed'} ${range}`,
    });
    const ratio = Number(seriesOf(share)[0]?.value?.[1]);
    if (!Number.isFinite(ratio)) return false;
    const statement = succeeded
      ? `The availability of ${shownAs(subject)} ${range}: ${quantity(ratio, 'ratio')} of its requests succeeded (${Math.round(f)} of ${Math.round(t)} failed)`
      : this.asked.shareOfAll && this.asked.routes.length
        ? `The failed requests ${range} were ${quantity(ratio, 'ratio')} of all of ${shownAs(subject)}'s requests: ${Math.round(f)} of ${Math.round(t)}`
        : `${quantity(ratio, 'ratio')} of ${shownAs(subject)}'s requests failed ${range}: ${Math.round(f)} of ${Math.round(t)}`;
    this.answer.record(session, statement, [share, failed.run, failed.also, all.run, all.also, ...[since.run].flat()]);
    return true;
  }

  /** How many times `subject`'s containers restarted so far: the restart counters of its pods now, as `kubectl get pods` shows them. */
  private async restartsSoFar(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp): Promise<void> {
    const reads = await readSignals(session, source, subject, ['restarts'], { ...this.readOptions(shift(until, -5n * MINUTE), until), soFar: true });
    const at = `at ${clock(until, until)}`;
    this.recordCounts(session, reads, subject, at, () => `no restart counter of ${shownAs(subject)}'s pods was read ${at}`);
  }

  /** Each count read ("cart had 12 container restarts <when>"), the last sample of its series; what is `missing` (of the count named) when there is none. */
  private recordCounts(
    session: InvestigationSession,
    reads: Array<SignalRead | SignalMissing>,
    subject: Subject,
    when: string,
    missing: (name: string) => string,
    since?: RecordedRun | RecordedRun[] | null,
  ): void {
    for (const read of reads) {
      if ('cannot' in read) {
        this.answer.cannot(read.cannot, read.run);
        continue;
      }
      // Split by route: each route's count, the most first.
      const routes = read.lines
        .map((l) => ({ route: routeOf(l.labels), n: l.points.at(-1)?.v }))
        .filter((r): r is { route: string; n: number } => r.route !== undefined && r.n !== undefined)
        .sort((a, b) => b.n - a.n);
      const n = lastCount(read);
      if (routes.length > 1)
        this.answer.record(
          session,
          `The ${read.name} of ${shownAs(subject)} ${when}, by route: ${routes.map((r) => `${r.route}: ${Math.round(r.n)} ${read.name}`).join(', ')}`,
          [read.run, read.also, ...[since].flat()],
        );
      else if (n === undefined) this.answer.cannot(missing(read.name), read.run);
      else this.answer.record(session, `${shownAs(subject)} had ${Math.round(n)} ${read.name} ${when}`, [read.run, read.also, ...[since].flat()]);
    }
  }

  /** How the signals asked are read from `from` to `until`: the percentile, limit, failures per second, mean and queue measure the question asks, split by route only when `byRoute` says. */
  private readOptions(from: Timestamp, until: Timestamp, options: { byRoute?: boolean } = {}): Parameters<typeof readSignals>[4] {
    return {
      from,
      until,
      byRoute: options.byRoute ?? false,
      percentile: this.asked.percentile,
      againstLimit: this.asked.againstLimit,
      failedPerSecond: this.asked.failedPerSecond,
      mean: this.asked.mean,
      inCores: this.asked.inCores,
      queue: this.asked.queue,
      pool: this.asked.pool,
      probe: this.asked.probe,
      byPod: this.asked.byPod && !options.byRoute,
      largest: this.asked.largest,
      ...(this.asked.free ? { free: { volumes: this.asked.free === 'volumes', mounts: this.asked.routes } } : {}),
    };
  }

  /** The signals asked of `subject` at the time the previous answer named ("what was its p99 then?"): the sample nearest it. */
  private async signalsThen(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp): Promise<void> {
    // "Just before that" is the sample two steps before the moment named, before what happened then shows.
    const named = this.namedTime(session);
    const at = named && this.asked.reference?.justBefore ? shift(named, -2n * BigInt(STEP_SECONDS) * 1_000_000n) : named;
    if (!at || at.isAfter(until)) {
      // No answer named a time: "then" says "in that case" ("how much is left on / of that node then?"): read now.
      this.asked = { ...this.asked, reference: null };
      await this.signals(session, source, subject, shift(until, -BigInt(this.asked.rangeMinutes ?? DEFAULT_RANGE_MINUTES) * MINUTE), until);
      return;
    }
    const reads = await readSignals(
      session,
      source,
      subject,
      this.asked.signals,
      this.readOptions(shift(at, -AROUND_THEN), shift(at, AROUND_THEN).isBefore(until) ? shift(at, AROUND_THEN) : until),
    );
    for (const read of reads) {
      if ('cannot' in read) {
        this.answer.cannot(read.cannot, read.run);
        continue;
      }
      const nearest = nearestTo(
        read.lines.flatMap((l) => l.points),
        at,
      );
      const sum = nearest && read.lines.reduce((total, l) => total + (l.points.find((p) => p.t.epochMicros === nearest.t.epochMicros)?.v ?? 0), 0);
      if (!nearest || sum === null)
        this.answer.cannot(`no series for the ${read.name} of ${shownAs(subject)} around ${clock(at, until)}`, [read.run, read.also]);
      else
        this.answer.record(
          session,
          `The ${read.name} of ${shownAs(subject)} was ${quantity(read.lines.length > 1 ? sum : nearest.v, read.unit)} at ${clock(nearest.t, until)}, ${this.asked.reference?.justBefore ? 'just before ' : ''}the time the previous answer named`,
          [read.run, read.also],
        );
    }
  }

  /** The signals asked of `subject` now against `minutes` ago ("p99 compared to an hour ago"): the latest sample and the one nearest then. */
  private async signalsAgo(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp, minutes: number): Promise<void> {
    const then = shift(until, -BigInt(minutes) * MINUTE);
    // The routes named ("/api/search traffic now and an hour ago") are read apart, and only they are compared.
    // (A disk question's paths are its mounts, read by readSignals itself.)
    const routes = this.asked.signals.includes('disk') ? [] : this.asked.routes;
    const reads = await readSignals(
      session,
      source,
      subject,
      this.asked.signals,
      this.readOptions(shift(then, -AROUND_THEN), until, { byRoute: routes.length > 0 }),
    );
    const ago = minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'} ago` : `${minutes} minutes ago`;
    for (const read of reads) {
      if ('cannot' in read) {
        this.answer.cannot(read.cannot, read.run);
        continue;
      }
      const onRoutes = routes.length ? read.lines.filter((l) => routes.includes(routeOf(l.labels) ?? '')) : [];
      if (routes.length && !onRoutes.length) {
        this.answer.cannot(`no series of the ${read.name} of ${shownAs(subject)} names ${routes.join(', ')}`, [read.run, read.also]);
        continue;
      }
      const of = onRoutes.length ? `${shownAs(subject)} on ${[...new Set(onRoutes.map((l) => routeOf(l.labels)))].join(', ')}` : shownAs(subject);
      const points = (onRoutes.length ? onRoutes : read.lines).flatMap((l) => l.points).sort((a, b) => (a.t.isBefore(b.t) ? -1 : 1));
      const last = points.at(-1);
      const before = nearestTo(points, then);
      if (!last || !before || apart(before.t, then) > AROUND_THEN) {
        this.answer.cannot(`no series for the ${read.name} of ${of} both now and ${ago}`, [read.run, read.also]);
        continue;
      }
      // The value then leads when that is what is asked ("what was the p99 two hours ago?").
      this.answer.record(
        session,
        this.asked.reference?.at
          ? `The ${read.name} of ${of} was ${quantity(before.v, read.unit)} ${ago} (${clock(before.t, until)}); it ${current(last, until, read.unit)}: ${direction(before.v, last.v, read.unit)}`
          : `The ${read.name} of ${of} ${current(last, until, read.unit)} and was ${quantity(before.v, read.unit)} ${ago} (${clock(before.t, until)}): ${direction(before.v, last.v, read.unit)}`,
        [read.run, read.also],
      );
    }
  }

  /**
   * The CPU or memory limit itself of `subject`'s containers ("what's the memory limit of
   * checkout?"): kube-state-metrics' limits (else cAdvisor's quota or limit), the newest pod's now,
   * and the one the pods before it had, with when the first pod with the new one started, when it
   * changed within the range.
   */
  private async limits(session: InvestigationSession, source: SourceBrief, subject: Subject, from: Timestamp, until: Timestamp): Promise<void> {
    const pods = subjectPods(incidentNamespace(session), subject);
    for (const signal of this.asked.signals.filter((x): x is 'cpu' | 'memory' => x === 'cpu' || x === 'memory')) {
      const [query, unit, what]: [string, Unit, string] =
        signal === 'cpu'
          ? [
              `max by (pod) (kube_pod_container_resource_limits{${pods}, resource="cpu"}) or max by (pod) (container_spec_cpu_quota{${pods}, container!=""} > 0) / 100000`,
              'cores',
              'CPU limit',
            ]
          : [
              `max by (pod) (kube_pod_container_resource_limits{${pods}, resource="memory"}) or max by (pod) (container_spec_memory_limit_bytes{${pods}, container!=""} > 0)`,
              'bytes',
              'memory limit',
            ];
      const run = await session.runTool({
        tool: 'prometheus.query_range',
        integrationId: source.integrationId,
        arguments: { query, start: from.toISOString(), end: until.toISOString(), step: STEP_SECONDS },
        purpose: `The ${what} of ${subject.value}'s containers`,
      });
      // Each pod's limit from when it started: the newest pod's is the limit now; the first pod with it, after pods with another, is when it changed.
      const started = seriesOf(run)
        .map((x) => pointsOf(x))
        .filter((p) => p.length)
        .sort((a, b) => (a[0].t.isBefore(b[0].t) ? -1 : a[0].t.isAfter(b[0].t) ? 1 : 0));
      const newest = started.at(-1);
      const last = newest?.at(-1);
      if (!newest || !last) {
        this.answer.cannot(`no ${what} of ${subject.value}'s containers was read (kube-state-metrics' limits or cAdvisor's), so it is unknown`, run);
        continue;
      }
      const before = [...started].reverse().find((p) => p[0].v !== last.v);
      const since = before && started.find((p) => p[0].t.isAfter(before[0].t) && p[0].v === last.v)?.[0];
      this.answer.record(
        session,
        before && since && this.asked.before
          ? `The ${what} of ${subject.value}'s containers was ${quantity(before[0].v, unit)} until ${clock(since.t, until)}, when the first pod with ${quantity(last.v, unit)} started; it ${current(last, until, unit)}: ${last.v < before[0].v ? 'down' : 'up'}`
          : `The ${what} of ${subject.value}'s containers ${current(last, until, unit)}${before && since ? `; it was ${quantity(before[0].v, unit)} until ${clock(since.t, until)}: ${last.v < before[0].v ? 'down' : 'up'}` : `, the same from ${clock(from, until)}`}`,
        run,
      );
    }
  }

  /**
   * Each pod's CPU or memory use now with the limits of its containers (kube-state-metrics', else cAdvisor's quota), the pod closest
   * to its limit first: led by the use when an amount is asked ("how many cores is each pod using vs its limit?"), else by the share.
   */
  private async useAgainstLimits(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp): Promise<void> {
    const pods = subjectPods(incidentNamespace(session), subject);
    for (const signal of this.asked.signals.filter((x): x is 'cpu' | 'memory' => x === 'cpu' || x === 'memory')) {
      const { use, limit } = podUseAndLimit(signal, pods);
      const unit: Unit = signal === 'cpu' ? 'cores' : 'bytes';
      const run = await session.runTool({
        tool: 'prometheus.query',
        integrationId: source.integrationId,
        arguments: {
          query: `label_replace(${use}, "measure", "use", "", "") or label_replace(${limit}, "measure", "limit", "", "") or label_replace(${use} / ${limit}, "measure", "share", "", "")`,
          time: until.toISOString(),
        },
        purpose: `The ${SIGNAL_NAMES[signal]} of each pod of ${subject.value} with its limit`,
      });
      const rows = new Map<string, { use?: number; limit?: number; share?: number }>();
      for (const x of seriesOf(run)) {
        const pod = x.metric.pod;
        const value = Number(x.value?.[1] ?? NaN);
        const measure = x.metric.measure;
        if (!pod || !Number.isFinite(value) || (measure !== 'use' && measure !== 'limit' && measure !== 'share')) continue;
        rows.set(pod, { ...rows.get(pod), [measure]: value });
      }
      const share = (r: { share?: number }): number => r.share ?? -1;
      const used = [...rows.entries()].filter(([, r]) => r.use !== undefined).sort((a, b) => share(b[1]) - share(a[1]));
      if (!used.length) {
        this.answer.cannot(`no ${SIGNAL_NAMES[signal]} of ${subject.value}'s pods was read, so their use against their limits is unknown`, run);
        continue;
      }
      const amountFirst = this.asked.inCores || this.asked.amount;
      const each = used.map(([pod, r]) =>
        r.limit === undefined || r.share === undefined
          ? `${pod} ${quantity(r.use!, unit)} (no limit)`
          : amountFirst
            ? `${pod} ${quantity(r.use!, unit)} of ${quantity(r.limit, unit)} (${quantity(share(r), 'ratio')})`
            : `${pod} ${quantity(share(r), 'ratio')} of its limit (${quantity(r.use!, unit)} of ${quantity(r.limit, unit)})`,
      );
      this.answer.record(
        session,
        `The ${SIGNAL_NAMES[signal]} of ${subject.value}'s pods against their limits at ${clock(until, until)}, the closest first: ${each.slice(0, 4).join(', ')}${each.length > 4 ? `, and ${each.length - 4} more` : ''}`,
        run,
        each.length > 4
          ? [
              '| pod | use | limit | share |',
              '|---|---|---|---|',
              ...used
                .slice(0, MAX_ROWS)
                .map(
                  ([pod, r]) =>
                    `| ${pod} | ${quantity(r.use!, unit)} | ${r.limit === undefined ? '-' : quantity(r.limit, unit)} | ${r.limit === undefined ? '-' : quantity(share(r), 'ratio')} |`,
                ),
            ].join('\n')
          : undefined,
      );
    }
  }

  /**
   * Where to split the range for a comparison: when a version named in the question started
   * (its first build series or image of the subject's pods), else when the incident's first alert
   * began; null when nothing is asked to compare or the moment is outside the range.
   */
  private async splitAt(
    session: InvestigationSession,
    source: SourceBrief,
    subject: Subject,
    from: Timestamp,
    until: Timestamp,
  ): Promise<{ at: Timestamp; what: string; run: RecordedRun | RecordedRun[] | null } | null> {
    if (!this.asked.compare) return null;
    const inRange = (t: Timestamp | null | undefined): t is Timestamp => !!t && t.isAfter(from) && !t.isAfter(until);
    // "since then" after a version was named is since that version started.
    const reference = this.asked.reference?.kind === 'then' && this.asked.versions.length ? null : this.asked.reference;
    if (reference) return this.referenceAt(session, source, subject, reference, from, until, inRange);
    const version = this.asked.versions[0];
    if (version) {
      // A version is of the subject, else of the caller whose calls are asked about or of the incident's service
      // ("checkout's calls to payments since 2.15.0": checkout's 2.15.0).
      const incident = this.incidentSubject(session);
      const owners = [subject, ...(subject.caller ? [{ label: 'job', value: subject.caller }] : []), ...(incident ? [incident] : [])].filter(
        (o, i, all) => o.label !== 'peer' && all.findIndex((x) => x.value === o.value) === i,
      );
      const runs: RecordedRun[] = [];
      for (const owner of owners) {
        const { at: started, run } = await this.versionStart(session, source, owner, version, from, until);
        runs.push(run);
        if (started) return { at: started, what: `${version}${owner.value === subject.value ? '' : ` of ${owner.value}`} started`, run };
      }
      this.answer.cannot(`${version} of ${subject.value} did not start within the range read, so there is no before and after it to compare`, runs);
      return null;
    }
    const first = earliest(session.alerts.map((a) => a.startsAt));
    return inRange(first) ? { at: first, what: 'the incident began', run: null } : null;
  }

  /** When `version` of `subject` started between `from` and `until`: its first build series or image of the subject's pods; null when it did not start then. */
  private async versionStart(
    session: InvestigationSession,
    source: SourceBrief,
    subject: Subject,
    version: string,
    from: Timestamp,
    until: Timestamp,
  ): Promise<{ at: Timestamp | null; run: RecordedRun }> {
    const run = await session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: {
        query: `max by (${subject.label}, version) ({__name__=~".+_build_info", ${subject.label}=${quote(subject.value)}, version=~${quote(`v?${escape(version)}`)}}) or max by (container, image) (kube_pod_container_info{image=~${quote(`.*:v?${escape(version)}`)}, container=${quote(subject.value)}})`,
        start: from.toISOString(),
        end: until.toISOString(),
        step: STEP_SECONDS,
      },
      purpose: `When did ${version} of ${subject.value} start?`,
    });
    const started = seriesOf(run)
      .map((s) => pointsOf(s)[0]?.t)
      .filter((t): t is Timestamp => !!t && t.isAfter(from) && !t.isAfter(until))
      .sort((a, b) => (a.isAfter(b) ? 1 : -1))[0];
    return { at: started ?? null, run };
  }

  /**
   * The moment a reference names, found in the data: the start of the change of its measure (of
   * the service it names, else the question's subject), the last rollout of the service it names
   * (else of the subject), or the time the previous answer named. Null, with what the data
   * showed instead, when there is no such moment within the range read.
   */
  private async referenceAt(
    session: InvestigationSession,
    source: SourceBrief,
    subject: Subject,
    reference: Reference,
    from: Timestamp,
    until: Timestamp,
    inRange: (t: Timestamp | null | undefined) => t is Timestamp,
  ): Promise<{ at: Timestamp; what: string; run: RecordedRun | RecordedRun[] | null } | null> {
    const range = `from ${clock(from, until)} to ${clock(until, until)}`;
    if (reference.kind === 'then') {
      const at = this.namedTime(session);
      if (inRange(at)) return { at, what: 'the time the previous answer named', run: null };
      this.answer.limit('scope', `No earlier answer names a time ${range} to compare with`, []);
      return null;
    }
    if (reference.event) return this.eventAt(session, reference.event, inRange);
    let whose = (await this.referenceSubject(session, source, reference)) ?? subject;
    if (reference.kind === 'rollout') {
      const rollout = await lastRollout(session, source, whose.value, from, until);
      if ('at' in rollout) return { at: rollout.at, what: rollout.reported ? rollout.what : `the rollout of ${rollout.what}`, run: rollout.run };
      this.answer.cannot(`${whose.value} did not roll out ${range}, so there is no rollout to compare with`, rollout.none);
      return null;
    }
    const signal = reference.signal ?? this.asked.signals[0];
    if (!signal) return null;
    // A change the reference names of no subject it has ("p50 of cart's calls to redis before the restarts began") is of the caller, else of the incident's service.
    const incident = this.incidentSubject(session);
    const owners = [whose, ...(whose.caller ? [{ label: 'job', value: whose.caller }] : []), ...(incident ? [incident] : [])].filter(
      (o, i, all) => all.findIndex((x) => x.value === o.value && x.label === o.label) === i,
    );
    let started = await changeStart({ session, source, percentile: this.asked.percentile }, signal, owners[0]);
    let owner = owners[0];
    for (const next of owners.slice(1)) {
      if (!('cannot' in started)) break;
      const tried = await changeStart({ session, source, percentile: this.asked.percentile }, signal, next);
      if (!('cannot' in tried)) {
        started = tried;
        owner = next;
      }
    }
    if ('cannot' in started) {
      this.answer.cannot(started.cannot, started.runs);
      return null;
    }
    whose = owner;
    const runs = started.runs.filter((r): r is RecordedRun => !!r);
    if (!inRange(started.at)) {
      this.answer.cannot(`the ${started.name} of ${whose.value} began to change at ${clock(started.at, until)}, outside the range read (${range})`, runs);
      return null;
    }
    return { at: started.at, what: `the ${started.name} of ${whose.value} began to change`, run: runs };
  }

  /**
   * When an event the question names happened ("since the media disk filled up"): the question of
   * when it happened, answered as it would be asked alone (its runs cited), and the first time its answer names.
   */
  private async eventAt(
    session: InvestigationSession,
    event: string,
    inRange: (t: Timestamp | null | undefined) => t is Timestamp,
  ): Promise<{ at: Timestamp; what: string; run: RecordedRun[] } | null> {
    const dating = new IncidentQuestions(parseQuestion(event), this.conversation, [], this.lean);
    dating.known = this.known;
    dating.routeCatalog = this.routeCatalog;
    const asked = await dating.answerPart(session, false);
    // (What the dating read once is not read again by this turn.)
    this.known ??= dating.known;
    this.routeCatalog ??= dating.routeCatalog;
    const dated = dating.answer.conclusion(session, null);
    const runs = session.runs.filter((r) => dated.findings.some((f) => f.runRefs.includes(r.ordinal)));
    const at = asked ? null : timeNamed(dated.summary, session.window.until);
    const what = event.replace(/^at what time\s+|\?$/g, '');
    if (inRange(at)) return { at, what, run: runs };
    this.answer.cannot(`when ${what} is not known from the data read (${dated.summary.split('\n')[0].replace(/\s*\[[#\d, ]+\]\s*$/, '')})`, runs);
    return null;
  }

  /** The statement (and, split by route, the table) that answers one signal. */
  private describe(
    session: InvestigationSession,
    read: SignalRead,
    subject: Subject,
    split: { at: Timestamp; what: string; run: RecordedRun | RecordedRun[] | null } | null,
    from: Timestamp,
    until: Timestamp,
    /** Where each pod runs, for a split by pod that asks it. */
    podNodes?: { run: RecordedRun; of: Map<string, string> },
  ): void {
    const { name, run, unit } = read;
    const withPoints = read.lines.filter((s) => s.points.length);
    if (!withPoints.length) {
      this.answer.cannot(
        `${run.summary.startsWith('No series') ? 'no series' : 'nothing'} for the ${name} of ${shownAs(subject)} from ${clock(from, until)} to ${clock(until, until)}`,
        run,
      );
      return;
    }
    const range = `from ${clock(from, until)} to ${clock(until, until)}`;
    const summarise = (points: Array<{ t: Timestamp; v: number }>) => {
      const before = split ? mean(points.filter((p) => p.t.isBefore(split.at)).map((p) => p.v)) : null;
      const after = split ? mean(points.filter((p) => !p.t.isBefore(split.at)).map((p) => p.v)) : null;
      return { all: mean(points.map((p) => p.v))!, before, after, now: points.at(-1)?.v ?? null };
    };
    // No range named: how it is now (the latest sample) first, with the hour's mean.
    const asksNow = this.asked.rangeMinutes === null;
    const moved = (b: number | null, a: number | null): string => (b === null || a === null ? '' : direction(b, a, unit));
    // "Both pods or just one?": each pod's, the highest first.
    if (this.asked.byPod && !this.asked.byRoute && withPoints.length > 1 && withPoints.every((l) => l.labels.pod)) {
      const rows = withPoints
        .map((s) => ({ pod: s.labels.pod, ...summarise(s.points) }))
        .sort((a, b) => (b.now ?? b.all) - (a.now ?? a.all))
        .slice(0, MAX_ROWS);
      const node = (pod: string): string => podNodes?.of.get(pod) ?? '';
      // (With where each pod runs, when asked.)
      const nodeColumn = (cell: string): string => (podNodes ? ` ${cell} |` : '');
      const table = [
        `| pod |${nodeColumn('node')} now | mean ${range} |`,
        `|---|${podNodes ? '---|' : ''}---:|---:|`,
        ...rows.map((r) => `| ${r.pod} |${nodeColumn(node(r.pod))} ${fmt(r.now, unit)} | ${quantity(r.all, unit)} |`),
      ].join('\n');
      this.answer.record(
        session,
        `The ${name} of ${shownAs(subject)} by pod now (${clock(until, until)}), the highest first: ${rows
          .map((r) => `${r.pod}${node(r.pod) ? ` (on ${node(r.pod)})` : ''} ${fmt(r.now, unit)}`)
          .join(', ')}`,
        [run, read.also, podNodes?.run],
        table,
      );
      return;
    }
    if (this.asked.byRoute && withPoints.every((l) => routeOf(l.labels) === undefined))
      this.answer.cannot(`no series of the ${name} of ${shownAs(subject)} labels its route, so the split by route is unknown`, run);
    if (this.asked.byRoute && withPoints.length > 1) {
      const rows = withPoints
        .map((s) => ({ route: routeOf(s.labels) ?? '(no route)', ...summarise(s.points) }))
        .sort((a, b) => (b.after ?? (asksNow ? b.now : null) ?? b.all) - (a.after ?? (asksNow ? a.now : null) ?? a.all))
        .slice(0, MAX_ROWS)
        // The routes asked about first.
        .sort((a, b) => Number(this.asked.routes.includes(b.route)) - Number(this.asked.routes.includes(a.route)));
      const table = split
        ? [
            `| route | before (${clock(split.at, until)}) | after | change |`,
            '|---|---:|---:|---|',
            ...rows.map((r) => `| ${r.route} | ${fmt(r.before, unit)} | ${fmt(r.after, unit)} | ${moved(r.before, r.after) || '-'} |`),
          ].join('\n')
        : asksNow
          ? [`| route | now | mean ${range} |`, '|---|---:|---:|', ...rows.map((r) => `| ${r.route} | ${fmt(r.now, unit)} | ${quantity(r.all, unit)} |`)].join(
              '\n',
            )
          : [`| route | mean | `, '|---|---:|', ...rows.map((r) => `| ${r.route} | ${quantity(r.all, unit)} |`)].join('\n');
      const changed = rows.filter((r) => moved(r.before, r.after) === 'up').map((r) => r.route);
      const asked = this.asked.routes;
      const mine = rows.filter((r) => asked.includes(r.route) && r.before !== null && r.after !== null);
      const others = changed.filter((r) => !asked.includes(r));
      const onlyAsked = asked.length > 0 && changed.length > 0 && changed.every((r) => asked.includes(r));
      const statement =
        split && mine.length && !onlyAsked
          ? // The routes asked about, each compared on its own; the others that moved said before.
            `${others.length ? `Of ${shownAs(subject)}'s other routes, ${others.join(', ')} ${others.length === 1 ? 'has' : 'have'} a higher ${name} since ${split.what}; ` : ''}${mine
              .map(
                (r) =>
                  `on ${r.route} the ${name} of ${shownAs(subject)} was ${fmt(r.before, unit)} before ${split.what} (${clock(split.at, until)}) and ${fmt(r.after, unit)} after: ${moved(r.before, r.after)}`,
              )
              .join('; ')}`.replace(/^o/, 'O')
          : !split
            ? asksNow
              ? `The ${name} of ${shownAs(subject)} by route now (${clock(until, until)}): ${rows.map((r) => `${r.route} ${fmt(r.now, unit)}`).join(', ')}`
              : `The ${name} of ${shownAs(subject)} by route, ${range}: ${rows.map((r) => `${r.route} ${quantity(r.all, unit)}`).join(', ')}`
            : !changed.length
              ? `No route of ${shownAs(subject)} has a higher ${name} since ${split.what} (${clock(split.at, until)})`
              : asked.length && changed.every((r) => asked.includes(r))
                ? `Only ${changed.join(', ')} of ${shownAs(subject)} has a higher ${name} since ${split.what} (${clock(split.at, until)}); the other routes are about the same`
                : `The ${name} of ${shownAs(subject)} is higher since ${split.what} (${clock(split.at, until)}) on ${changed.join(', ')}${asked.length ? `, not only on ${asked.join(', ')}` : ''}`;
      this.answer.record(session, statement, [run, read.also, ...[split?.run].flat()], table);
      this.howFailing(session, subject, read);
      return;
    }
    const whole = summarise(withPoints.flatMap((s) => s.points));
    const points = withPoints.flatMap((s) => s.points).sort((a, b) => (a.t.isBefore(b.t) ? -1 : 1));
    const last = points[points.length - 1];
    const peak = points.reduce((a, b) => (b.v > a.v ? b : a));
    const statement =
      this.asked.peak && !split
        ? // The highest it reached, which is what is asked, then where it is now.
          `The ${name} of ${shownAs(subject)} peaked at ${quantity(peak.v, unit)} (${clock(peak.t, until)}) ${range}; it ${current(last, until, unit)}`
        : this.asked.againstLimit && unit === 'ratio' && !split
          ? // How close to its limit is what the pod is at now, and the most it reached.
            `The ${name} of ${shownAs(subject)} was ${quantity(last.v, unit)} at ${clock(last.t, until)}, at most ${quantity(peak.v, unit)} (${clock(peak.t, until)}) ${range}`
          : split && whole.before !== null && whole.after !== null && (this.asked.status || this.asked.valueFirst) && this.asked.rangeMinutes === null
            ? `The ${name} of ${shownAs(subject)} ${current(last, until, unit)}; it was ${quantity(whole.before, unit)} before ${split.what} (${clock(split.at, until)}) and ${quantity(whole.after, unit)} after${moved(whole.before, whole.after) === 'about the same' ? ': about the same' : `: ${moved(whole.before, whole.after)}`}`
            : split && whole.before !== null && whole.after !== null
              ? `The ${name} of ${shownAs(subject)} was ${quantity(whole.before, unit)} before ${split.what} (${clock(split.at, until)}) and ${quantity(whole.after, unit)} after${moved(whole.before, whole.after) === 'about the same' ? ': about the same' : `: ${moved(whole.before, whole.after)}`}`
              : asksNow
                ? `The ${name} of ${shownAs(subject)} ${current(last, until, unit)}; it averaged ${quantity(whole.all, unit)} ${range}`
                : `The ${name} of ${shownAs(subject)} averaged ${quantity(whole.all, unit)} ${range}`;
    this.answer.record(session, statement, [run, read.also, ...[split?.run].flat()]);
    this.howFailing(session, subject, read);
  }

  /** How they fail, when asked: the outcomes of the requests failing now. */
  private howFailing(session: InvestigationSession, subject: Subject, read: { failures?: string[]; also?: RecordedRun }): void {
    if (this.asked.howFailing && read.failures?.length && read.also)
      this.answer.record(session, `The failing outcomes of ${shownAs(subject)} now, the most first: ${read.failures.join('; ')}`, [read.also]);
  }

  /** What `subject` calls and what calls it, from the caller → callee pairs read. */
  private peers(session: InvestigationSession, subject: Subject, calls: { pairs: CallPair[]; run: RecordedRun }): void {
    const x = subject.value;
    if (!calls.pairs.length) {
      this.answer.cannot(`no series pairs callers and callees, so what ${x} calls and what calls it is unknown`, calls.run);
      return;
    }
    const callees = [...new Set(calls.pairs.filter((p) => p.caller === x).map((p) => p.callee))].sort();
    const callers = [...new Set(calls.pairs.filter((p) => p.callee === x).map((p) => p.caller))].sort();
    this.answer.record(
      session,
      !callees.length && !callers.length
        ? `No call of ${x} or to it shows in the series that pair callers and callees`
        : [
            callees.length ? `${x} calls ${callees.join(', ')}` : `${x} calls nothing the series show`,
            callers.length ? `${callers.join(', ')} call${callers.length === 1 ? 's' : ''} ${x}` : `nothing the series show calls ${x}`,
          ].join('; '),
      calls.run,
    );
  }

  /** The routes `subject` serves, with their request rates at `until`. */
  private async routes(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp): Promise<void> {
    const [read] = await readSignals(session, source, subject, ['rate'], {
      from: shift(until, -5n * MINUTE),
      until,
      byRoute: true,
      percentile: null,
    });
    if ('cannot' in read) {
      this.answer.cannot(read.cannot, read.run);
      return;
    }
    const rows = read.lines
      .map((l) => ({ route: routeOf(l.labels), rate: l.points.at(-1)?.v }))
      .filter((r): r is { route: string; rate: number } => r.route !== undefined && r.rate !== undefined)
      .sort((a, b) => b.rate - a.rate);
    if (!rows.length) {
      this.answer.cannot(`no request series of ${subject.value} labels its route, so its routes are unknown`, read.run);
      return;
    }
    this.answer.record(
      session,
      `${subject.value} serves ${rows.length} route${rows.length === 1 ? '' : 's'} at ${clock(until, until)}, the busiest first`,
      read.run,
      ['| route | request rate |', '|---|---:|', ...rows.slice(0, MAX_ROWS).map((r) => `| ${r.route} | ${quantity(r.rate, 'rps')} |`)].join('\n'),
    );
  }

  /** Which pods of `subject` run where, and which version each runs, at `until`. */
  /** The pods of `workload` that run on `node` now (kube_pod_info). */
  private async podsOn(session: InvestigationSession, source: SourceBrief, workload: Subject, node: string, until: Timestamp): Promise<Subject[]> {
    const run = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: {
        query: `count by (pod) (kube_pod_info{${workloadPods(incidentNamespace(session), workload.value)}, node=${quote(node)}})`,
        time: until.toISOString(),
      },
      purpose: `Which pods of ${workload.value} run on ${node}`,
    });
    return seriesOf(run)
      .map((s) => s.metric.pod)
      .filter((p): p is string => !!p)
      .map((value) => ({ label: 'pod', value }));
  }

  /** The nodes the pods of `subject` (a workload, or one pod) run on now (kube_pod_info). */
  /** The node each pod of `subject` runs on, as kube-state-metrics says, with the run that read it. */
  private async podNodes(
    session: InvestigationSession,
    source: SourceBrief,
    subject: Subject,
    until: Timestamp,
  ): Promise<{ run: RecordedRun; of: Map<string, string> }> {
    const run = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: { query: `count by (pod, node) (kube_pod_info{${subjectPods(incidentNamespace(session), subject)}})`, time: until.toISOString() },
      purpose: `Which node each pod of ${subject.value} runs on`,
    });
    return { run, of: new Map(seriesOf(run).flatMap((s) => (s.metric.pod && s.metric.node ? [[s.metric.pod, s.metric.node] as [string, string]] : []))) };
  }

  private async nodesOf(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp): Promise<Subject[]> {
    const namespace = incidentNamespace(session);
    const pods =
      subject.label === 'pod'
        ? [namespace ? `namespace=${quote(namespace)}` : '', `pod=${quote(subject.value)}`].filter(Boolean).join(', ')
        : workloadPods(namespace, subject.value);
    const run = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: { query: `count by (node) (kube_pod_info{${pods}})`, time: until.toISOString() },
      purpose: `Which nodes ${subject.value} runs on`,
    });
    return [
      ...new Set(
        seriesOf(run)
          .map((s) => s.metric.node)
          .filter((n): n is string => !!n),
      ),
    ].map((value) => ({ label: 'node', value }));
  }

  private async listing(session: InvestigationSession, source: SourceBrief, subject: Subject, until: Timestamp): Promise<void> {
    const namespace = incidentNamespace(session);
    // A pod named ("which node is orders-6fb5cc5f8-rpc5b on?") is listed alone, with its workload's container.
    const onePod = subject.label === 'pod';
    const pods = onePod
      ? [namespace ? `namespace=${quote(namespace)}` : '', `pod=${quote(subject.value)}`].filter(Boolean).join(', ')
      : workloadPods(namespace, subject.value);
    const container = onePod ? workloadOfPod(subject.value) : subject.value;
    const workload = [namespace ? `namespace=${quote(namespace)}` : '', `deployment=${quote(container)}`].filter(Boolean).join(', ');
    const run = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: {
        query: `max by (namespace, pod, node) (kube_pod_info{${pods}}) or max by (namespace, pod, image) (kube_pod_container_info{${pods}, container=${quote(container)}}) or max by (pod, instance, version) ({__name__=~".+_build_info", ${subject.label}=${quote(subject.value)}}) or max by (deployment) (kube_deployment_spec_replicas{${workload}})`,
        time: until.toISOString(),
      },
      purpose: `Which pods of ${subject.value} run, on which nodes, and which version each runs`,
    });
    const rows = new Map<string, { node?: string; version?: string }>();
    let replicas: number | null = null;
    for (const s of seriesOf(run)) {
      if (s.metric.deployment) {
        if (!onePod) replicas = Number(s.value?.[1] ?? NaN);
        continue;
      }
      const pod = s.metric.pod ?? s.metric.instance;
      // orders-worker's pods are not orders': a pod named like a workload's replica belongs to that workload.
      if (!pod || (onePod ? pod !== subject.value : s.metric.pod && workloadOfPod(pod) !== pod && workloadOfPod(pod) !== subject.value)) continue;
      const row = rows.get(pod) ?? {};
      if (s.metric.node) row.node = s.metric.node;
      const version = s.metric.version ?? s.metric.image?.split(':').pop();
      if (version && !row.version) row.version = version;
      rows.set(pod, row);
    }
    const wanted = this.asked.versions;
    const matching = [...rows.entries()].filter(([, r]) => !wanted.length || wanted.some((v) => r.version?.replace(/^v/, '') === v));
    if (!rows.size) {
      if (replicas === 0)
        this.answer.record(session, `No pod of ${subject.value} runs at ${clock(until, until)}: Deployment ${subject.value} is scaled to 0 replicas`, run);
      else this.answer.cannot(`no kube_pod_info, kube_pod_container_info or build series names the pods of ${subject.value}, so where it runs is unknown`, run);
      return;
    }
    const versionWord = wanted.length ? ` run ${wanted.join(' or ')}` : '';
    const nodes = [...new Set(matching.map(([, r]) => r.node).filter((n): n is string => !!n))];
    const statement =
      onePod && matching.length === 1
        ? `Pod ${subject.value} runs${matching[0][1].version ? ` ${matching[0][1].version}` : ''} on node ${matching[0][1].node ?? 'unknown'} at ${clock(until, until)}`
        : !matching.length
          ? `No pod of ${subject.value}${versionWord} at ${clock(until, until)} (${rows.size} pod(s) run other versions: ${[...new Set([...rows.values()].map((r) => r.version ?? 'unknown'))].join(', ')})`
          : `${matching.length} pod(s) of ${subject.value}${versionWord} at ${clock(until, until)}${nodes.length ? `, on ${nodes.length} node(s): ${nodes.join(', ')}` : ''}`;
    // As `kubectl get pods` shows them: how often each pod's containers restarted, how they last ended and what they wait for.
    const status = matching.length ? await this.podStatus(session, source, pods, until) : null;
    const troubled = matching.filter(([pod]) => status?.pods.has(pod));
    const restarts = troubled.reduce((n, [pod]) => n + (status!.pods.get(pod)!.restarts ?? 0), 0);
    const endings = [...new Set(troubled.map(([pod]) => status!.pods.get(pod)!.terminated).filter((r): r is string => !!r))];
    const health = troubled.length
      ? `; ${troubled.length} of them restarted${troubled.length <= 3 ? `, ${troubled.map(([pod]) => pod).join(', ')}` : ''} (${restarts} restarts in all${endings.length ? `, last terminated: ${endings.join(', ')}` : ''})`
      : '';
    const table = matching.length
      ? [
          `| pod | node | version |${troubled.length ? ' restarts | last terminated | waiting |' : ''}`,
          `|---|---|---|${troubled.length ? '---|---|---|' : ''}`,
          ...matching.slice(0, MAX_ROWS).map(([pod, r]) => {
            const st = status?.pods.get(pod);
            const more = troubled.length ? ` ${st?.restarts ?? 0} | ${st?.terminated ?? '-'} | ${st?.waiting ?? '-'} |` : '';
            return `| ${pod} | ${r.node ?? 'unknown'} | ${r.version ?? 'unknown'} |${more}`;
          }),
        ].join('\n')
      : undefined;
    if (matching.length && this.asked.listings.includes('nodes') && !nodes.length)
      this.answer.cannot(`no kube_pod_info names the nodes of ${subject.value}'s pods, so their nodes are unknown`, run);
    this.answer.record(session, `${statement}${health}`, troubled.length ? [run, status!.run] : run, table);
  }

  /**
   * The restarts of each pod's containers, the reason they last terminated and the reason they wait (kube-state-metrics), of the pods
   * that restarted, terminated or wait.
   */
  private async podStatus(
    session: InvestigationSession,
    source: SourceBrief,
    pods: string,
    until: Timestamp,
  ): Promise<{ run: RecordedRun; pods: Map<string, { restarts?: number; terminated?: string; waiting?: string }> }> {
    const run = await session.runTool({
      tool: 'prometheus.query',
      integrationId: source.integrationId,
      arguments: {
        query: `sum by (pod) (kube_pod_container_status_restarts_total{${pods}}) > 0 or label_replace(max by (pod, reason) (kube_pod_container_status_last_terminated_reason{${pods}} == 1), "state", "terminated", "", "") or label_replace(max by (pod, reason) (kube_pod_container_status_waiting_reason{${pods}} == 1), "state", "waiting", "", "")`,
        time: until.toISOString(),
      },
      purpose: 'How often the containers of each pod restarted, how they last ended and what they wait for',
    });
    const status = new Map<string, { restarts?: number; terminated?: string; waiting?: string }>();
    for (const s of seriesOf(run)) {
      const pod = s.metric.pod;
      if (!pod) continue;
      const row = status.get(pod) ?? {};
      if (s.metric.state === 'terminated') row.terminated = s.metric.reason;
      else if (s.metric.state === 'waiting') row.waiting = s.metric.reason;
      else row.restarts = Math.round(Number(s.value?.[1] ?? 0));
      status.set(pod, row);
    }
    return { run, pods: status };
  }
}

/** A message's words, lowercased, without its punctuation and spacing. */
const normalised = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9./_-]+/g, ' ')
    .trim();

/**
 * Whether two messages ask the same question in other words: the same kind of question, of the
 * same subjects named, signals, listings, versions, routes, range, percentile and reference. A
 * question that names no subject and refers to an earlier one may be about another: never the same.
 */
function sameQuestion(a: TypedQuestion, b: TypedQuestion): boolean {
  const same = (x: readonly unknown[], y: readonly unknown[]): boolean =>
    x.length === y.length && [...x].map(String).sort().join() === [...y].map(String).sort().join();
  return (
    a.kind === b.kind &&
    a.kind !== 'unknown' &&
    a.words.length > 0 &&
    same(a.words, b.words) &&
    same(a.signals, b.signals) &&
    same(a.listings, b.listings) &&
    same(a.versions, b.versions) &&
    same(a.routes, b.routes) &&
    a.rangeMinutes === b.rangeMinutes &&
    a.percentile === b.percentile &&
    a.compare === b.compare &&
    a.byRoute === b.byRoute &&
    a.againstLimit === b.againstLimit &&
    (a.reference?.kind ?? null) === (b.reference?.kind ?? null)
  );
}

/** How an answer names its subject: its name, or the calls to what services call ("calls of payments to partner-bank"). */
const shownAs = (s: Subject): string => (s.label === 'peer' ? `calls${s.caller ? ` of ${s.caller}` : ''} to ${s.value}` : s.value);

/**
 * The subjects of a question about calls to something ("billing's calls to ledger", "cart's redis
 * calls"): what `callee` names, as a peer its callers' client-side series name, of the other
 * service named when there is one; the subjects as they are when `callee` names none of them.
 */
function callsTo(found: Subject[], callee: string): Subject[] {
  // What callers name as a peer first, an exporter's job last ("redis" is sessions-redis, not redis-exporter).
  const rank = (s: Subject): number => (s.label === 'peer' ? 0 : isExporter(s.value) ? 2 : 1);
  const called = found.filter((s) => whole(s, callee) || names(callee, s.value)).sort((a, b) => rank(a) - rank(b))[0];
  if (!called) return found;
  const caller = found.find((s) => s.value !== called.value && s.label !== 'peer' && s.label !== 'node' && !isExporter(s.value) && !names(callee, s.value));
  return [{ label: 'peer', value: called.value, ...(caller ? { caller: caller.value } : {}) }];
}

/** A turn that ends asking the person which subject they mean (`needs_input`), with why as a limitation citing the runs that listed the names. */
function asking(question: string, why: string, runs: number[]): Conclusion {
  return {
    question,
    conclusionStatus: 'inconclusive',
    summary: question,
    impact: { summary: 'Not assessed: the question does not name one subject the sources know', runRefs: runs },
    findings: [],
    hypotheses: [],
    actions: [],
    limitations: [{ type: 'scope', statement: why, runRefs: runs, messageSequences: [] }],
  };
}

const fmt = (v: number | null, unit: Unit): string => (v === null ? '-' : quantity(v, unit));

/** How a value moved from `before` to `after`: up or down by half again and by more than the unit's minimum move, else about the same. */
function direction(before: number, after: number, unit: Unit): 'up' | 'down' | 'about the same' {
  if (after >= before * MOVED && after - before > minimumMove(unit)) return 'up';
  if (before >= after * MOVED && before - after > minimumMove(unit)) return 'down';
  return 'about the same';
}

/** The time between two moments, in microseconds. */
const apart = (a: Timestamp, b: Timestamp): bigint => (a.epochMicros > b.epochMicros ? a.epochMicros - b.epochMicros : b.epochMicros - a.epochMicros);

/** The sample nearest `at`, or null when there is none. */
function nearestTo<P extends { t: Timestamp }>(points: P[], at: Timestamp): P | null {
  return points.reduce<P | null>((a, b) => (!a || apart(b.t, at) < apart(a.t, at) ? b : a), null);
}

/**
 * How a signal is now: "is 7.71% now (05:39 UTC)" when its latest sample is recent and the window
 * ends now, "was … at 05:39 UTC, the end of the window" for a window that ended earlier (a resolved
 * incident's), else "was … at 05:10 UTC, its latest sample".
 */
function current(last: { t: Timestamp; v: number }, until: Timestamp, unit: Unit): string {
  const v = quantity(last.v, unit);
  if (until.epochMicros - last.t.epochMicros > 2n * BigInt(STEP_SECONDS) * 1_000_000n) return `was ${v} at ${clock(last.t, until)}, its latest sample`;
  return Timestamp.now().epochMicros - until.epochMicros <= ENDS_NOW
    ? `is ${v} now (${clock(last.t, until)})`
    : `was ${v} at ${clock(last.t, until)}, the end of the window`;
}

/** A window that ends within this long of the present ends now. */
const ENDS_NOW = 5n * MINUTE;

/**
 * A question read with what the conversation said before it: a question that refers to earlier
 * turns ("when did they start?", "those pods", "the new version") and names no signal or version
 * of its own takes those of the last earlier message that named some, and "the new version" the
 * version an earlier answer said started (after an arrow, `3.2.1 → 3.3.0`).
 */
export function withContext(asked: TypedQuestion, conversation: InvestigationSession['conversation']): TypedQuestion {
  // "since what moment?" after a question names nothing of its own: it asks when what was asked about began.
  const bareWhen = asked.kind === 'when' && !asked.words.length && !asked.signals.length && !asked.versions.length;
  if (!conversation || !(asked.refers || asked.also || asked.calleeRefers || bareWhen)) return asked;
  const earlier = conversation.messages
    .filter((m) => m.role === 'user')
    .map((m) => parseQuestion(m.text))
    .reverse();
  // "orders' calls to it": what is called is what the conversation named last (what it called, else its subject).
  if (asked.calleeRefers) {
    const named = earlier.find((q) => q.callee || q.words.length);
    // ("cart's calls to it" after an answer that "sessions-redis answered slowly": what the answer opened with, not cart again.)
    const actor = /^([a-z][a-z0-9_.-]*[a-z0-9]) (?:answered|was|were|went|had|has|is|failed|returned|timed|ran|reached|expired)\b/.exec(
      conversation.turns?.at(-1)?.summary ?? '',
    )?.[1];
    const opened = actor && !asked.words.includes(actor) && !named?.callee ? actor : null;
    const callee = opened ?? named?.callee ?? named?.words[0] ?? null;
    if (callee) asked = { ...asked, callee, words: asked.words.includes(callee) ? asked.words : [...asked.words, callee] };
  }
  // "when did those start?" after a question about calls to something keeps what was called.
  if (asked.refers && !asked.callee && !asked.words.length) {
    const named = earlier.find((q) => q.callee || q.words.length);
    if (named?.callee) asked = { ...asked, callee: named.callee, words: named.words };
  }
  // A comparison that names no moment of its own keeps the one the conversation compared with last ("did errors rise as well?").
  const reference =
    asked.reference ?? (asked.compare && !asked.versions.length ? (earlier.find((q) => q.reference && !q.reference.at)?.reference ?? null) : null);
  if (!asked.refers && !bareWhen) return { ...asked, reference };
  // When something went out ("when did it roll out?", "when was 1.4.1 released?") is asked of no measure.
  // When an alert fired ("and when did QueueMessagesStale fire after that?") is asked of no measure either.
  const goesOut = asked.kind === 'when' && (asked.rollout || (asked.versions.length > 0 && asked.wentOut) || (!!asked.alertNamed && asked.fired));
  const signals =
    asked.signals.length || goesOut || (asked.kind !== 'when' && asked.kind !== 'signals')
      ? asked.signals
      : (earlier.find((q) => q.mentioned.length)?.mentioned ?? []);
  const versions = asked.versions.length
    ? asked.versions
    : (earlier.find((q) => q.versions.length)?.versions ??
      [...conversation.turns]
        .reverse()
        .map((t) => [...(t.summary ?? '').matchAll(NEW_VERSION)].map((m) => m[1]))
        .find((v) => v.length)
        ?.slice(0, 1) ??
      []);
  // "which pods are on that one?" after "what version does checkout run?": the one version that answer named, not a node it named.
  const latest = earlier[0];
  const versionAsked = latest && (latest.listings.includes('versions') || latest.aboutVersions);
  if (!versions.length && versionAsked && asked.kind === 'which' && asked.listings.includes('pods')) {
    const named = new Set([...(conversation.turns.at(-1)?.summary ?? '').matchAll(A_VERSION)].map((m) => m[1]));
    if (named.size === 1) return { ...asked, signals, versions: [...named], reference, onNode: false, refersNode: false };
  }
  return { ...asked, signals, versions, reference };
}

/** The first time an answer names ("16:55 UTC", "2026-11-30 16:55 UTC"), not a range's bounds, a minute or more before `until`; null when it names none. */
function timeNamed(text: string, until: Timestamp): Timestamp | null {
  const time = /(?:(\d{4}-\d\d-\d\d) )?(\d\d):(\d\d) UTC/g;
  for (const m of text.replace(new RegExp(`\\bfrom ${time.source} to ${time.source}`, 'g'), '').matchAll(time)) {
    const day = m[1] ?? until.toISOString().slice(0, 10);
    let at = Timestamp.parse(`${day}T${m[2]}:${m[3]}:00Z`);
    if (at && !m[1] && at.isAfter(until)) at = at.plusSeconds(-86_400);
    if (at && until.epochMicros - at.epochMicros >= MINUTE) return at;
  }
  return null;
}

/** The range a count or a share is read over, as the answer says it: since the moment named ("since the deploy (20:21 UTC)"), else from and to. */
function rangeSince(since: { at: Timestamp; what: string | null }, until: Timestamp): string {
  return since.what ? `since ${since.what} (${clock(since.at, until)})` : `from ${clock(since.at, until)} to ${clock(until, until)}`;
}

/** The last sample of a count read: the count over its whole range. */
function lastCount(read: SignalRead): number | undefined {
  return read.lines.flatMap((l) => l.points).at(-1)?.v;
}
