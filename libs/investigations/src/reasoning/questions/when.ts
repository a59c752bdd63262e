import { Timestamp } from '@svc/platform';
import { alertsOwnSeries, episodeStart } from '../onset';
import { changeOf, median, Point } from '../ranking/change-points';
import type { InvestigationSession, RecordedRun, SourceBrief } from '../reasoner';
import { earliest, MINUTE, pointsOf, seriesOf, shift } from '../series-reading';
import type { AnswerWriter } from './answer';
import { clock, quantity, Unit } from './format';
import type { Signal } from './parse';
import { readSignals, SignalRead, STEP_SECONDS, Subject } from './signal-reads';

/** How far back a `when` question reads from the incident's first alert: enough for a usual level before it. */
const LOOKBACK = 90n * MINUTE;
/** The samples up to this long before the first alert are the usual level (a fault begins minutes before it pages). */
const BASELINE_BEFORE_ALERT = 20n * MINUTE;
/** The change that paged holds this long after the first alert. */
const HELD_AFTER_ALERT = 5n * MINUTE;

/** The smallest difference that counts as a change, by unit: half a request a second, a point of errors, 20 ms, a twentieth of a core, 16 MiB, one. */
export function minimumMove(unit: Unit): number {
  return { rps: 0.5, ratio: 0.01, seconds: 0.02, cores: 0.05, bytes: 16 * 1024 * 1024, count: 0.5 }[unit];
}

/** The measure an alert's name says it watches ("CheckoutHighErrorRate": errors; "SearchLatencyHigh": latency), else null. */
function measureOfAlert(alertname: string | undefined): Signal | null {
  if (!alertname) return null;
  const words = alertname.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  if (/\b(errors?|5xx|failures?|failing)\b/.test(words)) return 'errors';
  if (/\b(latency|slow|duration)\b/.test(words)) return 'latency';
  return null;
}

/** What a `when` question needs of its turn. */
export interface WhenQuestion {
  session: InvestigationSession;
  source: SourceBrief;
  answer: AnswerWriter;
  /** The signal asked about, or null for the incident's own condition. */
  signal: Signal | null;
  percentile: number | null;
  /** Whether it asks whether it still holds ("is it still failing?"): the answer says how it is now first. */
  still?: boolean;
  /** Whether it asks the latest of counted events ("when was the latest one?"): the answer leads with the last. */
  latest?: boolean;
  /** Whether it asks when a gradual rise began ("when did memory start climbing?"): the start of the climb, not of its steepest step. */
  trend?: boolean;
  /** Whether it asks about what probes the subject (see readSignals' `probe`). */
  probe?: boolean;
  /** Whether it asks when an alert fired ("what time did CheckoutHighErrorRate fire?"): the answer leads with that. */
  fired?: boolean;
  /** The alert the question names, when it names one ("when did CPUThrottlingHigh start?"); else the incident's. */
  alert?: string | null;
}

/**
 * When something started and whether it still holds. With a signal named ("when did the errors
 * start?", "is it still slow?", "since when is inventory down?"), the subject's signal is read
 * from well before the incident's first alert to now, and its change from its usual level dated
 * (see changeOf): when it began, the level before and reached, and whether it still holds now or
 * when it went back. With none named, the incident's alerting rule is read: when its condition
 * began to hold in the episode that paged, and whether it still holds.
 */
