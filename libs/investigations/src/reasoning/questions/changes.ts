import { Timestamp } from '@svc/platform';
import { quote } from '../explainers/labels';
import { CHANGES_TOOL, describeChange, isObserved, RecordedChange, recordedChangesOf, senderIdOf } from '../recorded-changes';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { earliest, MINUTE, pointsOf, SeriesOut, seriesOf, shift } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock, quantity } from './format';
import { incidentNamespace } from './signal-reads';

/** How far before the incident's first alert a `changes` question looks when it names no range. */
const BEFORE_ALERT = 60n * MINUTE;
/** A rollout's own change (a version, a limit) within this long of a new generation says what the rollout changed. */
const SAME_ROLLOUT = 3n * MINUTE;
const MAX_ROWS = 12;
/** The changes "around then" are those from this long before the moment an earlier answer named… */
const AROUND_BEFORE = 30n * MINUTE;
/** …to this long after it. */
const AROUND_AFTER = 10n * MINUTE;
/** Samples a series over the range read. */
const POINTS = 300;

/** One change seen in the metrics. */
interface Change {
  at: Timestamp;
  /** The workload, ConfigMap or program it changed. */
  of: string;
  what: string;
  /** For a rollout (a new version or image, a new generation): what rolled out, without the kind of change ("frontend 5.2.0 → 5.2.1"). */
  rolled?: string;
  run: RecordedRun;
  /** A second run what it says reads from (the build a workload's new pods still run). */
  also?: RecordedRun;
  /** A new generation, said only when nothing else says what the rollout changed. */
  generation?: boolean;
}

/**
 * What changed before and during the incident, from the metrics that show changes: a new version
 * of a program (its build series) or a new image of a container (kube-state-metrics), a new
 * rollout or a scaling of a Deployment or StatefulSet, an edit of a ConfigMap or Secret, and new
 * pods with other resource limits than the ones they replace. Read in the incident's namespace,
 * from an hour before its first alert (or over the range asked) to now; each change with its
 * time, listed in order with the run that shows it.
 */
export async function answerChanges(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  asked: { minutes: number | null; around?: Timestamp },
): Promise<void> {
  const now = session.window.until;
  const firstAlert = earliest(session.alerts.map((a) => a.startsAt)) ?? now;
  // Around a moment an earlier answer named: from AROUND_BEFORE before it to AROUND_AFTER after it.
  const around = asked.around;
  const until = around && shift(around, AROUND_AFTER).isBefore(now) ? shift(around, AROUND_AFTER) : now;
  const wanted = around ? shift(around, -AROUND_BEFORE) : asked.minutes ? shift(now, -BigInt(asked.minutes) * MINUTE) : shift(firstAlert, -BEFORE_ALERT);
  const from = wanted.isAfter(session.window.from) ? wanted : session.window.from;
  const namespace = incidentNamespace(session);
  const ns = namespace ? `namespace=${quote(namespace)}` : '';
  const inNs = (extra: string): string => `{${[extra, ns].filter(Boolean).join(', ')}}`;
  // About POINTS samples a series: a change is dated to a few seconds in a short range, to a minute in a long one.
  const step = Math.max(1, Math.ceil(Number(until.epochMicros - from.epochMicros) / 1e6 / POINTS));
  const read = (query: string, purpose: string): Promise<RecordedRun> =>
    session.runTool({
      tool: 'prometheus.query_range',
      integrationId: source.integrationId,
      arguments: { query, start: from.toISOString(), end: until.toISOString(), step },
      purpose,
    });
  const versions = await read(
    `max by (__name__, job, version) (${inNs('__name__=~".+_build_info"')}) or max by (__name__, container, image) (kube_pod_container_info${inNs('')})`,
    'Which versions and images started',
  );
  const workloads = await read(
    `max by (__name__, deployment, statefulset) (${inNs('__name__=~"kube_deployment_metadata_generation|kube_deployment_spec_replicas|kube_statefulset_metadata_generation|kube_statefulset_replicas"')}) or max by (__name__, configmap, secret) (${inNs('__name__=~"kube_configmap_metadata_resource_version|kube_secret_metadata_resource_version"')})`,
    'Which Deployments rolled out or scaled, and which ConfigMaps and Secrets were edited',
  );
  const limits = await read(
    `max by (container, resource, pod) (kube_pod_container_resource_limits${inNs('')})`,
    'Which new pods run with other resource limits',
  );
  // What deploy and configuration tools reported over the same range, when some change was recorded around the window.
  const reported = await readReported(session, from, until, [], 'Which changes deploy and configuration tools reported over the range');
  const runs = [versions, workloads, limits];
  // New pods with other limits of a workload whose build stayed the same over the range: the version they still run is said ("did you deploy something? the version still says 0.9.4").
  const builds = (workload: string): string[] => [
    ...new Set(
      seriesOf(versions)
        .filter((s) => s.metric.job === workload && s.metric.version)
        .map((s) => s.metric.version),
    ),
  ];
  const sameBuild = (c: Change): Change => {
    const built = builds(c.of);
    return built.length === 1 ? { ...c, what: c.what.replace(/\(new pods\)$/, `(new pods, still version ${built[0]})`), also: versions } : c;
  };
  const changes = [
    ...newVersions(versions, from, step),
    ...workloadChanges(workloads),
    ...limitChanges(limits, from, step).map(sameBuild),
    ...reportedChanges(reported),
  ];
  // A new generation is a rollout: said only when no version or limit change of the same workload says what it changed.
  const said = changes.filter(
    (c) =>
      !c.generation ||
      !changes.some(
        (o) =>
          !o.generation &&
          o.of === c.of &&
          (o.at.epochMicros > c.at.epochMicros ? o.at.epochMicros - c.at.epochMicros : c.at.epochMicros - o.at.epochMicros) <= SAME_ROLLOUT,
      ),
  );
  const where = namespace ? ` in namespace ${namespace}` : '';
  const range = `from ${clock(from, now)} to ${clock(until, now)}`;
  if (!runs.some((r) => seriesOf(r).length) && !recordedChangesOf(reported ?? undefined).length) {
    answer.cannot(
      `no build series and no kube-state-metrics series of Deployments, ConfigMaps or pods${where} ${range}, so what changed cannot be seen in the metrics`,
      runs,
    );
    return;
  }
  if (!said.length) {
    answer.record(
      session,
      `Nothing changed${where} ${range}: no new version or image, rollout, scaling, ConfigMap or Secret edit, or resource limit${reported ? ', and no change reported' : ''}`,
      [...runs, reported],
    );
    return;
  }
  // In time order; within one step, an edit before the rollout it starts, and a rollout before its scaling.
  said.sort((a, b) => (a.at.epochMicros === b.at.epochMicros ? rank(a) - rank(b) : a.at.isAfter(b.at) ? 1 : -1));
  const shown = said.slice(-MAX_ROWS);
  const relative = (t: Timestamp): string => {
    const minutes = Math.round(Number(firstAlert.epochMicros - t.epochMicros) / 60e6);
    return minutes > 0 ? `${minutes} min before` : minutes < 0 ? `${-minutes} min after` : 'at the same minute';
  };
  // The runs each change reads from: its own, and the build run a limit change's "still version …" reads.
  const runsOf = (c: Change): RecordedRun[] => (c.also ? [c.run, c.also] : [c.run]);
  const table = [
    '| time | change | first alert | run |',
    '|---|---|---|---|',
    ...shown.map(
      (c) =>
        `| ${clock(c.at, now)} | ${c.what} | ${relative(c.at)} | ${runsOf(c)
          .map((r) => `#${r.ordinal}`)
          .join(', ')} |`,
    ),
  ].join('\n');
  const latest = said.filter((c) => !c.at.isAfter(firstAlert)).pop();
  answer.record(
    session,
    // The change nearest before the first alert leads, at its time; then how many there were in the range.
    `${latest ? `The last change before the first alert: ${latest.what}, at ${clock(latest.at, now)} (${relative(latest.at).replace(/minute$/, 'minute as')} the first alert, at ${clock(firstAlert, now)}); ` : ''}${said.length} change${said.length === 1 ? '' : 's'}${where} ${range}${said.length > shown.length ? ` (the latest ${shown.length} listed)` : ''}`,
    [...new Set(shown.flatMap(runsOf))],
    table,
  );
}

/**
 * When `workload` last rolled out between `from` and `until`: a new version of its program or a
 * new image of its container, else a new generation of its Deployment or StatefulSet; null when
 * it did not roll out then. One run, cited.
 */
export async function lastRollout(
  session: InvestigationSession,
  source: SourceBrief,
  workload: string,
  from: Timestamp,
  until: Timestamp,
): Promise<{ at: Timestamp; what: string; run: RecordedRun; reported?: boolean } | { none: RecordedRun }> {
  const step = Math.max(1, Math.ceil(Number(until.epochMicros - from.epochMicros) / 1e6 / POINTS));
  const name = quote(workload);
  const run = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: source.integrationId,
    arguments: {
      query: `max by (__name__, job, version) ({__name__=~".+_build_info", job=${name}}) or max by (__name__, container, image) (kube_pod_container_info{container=${name}}) or max by (__name__, deployment, statefulset) ({__name__=~"kube_deployment_metadata_generation|kube_statefulset_metadata_generation", deployment=${name}} or {__name__="kube_statefulset_metadata_generation", statefulset=${name}})`,
      start: from.toISOString(),
      end: until.toISOString(),
      step,
    },
    purpose: `When ${workload} last rolled out`,
  });
  const versions = newVersions(run, from, step);
  const rollouts = versions.length ? versions : workloadChanges(run).filter((c) => c.generation);
  const last = rollouts.sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1)).pop();
  if (last) return { at: last.at, what: last.rolled ?? last.what, run };
  // A deploy the metrics do not show (static assets, a build of the same version) is known from its report.
  const deploy = await reportedDeploy(session, from, until, workload, (c) => c.service === workload);
  return deploy ? { ...deploy, reported: true } : { none: run };
}

/** The changes deploy and configuration tools reported from `from` to `until` (of `services`, else all); null with no changes integration. */
async function readReported(
  session: InvestigationSession,
  from: Timestamp,
  until: Timestamp,
  services: string[],
  purpose: string,
): Promise<RecordedRun | null> {
  if (!session.tools.some((t) => t.name === CHANGES_TOOL)) return null;
  return session.runTool({
    tool: CHANGES_TOOL,
    integrationId: null,
    arguments: {
      onset: until.toISOString(),
      beforeMinutes: Math.min(1440, Math.max(1, Math.ceil(Number(until.epochMicros - from.epochMicros) / 60e6))),
      afterMinutes: 0,
      services,
    },
    purpose,
  });
}

/**
 * The names the changes deploy and configuration tools reported over the conversation's window give
 * (their ids, services, authors and the words of their summaries): "ci-bot" and "statements-static"
 * are names a report knows, not names to ask about. Empty with no changes integration.
 */
export async function reportedNames(session: InvestigationSession): Promise<Set<string>> {
  const run = await readReported(session, session.window.from, session.window.until, [], 'Which names the reported changes give');
  const names = new Set<string>();
  for (const c of recordedChangesOf(run ?? undefined))
    for (const text of [senderIdOf(c), c.service, c.author, c.summary]) for (const w of (text ?? '').toLowerCase().split(/[^a-z0-9_.-]+/)) if (w) names.add(w);
  return names;
}

/** What a reported change changed from and to, when the report says ("timeout=2s → timeout=150ms"); empty when it does not. */
const fromTo = (c: RecordedChange): string => (c.versionBefore || c.versionAfter ? `${c.versionBefore ?? '?'} → ${c.versionAfter ?? '?'}` : '');

/** A change's id as deploy and configuration tools give it ("cfg-8841", "deploy-3301", "chg-12"): letters, a dash, digits. */
export const CHANGE_ID = /^[a-z][a-z0-9]*-\d+$/;

/**
 * When the changes a question names by their ids ("when was cfg-8841 applied?") were reported, read
 * from the changes deploy and configuration tools reported over the conversation's window; false
 * when no changes integration reports one of them (the ids are then names like any other).
 */
export async function answerNamedChanges(session: InvestigationSession, answer: AnswerWriter, ids: string[]): Promise<boolean> {
  const now = session.window.until;
  const run = await readReported(session, session.window.from, now, [], `Which change ${ids.join(', ')} ${ids.length === 1 ? 'is' : 'are'}`);
  const named = recordedChangesOf(run ?? undefined).filter((c) => ids.includes(senderIdOf(c)?.toLowerCase() ?? ''));
  if (!run || !named.length) return false;
  for (const c of named) {
    const at = Timestamp.parse(c.occurredAt);
    const what = describeChange(c);
    const versions = fromTo(c) ? ` (${fromTo(c)})` : '';
    answer.record(session, `${what[0].toUpperCase()}${what.slice(1)}${versions} was reported ${at ? `at ${clock(at, now)}` : 'without a time'}`, [run]);
  }
  return true;
}

/**
 * The latest deploy that deploy tools reported between `from` and `until` that `matches` accepts (of
 * `service`, or naming a version), with the run that read it; null with no changes integration
 * or no such report.
 */
export async function reportedDeploy(
  session: InvestigationSession,
  from: Timestamp,
  until: Timestamp,
  service: string | null,
  matches: (c: RecordedChange) => boolean,
  /** Any change reported (a configuration change too), not only deploys. */
  anyKind = false,
): Promise<{ at: Timestamp; what: string; run: RecordedRun } | null> {
  const what = anyKind ? 'changes' : 'deploys';
  const reported = await readReported(session, from, until, service ? [service] : [], `Which ${what}${service ? ` of ${service}` : ''} were reported`);
  if (!reported) return null;
  const deploy = recordedChangesOf(reported)
    .filter((c) => !isObserved(c) && (anyKind || c.kind === 'deploy') && matches(c))
    .flatMap((c) => {
      const at = Timestamp.parse(c.occurredAt);
      return at && !at.isBefore(from) && !at.isAfter(until) ? [{ at, what: describeChange(c) }] : [];
    })
    .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1))
    .pop();
  return deploy ? { ...deploy, run: reported } : null;
}

/**
 * The changes deploy and configuration tools reported (changes.near_onset), each as it names
 * itself, with its author; not those the service recorded from the metrics (a rollout the
 * metrics show is listed from them).
 */
function reportedChanges(run: RecordedRun | null): Change[] {
  return recordedChangesOf(run ?? undefined)
    .filter((c) => !isObserved(c))
    .flatMap((c) => {
      const at = Timestamp.parse(c.occurredAt);
      const what = describeChange(c);
      // What it changed from and to, when the report says ("timeout=2s → timeout=150ms").
      const versions = fromTo(c) ? `, ${fromTo(c)}` : '';
      return at ? [{ at, of: c.service ?? '', what: `Reported: ${what[0].toUpperCase()}${what.slice(1)} (${c.source}${versions})`, run: run! }] : [];
    });
}

/** The order of changes seen within the same step: edits, then what rolled out, then scalings. */
const rank = (c: Change): number => (/^(ConfigMap|Secret) /.test(c.what) ? 0 : / scaled from /.test(c.what) ? 2 : 1);

const firstAt = (s: SeriesOut): Timestamp | undefined => pointsOf(s)[0]?.t;

/** A build series or image that began after the range began, replacing another of the same program that ran before it. */
function newVersions(run: RecordedRun, from: Timestamp, step: number): Change[] {
  const startedLate = (t: Timestamp): boolean => t.epochMicros > from.epochMicros + BigInt(step) * 1_000_000n;
  const programOf = (m: Record<string, string>): string | undefined => (m.__name__ === 'kube_pod_container_info' ? m.container : m.job);
  const versionOf = (m: Record<string, string>): string | undefined =>
    m.__name__ === 'kube_pod_container_info' ? (m.image?.includes(':') ? m.image.split(':').pop() : m.image) : m.version;
  const series = seriesOf(run)
    .map((s) => ({ m: s.metric, at: firstAt(s) }))
    .filter((x): x is { m: Record<string, string>; at: Timestamp } => !!x.at && !!programOf(x.m) && !!versionOf(x.m));
  const found: Change[] = [];
  for (const next of series.filter((x) => startedLate(x.at))) {
    const before = series
      .filter((o) => o.m.__name__ === next.m.__name__ && programOf(o.m) === programOf(next.m) && versionOf(o.m) !== versionOf(next.m) && o.at.isBefore(next.at))
      .sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1))[0];
    if (!before) continue;
    // A range query sees a new series at the first step after it began.
    const rolled = `${programOf(next.m)} ${versionOf(before.m)} → ${versionOf(next.m)}`;
    found.push({
      at: next.at,
      of: programOf(next.m)!,
      what: `${rolled} (a new ${next.m.__name__ === 'kube_pod_container_info' ? 'image' : 'version'})`,
      rolled,
      run,
    });
  }
  // A program's own build series names its version best; its image says the same change again.
  return found.filter((c) => !(c.what.endsWith('(a new image)') && found.some((o) => o !== c && o.of === c.of && o.what.endsWith('(a new version)'))));
}

/** Rollouts (a new generation), scalings and edits: every step where such a series' value changed. */
function workloadChanges(run: RecordedRun): Change[] {
  const found: Change[] = [];
  for (const s of seriesOf(run)) {
    const m = s.metric;
    const points = pointsOf(s);
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1].v, points[i].v];
      if (a === b) continue;
      const at = points[i].t;
      const workload = m.deployment ?? m.statefulset;
      const kind = m.deployment ? 'Deployment' : 'StatefulSet';
      if (/_generation$/.test(m.__name__ ?? '') && workload)
        found.push({
          at,
          of: workload,
          what: `${kind} ${workload} rolled out (generation ${a} → ${b})`,
          rolled: `${kind} ${workload} (generation ${a} → ${b})`,
          run,
          generation: true,
        });
      else if (/_replicas$/.test(m.__name__ ?? '') && workload)
        found.push({ at, of: workload, what: `${kind} ${workload} scaled from ${a} to ${b} replicas`, run });
      else if (m.configmap) found.push({ at, of: m.configmap, what: `ConfigMap ${m.configmap} edited`, run });
      else if (m.secret) found.push({ at, of: m.secret, what: `Secret ${m.secret} edited`, run });
    }
  }
  return found;
}

/** New pods of a container whose resource limit differs from the one the pods before them ran with. */
function limitChanges(run: RecordedRun, from: Timestamp, step: number): Change[] {
  const groups = new Map<string, Array<{ at: Timestamp; v: number; container: string; resource: string }>>();
  for (const s of seriesOf(run)) {
    const points = pointsOf(s);
    const { container, resource } = s.metric;
    if (!points.length || !container || !resource) continue;
    const key = `${container}\u0000${resource}`;
    groups.set(key, [...(groups.get(key) ?? []), { at: points[0].t, v: points[0].v, container, resource }]);
  }
  const found: Change[] = [];
  for (const pods of groups.values()) {
    pods.sort((a, b) => (a.at.isAfter(b.at) ? 1 : -1));
    const first = pods.find((p) => p.at.epochMicros > from.epochMicros + BigInt(step) * 1_000_000n && p.v !== pods[0].v && !pods[0].at.isAfter(from));
    if (!first) continue;
    const name = first.resource === 'cpu' ? 'CPU limit' : first.resource === 'memory' ? 'memory limit' : `${first.resource} limit`;
    const value = (v: number): string => (first.resource === 'cpu' ? quantity(v, 'cores') : first.resource === 'memory' ? quantity(v, 'bytes') : String(v));
    found.push({ at: first.at, of: first.container, what: `${first.container}'s ${name} ${value(pods[0].v)} → ${value(first.v)} (new pods)`, run });
  }
  return found;
}