export async function answerWhen(q: WhenQuestion, subject: Subject | null): Promise<void> {
  const { session, answer } = q;
  const until = session.window.until;
  const firstAlert = earliest(session.alerts.map((a) => a.startsAt)) ?? until;
  if (!q.signal || !subject) {
    // "when did this begin?" of the incident: when the measure its alert watches began to move, then when the alert's condition held.
    // ("Is it still happening?" asks whether the condition holds now, and when it fired asks that alone.)
    const measured =
      !q.signal && !q.alert && !q.fired && !q.still && subject ? measureOfAlert(session.alerts.map((a) => a.labels.alertname).find((n) => !!n)) : null;
    if (measured && subject) {
      const read = await readChange(q, measured, subject);
      if (!('cannot' in read) && read.change)
        answer.record(
          session,
          `The ${read.read.name} of ${subject.value} ${read.change.after >= read.change.before ? 'rose' : 'fell'} from ${quantity(read.change.before, read.read.unit)} to ${quantity(read.change.after, read.read.unit)} at ${clock(Timestamp.fromEpochMicros(read.change.at), until)}`,
          read.runs,
        );
    }
    await conditionEpisode(q, lookbackFrom(session, firstAlert), until, firstAlert);
    return;
  }
  const read = await readChange(q, q.signal, subject);
  if ('cannot' in read) {
    answer.cannot(read.cannot, read.runs);
    return;
  }
  const { from, points, usual, change, runs: cited } = read;
  const of = `The ${read.read.name} of ${subject.value}`;
  const unit = read.read.unit;
  if (!change) {
    answer.record(
      session,
      `${of} did not move from its usual level${usual.length ? ` (about ${quantity(median(usual), unit)})` : ''} between ${clock(from, until)} and ${clock(until, until)}`,
      cited,
    );
    return;
  }
  const began = clock(Timestamp.fromEpochMicros(change.at), until);
  // Whether it still holds: the last sample counts an event, or is out of the usual level by half the move at least.
  const out = (p: Point): boolean =>
    change.events ? p.v >= minimumMove('count') : Math.abs(p.v - change.before) >= Math.abs(change.after - change.before) / 2;
  const last = points[points.length - 1];
  const step = BigInt(STEP_SECONDS) * 1_000_000n;
  const holds = out(last) && until.epochMicros - last.t <= 2n * step;
  const lastOut = [...points].reverse().find(out) ?? last;
  const back = points.find((p) => p.t > lastOut.t);
  const at = (t: bigint): string => clock(Timestamp.fromEpochMicros(t), until);
  if (change.events) {
    // What went down: its scrape targets, or what probes it (probe_success targets).
    const targets = read.read.name.replace(/^number of /, '').replace(/ down$/, '');
    const [what, still, none] =
      q.signal === 'down'
        ? [`The ${targets} of ${subject.value} went down at ${began} (as many as ${count(change.after)} at once)`, 'are still down', 'have been up']
        : [
            `The containers of ${subject.value} began restarting at ${began} (as many as ${count(change.after)} restarts in 5 minutes)`,
            'still restart',
            'have not restarted',
          ];
    // The latest event asked for leads: when the count last rose (a window counts an event from the sample it happened before), then when they began.
    if (q.latest) {
      const rose = points.filter((p, i) => i > 0 && p.v - points[i - 1].v >= minimumMove('count')).at(-1) ?? lastOut;
      const latest = `The latest ${q.signal === 'down' ? `of the ${targets} of ${subject.value} to go down` : `restart of ${subject.value}'s containers`} was at ${at(rose.t)}`;
      answer.record(
        session,
        `${latest}${holds ? `, ${still === 'still restart' ? 'and they still restart' : `and they ${still}`}` : ''}; the first at ${began}`,
        cited,
      );
      return;
    }
    answer.record(
      session,
      holds
        ? `${what}, and ${still} at ${at(last.t)} (${q.signal === 'down' ? `${count(last.v)} down` : `${count(last.v)} restart${count(last.v) === '1' ? '' : 's'} in the last 5 minutes`})`
        : `${what}; the last at ${at(lastOut.t)}, and they ${none} since`,
      cited,
    );
    return;
  }
  const moved = `${change.after >= change.before ? 'rose' : 'fell'} from ${quantity(change.before, unit)} to ${quantity(change.after, unit)} at ${began}`;
  answer.record(
    session,
    holds
      ? q.still
        ? `${of} is still at ${quantity(last.v, unit)} at ${at(last.t)}; it ${moved}`
        : `${of} ${moved}, and is still at ${quantity(last.v, unit)} at ${at(last.t)}`
      : `${of} ${moved}${back ? `, and went back to ${quantity(back.v, unit)} at ${at(back.t)}` : ''}; it no longer holds at ${clock(until, until)}`,
    cited,
  );
}

/** Where a `when` question reads from: LOOKBACK before the first alert, within the session's window. */
function lookbackFrom(session: InvestigationSession, firstAlert: Timestamp): Timestamp {
  const lookback = shift(firstAlert, -LOOKBACK);
  return lookback.isAfter(session.window.from) ? lookback : session.window.from;
}

/** A signal of a subject read from well before the incident, with its change from the usual level dated (null when it did not move). */
interface ReadChange {
  read: SignalRead;
  runs: Array<RecordedRun | undefined>;
  from: Timestamp;
  points: Point[];
  usual: number[];
  change: Dated | null;
}

/**
 * Reads `signal` of `subject` from LOOKBACK before the incident's first alert to now and dates
 * its change from its usual level (the samples up to BASELINE_BEFORE_ALERT before that alert):
 * counted events from their first, a level from where it moved to the level that held when the
 * alert fired (else that holds now). What cannot be read is said with the runs that showed it.
 */
async function readChange(
  q: Pick<WhenQuestion, 'session' | 'source' | 'percentile' | 'trend' | 'probe'>,
  signal: Signal,
  subject: Subject,
): Promise<ReadChange | { cannot: string; runs: Array<RecordedRun | null | undefined> }> {
  const { session } = q;
  const until = session.window.until;
  const firstAlert = earliest(session.alerts.map((a) => a.startsAt)) ?? until;
  const from = lookbackFrom(session, firstAlert);
  const [read] = await readSignals(session, q.source, subject, [signal], { from, until, byRoute: false, percentile: q.percentile, probe: q.probe });
  if ('cannot' in read) return { cannot: read.cannot, runs: [read.run] };
  const runs = [read.run, read.also];
  const line = read.lines.find((l) => l.points.length);
  if (!line) return { cannot: `no series for the ${read.name} of ${subject.value} from ${clock(from, until)} to ${clock(until, until)}`, runs };
  const points: Point[] = line.points.map((p) => ({ t: p.t.epochMicros, v: p.v }));
  const baselineUntil = shift(firstAlert, -BASELINE_BEFORE_ALERT).epochMicros;
  const usual = points.filter((p) => p.t < baselineUntil).map((p) => p.v);
  const change =
    events(signal, points, baselineUntil, usual) ??
    // A climb is a resource's (a leak, a disk, a pool filling); traffic, errors and latency that ramp change level.
    (q.trend && (signal === 'memory' || signal === 'disk' || signal === 'connections' || signal === 'queue' || signal === 'cpu')
      ? climbStart(points, read.unit)
      : null) ??
    levelChange(signal, points, baselineUntil, firstAlert, until, read.unit);
  return { read, runs, from, points, usual, change };
}

/**
 * When the change of `signal` of `subject` began (see readChange), with the runs that show it;
 * what cannot be read, or that it did not move, as the reason there is no such moment.
 */
export async function changeStart(
  q: Pick<WhenQuestion, 'session' | 'source' | 'percentile'>,
  signal: Signal,
  subject: Subject,
): Promise<{ at: Timestamp; name: string; runs: Array<RecordedRun | undefined> } | { cannot: string; runs: Array<RecordedRun | null | undefined> }> {
  const read = await readChange(q, signal, subject);
  if ('cannot' in read) return read;
  if (!read.change)
    return {
      cannot: `the ${read.read.name} of ${subject.value} did not move from its usual level, so there is no start of a change to compare with`,
      runs: read.runs,
    };
  return { at: Timestamp.fromEpochMicros(read.change.at), name: read.read.name, runs: read.runs };
}

/** A dated change from a usual level: when it began, the level before and the level reached. */
interface Dated {
  at: bigint;
  before: number;
  after: number;
  /** Counted events (restarts, targets down): `after` is the most counted at once. */
  events?: boolean;
}

/**
 * Events counted per window (restarts, targets down) are quiet as usual: they began with the first
 * window after the usual samples that counts one. Null for other signals, or when they were not quiet before.
 */
function events(signal: Signal, points: Point[], baselineUntil: bigint, usual: number[]): Dated | null {
  if (signal !== 'restarts' && signal !== 'down') return null;
  if (usual.length < 5 || median(usual) >= minimumMove('count')) return null;
  const later = points.filter((p) => p.t >= baselineUntil);
  const first = later.find((p) => p.v >= minimumMove('count'));
  if (!first) return null;
  return { at: first.t, before: median(usual), after: Math.max(...later.filter((p) => p.t >= first.t).map((p) => p.v)), events: true };
}

/** The samples a gradual rise is told from: the earliest of the range, before anything moved. */
const EARLY_SAMPLES = 15;

/**
 * When a gradual rise began (a leak that climbs for an hour before anything pages): the level of
 * the earliest samples, the first sample (of a five-sample median) that stays clear of it for five
 * samples, then back along the climb to where it left that level. Null when it never rose.
 */
function climbStart(points: Point[], unit: Unit): Dated | null {
  if (points.length < EARLY_SAMPLES * 2) return null;
  const smooth = points.map((_, i) => median(points.slice(Math.max(0, i - 2), i + 3).map((p) => p.v)));
  const early = smooth.slice(0, EARLY_SAMPLES);
  const base = median(early);
  const spread = median(early.map((v) => Math.abs(v - base)));
  const clear = Math.max(minimumMove(unit), 4 * spread, 0.05 * Math.abs(base));
  const above = smooth.findIndex(
    (v, i) => i >= EARLY_SAMPLES && smooth.slice(i, i + 5).length === 5 && smooth.slice(i, i + 5).every((x) => x > base + clear / 2) && v > base + clear,
  );
  if (above < 0) return null;
  let start = above;
  while (start > EARLY_SAMPLES && smooth[start - 1] < smooth[start] && smooth[start - 1] > base + clear / 4) start--;
  return { at: points[start].t, before: base, after: Math.max(...points.slice(start).map((p) => p.v)) };
}