/**
 * When a ConfigMap or Secret named was edited ("at what time did someone edit cart-config?"): each change
 * of its resource version (kube-state-metrics) over the window, the latest first, with when the
 * incident's first alert fired for comparison.
 */
export async function answerEdits(
  session: InvestigationSession,
  source: SourceBrief,
  answer: AnswerWriter,
  object: { label: 'configmap' | 'secret'; value: string },
): Promise<void> {
  const until = session.window.until;
  const from = session.window.from;
  const kind = object.label === 'configmap' ? 'ConfigMap' : 'Secret';
  const step = Math.max(15, Math.ceil(Number(until.epochMicros - from.epochMicros) / 1e6 / POINTS));
  const namespace = incidentNamespace(session);
  const run = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: source.integrationId,
    arguments: {
      query: `max(kube_${object.label}_metadata_resource_version{${object.label}=${quote(object.value)}${namespace ? `, namespace=${quote(namespace)}` : ''}})`,
      start: from.toISOString(),
      end: until.toISOString(),
      step,
    },
    purpose: `When ${kind} ${object.value} was edited (its resource version)`,
  });
  const points = seriesOf(run).flatMap((s) => pointsOf(s));
  if (!points.length) {
    answer.cannot(
      `no resource version of ${kind} ${object.value} was read from ${clock(from, until)} to ${clock(until, until)}, so when it was edited is unknown`,
      run,
    );
    return;
  }
  const edits = points.filter((p, i) => i > 0 && p.v !== points[i - 1].v).map((p) => p.t);
  const firstAlert = earliest(session.alerts.map((a) => a.startsAt));
  const relative = (t: Timestamp): string => {
    if (!firstAlert) return '';
    const minutes = Math.round(Number(firstAlert.epochMicros - t.epochMicros) / 60e6);
    return minutes > 0
      ? `, ${minutes} min before the first alert`
      : minutes < 0
        ? `, ${-minutes} min after the first alert`
        : ', the minute of the first alert';
  };
  if (!edits.length) {
    answer.record(
      session,
      `${kind} ${object.value} was not edited from ${clock(from, until)} to ${clock(until, until)}: its resource version did not change`,
      run,
    );
    return;
  }
  const latest = edits[edits.length - 1];
  answer.record(
    session,
    `${kind} ${object.value} was ${edits.length > 1 ? 'last ' : ''}edited at ${clock(latest, until)}${relative(latest)} (its resource version changed)` +
      (edits.length > 1
        ? `; ${edits.length - 1} earlier edit(s) from ${clock(from, until)}: ${edits
            .slice(0, -1)
            .map((t) => clock(t, until))
            .join(', ')}`
        : ''),
    run,
  );
}