/** A level that moved: the change that held when the incident's first alert fired, else the one that holds now (see changeOf). */
function levelChange(signal: Signal, points: Point[], baselineUntil: bigint, firstAlert: Timestamp, until: Timestamp, unit: Unit): Dated | null {
  // Traffic and replicas move either way; the rest get worse going up.
  const options = { baselineUntil, worse: signal === 'rate' || signal === 'replicas' ? ('either' as const) : ('up' as const), minimumDelta: minimumMove(unit) };
  const change =
    changeOf(points, { ...options, heldAt: shift(firstAlert, HELD_AFTER_ALERT).epochMicros }) ?? changeOf(points, { ...options, heldAt: until.epochMicros });
  return change && { at: change.at, before: change.before, after: change.after };
}

/** When the condition of the incident's alerting rule began to hold in the episode that paged, and whether it still holds. */
async function conditionEpisode(q: WhenQuestion, from: Timestamp, until: Timestamp, firstAlert: Timestamp): Promise<void> {
  const { session, answer } = q;
  const own = session.alerts.map((a) => a.labels.alertname).find((n) => !!n);
  const alertname = q.alert ?? own;
  const incidents = alertname === own;
  if (!alertname) {
    answer.limit('scope', "The question names no signal, and the incident's alerts name no rule whose condition could be read", []);
    return;
  }
  const rules = await session.runTool({
    tool: 'prometheus.alert_rules',
    integrationId: q.source.integrationId,
    arguments: { name: alertname },
    purpose: `The condition the ${alertname} rule checks`,
  });
  const rule = rules.outcome === 'succeeded' ? (rules.output as { rules?: Array<{ query?: string; forSeconds?: number }> } | null)?.rules?.[0] : undefined;
  if (!rule?.query) {
    answer.cannot(
      rules.outcome === 'succeeded'
        ? `Prometheus has no alerting rule named ${alertname}, so when its condition held is unknown`
        : `The alerting rules could not be read (${rules.error ?? 'failed'}), so when ${alertname}'s condition held is unknown`,
      rules,
    );
    return;
  }
  const range = await session.runTool({
    tool: 'prometheus.query_range',
    integrationId: q.source.integrationId,
    arguments: { query: rule.query, start: from.toISOString(), end: until.toISOString(), step: STEP_SECONDS },
    purpose: `When ${alertname}'s condition held`,
  });
  const times = (
    incidents
      ? alertsOwnSeries(
          seriesOf(range),
          session.alerts.map((a) => a.labels),
        )
      : seriesOf(range)
  ).flatMap((s) => pointsOf(s).map((p) => p.t.epochMicros));
  const step = BigInt(STEP_SECONDS) * 1_000_000n;
  const start = episodeStart(times, step, shift(firstAlert, MINUTE).epochMicros) ?? episodeStart(times, step, until.epochMicros);
  if (start === null) {
    answer.cannot(`the condition of ${alertname} did not hold from ${clock(from, until)} to ${clock(until, until)}`, [rules, range]);
    return;
  }
  const last = times.reduce((max, t) => (t > max ? t : max), start);
  const began = clock(Timestamp.fromEpochMicros(start), until);
  const holds = until.epochMicros - last <= 2n * step;
  const which = incidents ? `${alertname} (the incident's alert)` : alertname;
  const episode = holds
    ? `has held since ${began}, and still holds at ${clock(until, until)}`
    : `held from ${began} to ${clock(Timestamp.fromEpochMicros(last), until)}, and no longer holds at ${clock(until, until)}`;
  // When it fired: the incident's alert when it was received; another when its condition had held for the rule's `for`.
  const fired = incidents ? firstAlert : Timestamp.fromEpochMicros(start + BigInt(rule.forSeconds ?? 0) * 1_000_000n);
  answer.record(session, q.fired ? `${which} fired at ${clock(fired, until)}; its condition ${episode}` : `The condition of ${which} ${episode}`, [
    rules,
    range,
  ]);
}

/** Events counted over a window, as whole events (Prometheus extrapolates an increase to the window's edges). */
const count = (v: number): string => String(Math.max(1, Math.round(v)));
