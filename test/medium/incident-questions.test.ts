import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltInReasoner, checkConclusion } from '@svc/investigations/engine';
import { deriveAlerts, stagePrometheus, StagedPrometheus } from '../../eval/harness';
import { SCENARIOS } from '../../eval/scenarios';
import { DEFAULT_BUDGETS, directSession } from '../support/direct-session';

/**
 * Follow-up questions in a conversation about an incident, answered by the built-in reasoner from
 * a real Prometheus: search 3.3.0 answers /api/search four times slower (its other route is not
 * slower). Each question gets its own answer, with numbers as people write them, citing its runs.
 */
/**
 * A scenario's data in a real Prometheus for the tests of a `describe`, its page derived as the
 * rule fires it, and a way to ask a question as a conversation turn about it (after the earlier
 * messages and answers it refers to).
 */
function stagedScenario(name: string) {
  const scenario = SCENARIOS.find((s) => s.name === name)!;
  // readAt: the time the last answer read the data at (its window's end), in seconds. An answer reads at the moment it
  // is asked, seconds or, on a loaded machine, minutes after the data's end; a rate over the last five minutes differs
  // between the two, so the oracle reads where the answer did.
  const at: { staged?: StagedPrometheus; page?: Awaited<ReturnType<typeof deriveAlerts>>[number]; readAt?: number } = {};
  const instant = async (query: string): Promise<{ metric: Record<string, string>; value: [number, string] } | undefined> => {
    const time = String(at.readAt ?? at.staged!.end);
    const res = await fetch(`${at.staged!.prometheus.url}/api/v1/query?${new URLSearchParams({ query, time })}`);
    const body = (await res.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
    return body.data.result[0];
  };
  beforeAll(async () => {
    at.staged = await stagePrometheus(scenario);
    [at.page] = await deriveAlerts(at.staged.prometheus.url, scenario.rule, at.staged.start, at.staged.end);
  }, 120_000);
  afterAll(async () => {
    await at.staged?.stop();
  });
  return {
    end: () => at.staged!.end,
    /** What PromQL gives where the last answer read (at the data's end before any): the number an answer is checked against. */
    value: async (query: string): Promise<number> => Number((await instant(query))?.value[1]),
    /** A label of the first series PromQL gives where the last answer read (the name of a pod the generator made). */
    labelOf: async (query: string, label: string): Promise<string | undefined> => (await instant(query))?.metric[label],
    ask: async (message: string, earlier: string[] = [], answers: string[] = []) => {
      // The changes the scenario's deploy and configuration tools reported, as the worker reads them.
      const session = directSession(
        at.staged!.prometheus.url,
        at.page!,
        [],
        DEFAULT_BUDGETS,
        { message, earlier, answers },
        undefined,
        undefined,
        scenario.changes?.(at.staged!.end),
      );
      at.readAt = Number(session.window.until.epochMicros) / 1e6;
      const conclusion = checkConclusion(await new BuiltInReasoner().investigate(session), session.investigationId, session.runs);
      return { conclusion, runs: session.runs };
    },
  };
}

describe('questions about an incident, answered as asked', () => {
  const { ask, end } = stagedScenario('search-slow-version-chronic-alert');

  // Times carry their date when it is not the day the window ends (a range that crosses midnight).
  it('splits the latency by route before and after the version the question names', async () => {
    const { conclusion, runs } = await ask('is the regression limited to /api/search or are other routes slower too since 3.3.0?');
    expect(conclusion.conclusionStatus).toBe('answer_only');
    expect(conclusion.summary).toMatch(
      /^Only \/api\/search of search has a higher p99 latency since 3\.3\.0 started \((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\); the other routes are about the same \[#\d+(, #\d+)*\]/,
    );
    expect(conclusion.summary).toMatch(/\| \/api\/search \| \d+(\.\d+)? ms \| \d+(\.\d+)? (ms|s) \| up \|/);
    expect(conclusion.summary).toMatch(/\| \/api\/suggest \| .* \| about the same \|/);
    // Every number comes from a cited run.
    const cited = conclusion.findings.flatMap((f) => f.runRefs);
    expect(cited.length).toBeGreaterThan(0);
    expect(runs.filter((r) => cited.includes(r.ordinal)).every((r) => r.outcome === 'succeeded')).toBe(true);
  }, 60_000);

  it('answers the request rate and errors of a service over the last hour, compared before and after the incident began', async () => {
    const { conclusion } = await ask('what is the request rate and error rate of search over the last hour, did errors go up too?');
    expect(conclusion.summary).toMatch(
      /^The request rate of search was \d+(\.\d+)? req\/s before the incident began \((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\) and \d+(\.\d+)? req\/s after: about the same \[#\d+(, #\d+)*\]/m,
    );
    expect(conclusion.summary).toMatch(
      /^The error ratio of search was \d+(\.\d+)?% before the incident began \((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\) and \d+(\.\d+)?% after: about the same \[#\d+(, #\d+)*\]/m,
    );
    // Three significant digits at most: no 41.3716 req/s nor 0.075412%.
    expect(conclusion.summary).not.toMatch(/[1-9]\d*\.\d{3,}|\.0*[1-9]\d{3,}/);
    expect(conclusion.findings).toHaveLength(2);
  }, 60_000);

  it('answers when the version named went out', async () => {
    const { conclusion } = await ask('where did 3.3.0 land and what time did it go out');
    expect(conclusion.summary).toMatch(/^2 pod\(s\) of search run 3\.3\.0 at /);
    expect(conclusion.summary).toMatch(/^3\.3\.0 of search started at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, when its first pod with it did \[#\d+\]$/m);
  }, 60_000);

  it('lists which pods run the version asked about and on which nodes, and resolves "those pods" to the service named before', async () => {
    const { conclusion } = await ask('which pods run 3.3.0 and on which nodes?');
    expect(conclusion.summary).toMatch(/^2 pod\(s\) of search run 3\.3\.0 at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, on \d node\(s\): /);
    expect(conclusion.summary).toContain('| pod | node | version |');
    const { conclusion: followUp } = await ask('and the cpu of those pods?', ['what is the latency of search?']);
    expect(followUp.summary).toMatch(/^The CPU use of search .* cores/);
  }, 60_000);

  it('asks which service is meant when the question names none the sources know', async () => {
    const { conclusion } = await ask('what is the error rate of serch?');
    // The closest name first; exporters are not offered.
    expect(conclusion.question).toMatch(/^I could not find "serch" among the services and jobs the sources know\. Which of these do you mean: search, /);
    expect(conclusion.question).not.toContain('kube-state-metrics');
  }, 60_000);

  it('still investigates the cause when that is what is asked, and says so when it answers the same again', async () => {
    const { conclusion } = await ask('what caused this?');
    expect(conclusion.conclusionStatus).toBe('verified_cause');
    expect(conclusion.summary).toMatch(/^The new build \(.*3\.3\.0.*\) that started at .* is the cause/);
    const { conclusion: again } = await ask('why did it happen?', ['what caused this?'], [conclusion.summary]);
    expect(again.summary).toBe(`The same answer as turn 1: ${conclusion.summary}`);
  }, 60_000);

  /** Minutes between an answer's first time of day and the data's end, `minutes` before which the fault began. */
  const minutesBeforeEnd = (answer: string): number => {
    const [, day, hh, mm] = /(?:(\d{4}-\d\d-\d\d) )?(\d\d):(\d\d) UTC/.exec(answer)!;
    const date = day ?? new Date(end() * 1000).toISOString().slice(0, 10);
    return (end() - Date.parse(`${date}T${hh}:${mm}:00Z`) / 1000) / 60;
  };

  it('dates when the signal asked about left its usual level, and says it still holds', async () => {
    const { conclusion } = await ask('when did the latency of search go up?');
    expect(conclusion.summary).toMatch(/^The p99 latency of search rose from \d+(\.\d+)? ms to \d+(\.\d+)? s at .*, and is still at .* \[#\d+\]$/);
    // search 3.3.0 started 40 minutes before the data ends.
    expect(minutesBeforeEnd(conclusion.summary)).toBeGreaterThanOrEqual(35);
    expect(minutesBeforeEnd(conclusion.summary)).toBeLessThanOrEqual(42);
    const { conclusion: still } = await ask('is it still slow?', ['what is the p99 of search?']);
    // Asked whether it still holds: how it is now first.
    expect(still.summary).toMatch(/^The p99 latency of search is still at \d+(\.\d+)? m?s at .*; it rose from .* at .* \[#\d+\]$/);
  }, 60_000);

  it('takes the verbs and adjectives of a question for its own words, not for services to ask about, and still asks about a name where a name stands', async () => {
    // No service named: the incident's, whose latency rose 40 minutes before the data ends.
    const { conclusion } = await ask('when did latency start climbing?');
    expect(conclusion.question).toBeUndefined();
    expect(conclusion.summary).toMatch(/^The p99 latency of search rose /);
    expect(minutesBeforeEnd(conclusion.summary)).toBeGreaterThanOrEqual(35);
    expect(minutesBeforeEnd(conclusion.summary)).toBeLessThanOrEqual(42);
    const { conclusion: spreading } = await ask('are the errors spreading?');
    expect(spreading.question).toBeUndefined();
    expect(spreading.limitations.map((l) => l.statement).join(' ')).not.toContain('spreading');
    const { conclusion: unknown } = await ask('what is the latency of the billing service?');
    expect(unknown.question).toMatch(/^I could not find "billing" among the services and jobs the sources know/);
  }, 60_000);

  it('answers each question of a message that asks several of different kinds, a later one reading the earlier as what it refers to', async () => {
    const { conclusion } = await ask('which pods run 3.3.0 and what is their p99 latency since then?');
    const [listing, ...rest] = conclusion.summary.split('\n');
    // The listing first, as asked alone; then the latency of their service, compared before and after 3.3.0 started.
    expect(listing).toMatch(/^\d+ pod\(s\) of search run 3\.3\.0/);
    expect(rest.join('\n')).toMatch(/The p99 latency of search .*3\.3\.0/);
    // One kind asked twice stays one question, read as the grammar reads it.
    const { conclusion: one } = await ask('which pods run 3.3.0 and on which nodes?');
    expect(one.summary).not.toMatch(/latency/);
  }, 60_000);

  it('answers the cause asked with a question of the data: both, in the order asked, each citing its runs', async () => {
    const { conclusion, runs } = await ask('what is the request rate of search and what caused the slowdown?');
    const [rate, cause] = conclusion.summary.split('\n');
    expect(rate).toMatch(/^The request rate of search is [\d.]+ req\/s now \(\d\d:\d\d UTC\); it averaged [\d.]+ req\/s from .* \[#\d+\]$/);
    expect(cause).toMatch(/version="3\.3\.0"\) that started at .* is the cause: .* \[#\d+(, #\d+)*\]$/);
    expect(conclusion.conclusionStatus).not.toBe('answer_only');
    expect(conclusion.hypotheses.length).toBeGreaterThan(0);
    // The rate's run is one of the turn's, read before the investigation's.
    const rateRun = Number(/\[#(\d+)\]$/.exec(rate)![1]);
    expect(runs.find((r) => r.ordinal === rateRun)?.tool).toBe('prometheus.query_range');
    // The cause asked with what to do: the cause, then the actions.
    const { conclusion: both } = await ask('why is search this slow, and what should we do about it?');
    const lines = both.summary.split('\n');
    expect(lines[0]).toMatch(/version="3\.3\.0"\) that started at .* is the cause: .* \[#\d+(, #\d+)*\]$/);
    expect(lines[1]).toMatch(/^What to do, from the analysis/);
    expect(lines[2]).toMatch(/^1\. Roll back search/);
  }, 60_000);

  it('lists what changed before the incident, and a follow-up finds the pods of "the new version" it named', async () => {
    const { conclusion } = await ask('what changed?');
    expect(conclusion.summary).toMatch(
      /^The last change before the first alert: search 3\.2\.1 → 3\.3\.0 \(a new version\), at .*; 1 change in namespace shop from /,
    );
    expect(conclusion.summary).toMatch(/\| (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \| search 3\.2\.1 → 3\.3\.0 \(a new version\) \| \d+ min before \| #\d+ \|/);
    // The chronic CPU throttling of recommendations is no change: it was there all along.
    expect(conclusion.summary).not.toContain('recommendations');
    const { conclusion: pods } = await ask('which pods run the new version?', ['what changed?'], [conclusion.summary]);
    expect(pods.summary).toMatch(/^2 pod\(s\) of search run 3\.3\.0 at /);
  }, 60_000);

  it('relates two services by the calls between them and their nodes, and asks about a name it does not know', async () => {
    const { conclusion } = await ask('does frontend call cart?');
    expect(conclusion.summary).toMatch(/^frontend calls cart \[#\d+\]$/m);
    expect(conclusion.summary).toMatch(/^frontend and cart (share nodes? .*|ran on different nodes .*) \[#\d+\]$/m);
    const { conclusion: unrelated } = await ask('is search related to checkout?');
    expect(unrelated.summary).toMatch(/^No call between search and checkout shows in the series that pair callers and callees \[#\d+\]$/m);
    const { conclusion: unknown } = await ask('is search related to billing?');
    expect(unknown.question).toMatch(/^I could not find "billing"/);
  }, 60_000);

  it('lists what a service calls and what calls it, the routes it serves, and reads the signals of a pod named whole', async () => {
    const { conclusion: calls } = await ask('what does frontend call?');
    expect(calls.summary).toMatch(/^frontend calls cart; nothing the series show calls frontend \[#\d+\]$/);
    const { conclusion: routes } = await ask('which routes does search serve?');
    expect(routes.summary).toMatch(/^search serves 2 routes at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC, the busiest first \[#\d+\]/);
    expect(routes.summary).toMatch(/\| \/api\/search \| \d+(\.\d+)? req\/s \|\n\| \/api\/suggest \| \d+(\.\d+)? req\/s \|/);
    const { conclusion: pods } = await ask('which pods run 3.3.0?');
    const pod = /\| (search-[a-z0-9]+-[a-z0-9]+) \|/.exec(pods.summary)![1];
    const { conclusion: cpu } = await ask(`how much cpu does ${pod} use?`);
    expect(cpu.summary).toMatch(
      new RegExp(`^The CPU use of ${pod} is \\d+(\\.\\d+)? cores? now \\(\\d\\d:\\d\\d UTC\\); it averaged \\d+(\\.\\d+)? cores? from `),
    );
    // A node by its host name: the share of its cores busy, as node dashboards show it (in cores when cores are asked), and the memory its processes use.
    const node = /\| search-[a-z0-9]+-[a-z0-9]+ \| (ip-[0-9-]+)\./.exec(pods.summary)![1];
    const { conclusion: cores } = await ask(`how many cores is ${node} using?`);
    expect(cores.summary).toMatch(new RegExp(`^The CPU use of ${node}\\.[a-z0-9.-]+ is \\d+(\\.\\d+)? cores? now .* averaged \\d+(\\.\\d+)? cores? from `));
    const { conclusion: busy } = await ask(`how much cpu and memory is ${node} using?`);
    expect(busy.summary).toMatch(
      new RegExp(
        `^The CPU busy \\(a share of its cores\\) of ${node}\\.[a-z0-9.-]+ is \\d+(\\.\\d+)?% now .* averaged \\d+(\\.\\d+)?% from .*\\nThe memory use of ${node}\\..* is \\d+(\\.\\d+)? GiB now .* averaged \\d+(\\.\\d+)? GiB from `,
      ),
    );
  }, 60_000);

  it('lists the versions a service ran a time ago, and reads no name in an apology after the question', async () => {
    const { conclusion } = await ask('which version was search running an hour ago? sorry if that is an obvious one, still figuring out the panels');
    expect(conclusion.question).toBeUndefined();
    // (A time of the day before carries its date.)
    expect(conclusion.summary).toMatch(/^search ran 3\.2\.1 \(2 pods\) at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \[#\d+\]$/m);
  }, 60_000);

  it('answers what to do with the proposed actions, how to verify them and the runs they rest on', async () => {
    const { conclusion } = await ask('what should we do?');
    expect(conclusion.summary).toMatch(
      /^What to do, from the analysis \(verified cause\):\n1\. Roll back search from .*3\.3\.0.*: .* Verify: .* \[#\d+(, #\d+)*\]/,
    );
  }, 60_000);
});

/**
 * An edit of the cart-config ConfigMap rolls cart; the new pod exits at start and crash loops
 * (38 minutes before the data ends). What changed, and when the restarts began, from a real Prometheus.
 */
describe('questions about a crash loop after a configuration change', () => {
  const staged = stagedScenario('cart-config-crashloop');
  const ask = async (message: string) => (await staged.ask(message)).conclusion;

  it('lists the ConfigMap edit and the rollout it started, in order', async () => {
    const conclusion = await ask('what changed in the last 2 hours?');
    const rows = conclusion.summary.split('\n').filter((l) => /^\| \d/.test(l));
    expect(rows.map((r) => r.split(' | ')[1])).toEqual(['ConfigMap cart-config edited', 'Deployment cart rolled out (generation 1 → 2)']);
  }, 60_000);

  it('dates the edit of a ConfigMap the question names, which no service is called', async () => {
    const conclusion = await ask('what time was cart-config edited');
    expect(conclusion.question).toBeUndefined();
    expect(conclusion.summary).toMatch(
      /^ConfigMap cart-config was edited at \d\d:\d\d UTC, \d+ min before the first alert \(its resource version changed\) \[#\d+\]$/,
    );
    const minutes = minutesBefore(conclusion.summary, staged.end());
    // The scenario edits it 38 minutes before the end of its data.
    expect(Math.abs(minutes - 38)).toBeLessThanOrEqual(2);
  }, 60_000);

  it('dates when the containers began restarting, and that they still do', async () => {
    const conclusion = await ask('when did cart start crashing?');
    expect(conclusion.summary).toMatch(
      /^The containers of cart began restarting at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(as many as \d+ restarts in 5 minutes\), and still restart at .* \[#\d+\]$/,
    );
  }, 60_000);
});

describe('questions about memory against its limit', () => {
  const staged = stagedScenario('orders-memory-leak-oom');

  it('answers the use of the pod closest to its limit as a share of the limit, and the plain use when no limit is asked about', async () => {
    const { conclusion, runs } = await staged.ask('how close is orders to its memory limit?');
    const statement = conclusion.summary.split('\n')[0];
    // orders' working set grows to its 1 GiB limit: its pods run near it.
    const share = /^The memory use against its limit \(the pod closest to it\) of orders was ([\d.]+)% at .*, at most ([\d.]+)% /.exec(statement);
    expect(Number(share?.[1])).toBeGreaterThan(50);
    expect(Number(share?.[1])).toBeLessThanOrEqual(Number(share?.[2]));
    // It reached the limit before each kill (the last samples of a killed container may read just over it).
    expect(Number(share?.[2])).toBeGreaterThan(95);
    expect(Number(share?.[2])).toBeLessThan(110);
    const cited = runs.filter((r) => statement.includes(`#${r.ordinal}`));
    expect(cited.some((r) => String(r.arguments.query).includes('kube_pod_container_resource_limits'))).toBe(true);
    const { conclusion: plain } = await staged.ask('what is the memory use of orders?');
    expect(plain.summary).toMatch(/^The memory use of orders .* (MiB|GiB)/);
  }, 60_000);

  it("reads a workload's own pods, not those of another whose name begins with its name (orders-worker's are no pods of orders)", async () => {
    const { conclusion } = await staged.ask('What is the memory limit for the orders service?');
    expect(conclusion.summary).toMatch(/^The memory limit of orders's containers is 1 GiB now /);
    const { conclusion: worker } = await staged.ask('and the memory limit of the orders worker?');
    expect(worker.summary).toMatch(/^The memory limit of orders-worker's containers is 512 MiB now /);
    // The singular of a plural name is that service, not a name to ask about among those it begins ("the order pods").
    const { conclusion: restarts } = await staged.ask('how many times did the order pods restart in the last hour?');
    expect(restarts.question).toBeUndefined();
    const counted = /^orders had (\d+) container restarts from /.exec(restarts.summary);
    expect(Number(counted?.[1])).toBe(
      Math.round(await staged.value('sum(increase(kube_pod_container_status_restarts_total{pod=~"orders-[a-z0-9]+-[a-z0-9]+"}[1h]))')),
    );
  }, 60_000);
});

/** The minutes between a `HH:MM UTC` an answer states and the end of the data (`end`, Unix seconds). */
const minutesBefore = (answer: string, end: number): number => {
  // A time of another day than the end's carries its date (a range that crosses midnight).
  const m = /(?:(\d{4}-\d\d-\d\d) )?(\d\d):(\d\d) UTC/.exec(answer)!;
  const day = m[1] ?? new Date(end * 1000).toISOString().slice(0, 10);
  return (end - Date.parse(`${day}T${m[2]}:${m[3]}:00Z`) / 1000) / 60;
};

describe('questions that name a moment by what happened then', () => {
  // A crawler multiplies search's traffic from 39 minutes before the end; frontend rolled out 5.2.1 five minutes before that.
  const staged = stagedScenario('search-traffic-surge');

  it('compares with the time before the surge began, found on the measure the surge is of, not before the incident began', async () => {
    const { conclusion } = await staged.ask('what was the p99 of search before the surge started?');
    const statement =
      /^The p99 latency of search was .* before the request rate of search began to change \(((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)\) and .* after: up \[#\d+(, #\d+)*\]$/m.exec(
        conclusion.summary,
      );
    expect(statement).not.toBeNull();
    expect(Math.abs(minutesBefore(statement![1], staged.end()) - 39)).toBeLessThanOrEqual(2);
  }, 60_000);

  it("compares since the rollout of the service the question names, not the alerting service's", async () => {
    const { conclusion, runs } = await staged.ask('has the request rate of search gone up since the frontend rollout?');
    const statement =
      /^The request rate of search was .* before the rollout of frontend 5\.2\.0 → 5\.2\.1 \((\d\d:\d\d UTC)\) and .* after: up \[(#\d+(, #\d+)*)\]$/m.exec(
        conclusion.summary,
      );
    expect(statement).not.toBeNull();
    expect(Math.abs(minutesBefore(statement![1], staged.end()) - 44)).toBeLessThanOrEqual(2);
    // The rollout's run is cited with the signal's.
    const cited = runs.filter((r) => statement![2].split(', ').includes(`#${r.ordinal}`));
    expect(cited.some((r) => String(r.arguments.query).includes('job="frontend"'))).toBe(true);
  }, 60_000);

  it('reads "then" as the time the previous answer named: a value at it, and the changes around it', async () => {
    const first = 'when did traffic to search go up?';
    const { conclusion: when } = await staged.ask(first);
    const named = /at ((?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(when.summary)![1];
    const { conclusion: then } = await staged.ask('what was its p99 then?', [first], [when.summary]);
    expect(then.summary).toMatch(new RegExp(`^The p99 latency of search was \\d+(\\.\\d+)? ms at ${named}, the time the previous answer named \\[#\\d+\\]$`));
    const { conclusion: changes } = await staged.ask('was anything deployed around then?', [first], [when.summary]);
    // From half an hour before the moment named: frontend's rollout five minutes before it is listed.
    expect(changes.summary).toMatch(/; \d+ changes? in namespace \S+ from ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC) to ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/);
    expect(minutesBefore(changes.summary.replace(/^.*? in namespace \S+ from /, ''), staged.end()) - minutesBefore(named, staged.end())).toBe(30);
    expect(changes.summary).toContain('frontend 5.2.0 → 5.2.1');
  }, 60_000);

  it('keeps the moment the conversation compared with for a follow-up that asks the same of another measure', async () => {
    const first = 'what was the p99 of search before the surge started?';
    const { conclusion: before } = await staged.ask(first);
    const moment = /began to change \((\d\d:\d\d UTC)\)/.exec(before.summary)![1];
    const { conclusion } = await staged.ask('did its error ratio go up as well?', [first], [before.summary]);
    expect(conclusion.summary).toMatch(
      new RegExp(
        `^The error ratio of search was [\\d.]+% before the request rate of search began to change \\(${moment}\\) and [\\d.]+% after: about the same`,
      ),
    );
    // Whether a service is affected is its errors and latency, compared.
    const { conclusion: affected } = await staged.ask('is search affected?');
    // How it is now first, then how it moved.
    expect(affected.summary).toMatch(
      /^The error ratio of search is [\d.]+% now \(\d\d:\d\d UTC\); it was .* before the incident began .* after: about the same \[/m,
    );
    expect(affected.summary).toMatch(/^The p99 latency of search is [\d.]+ m?s now \(\d\d:\d\d UTC\); it was .* before the incident began .* after: up \[/m);
  }, 60_000);

  it('says when a question was asked before, in the same words or others, and not of a different question', async () => {
    const { conclusion: again } = await staged.ask("what's the request rate of search", ['what is the request rate of search?']);
    expect(again.summary).toMatch(/^You asked this before, at \d\d:\d\d UTC: the answer below reads the data again/);
    expect(again.summary).toMatch(/^The request rate of search is [\d.]+ req\/s now /m);
    const { conclusion: other } = await staged.ask('what is the error ratio of search?', ['what is the request rate of search?']);
    expect(other.summary).not.toContain('You asked this before');
  }, 60_000);
});

describe('questions about a node', () => {
  // A video-transcode batch takes all four cores of ip-10-0-2-34, where one search pod runs.
  const staged = stagedScenario('search-noisy-neighbour');

  it('lists what runs on a node named, or named by an earlier answer, the busiest first', async () => {
    const { conclusion } = await staged.ask('what else runs on ip-10-0-2-34?');
    expect(conclusion.summary).toMatch(
      /^\d+ pod\(s\) run on node ip-10-0-2-34\S* at \d\d:\d\d UTC, of \d+ workload\(s\): .*search.*; the most CPU: video-transcode-\S+ \(video-transcode\), [\d.]+ cores \[#\d+, #\d+\]$/m,
    );
    expect(conclusion.summary).toMatch(/\| video-transcode-\S+ \| video-transcode \| shop \| [\d.]+ cores \|/);
    const earlier = 'is video-transcode related to search?';
    const { conclusion: related } = await staged.ask(earlier);
    const { conclusion: there } = await staged.ask('anything else scheduled on that node?', [earlier], [related.summary]);
    // (The same listing, whatever minute each answer was read at: its clock and the cores then may differ.)
    const shape = (summary: string) =>
      summary
        .split('\n')[0]
        .replace(/\d\d:\d\d UTC/g, 'HH:MM UTC')
        .replace(/[\d.]+ cores/g, 'N cores');
    expect(shape(there.summary)).toBe(shape(conclusion.summary));
    // A service's node, not named: the busiest of those its pods run on.
    const { conclusion: busiest } = await staged.ask("one of search's nodes looks pegged, what's running there?");
    expect(busiest.summary).toMatch(/^The busiest node search runs on is ip-10-0-2-34\S*, [\d.]+% of its cores busy at \d\d:\d\d UTC \[#\d+\]$/m);
    expect(busiest.summary).toMatch(/^\| video-transcode-\S+ \| video-transcode \|/m);
  }, 60_000);

  it('reads the node a workload runs on when the question asks about that node, and lists the node of a pod named', async () => {
    const { conclusion } = await staged.ask('cpu on the node video-transcode is on');
    expect(conclusion.summary).toMatch(/^The CPU busy \(a share of its cores\) of ip-10-0-2-34\S* /);
    const { conclusion: pod } = await staged.ask('which node is search-878b86fb7-m9xrk scheduled on?');
    expect(pod.summary).toMatch(/^Pod search-878b86fb7-m9xrk runs \S+ on node ip-10-0-2-34\S* at \d\d:\d\d UTC \[#\d+\]$/m);
  }, 60_000);

  it('says a measure no series gives (inodes, the JVM heap) cannot be answered, and claims nothing in its place', async () => {
    for (const q of ['how many inodes are left on the search nodes?', 'whats the jvm heap of search look like?']) {
      const { conclusion } = await staged.ask(q);
      expect(conclusion.summary, q).toMatch(/^No series measures (inodes|the heap of the runtime) \(/);
      expect(conclusion.findings, q).toHaveLength(0);
    }
  }, 60_000);

  it('answers whether a node is saturated with the shares of its cores and memory in use', async () => {
    const { conclusion } = await staged.ask('how loaded is node ip-10-0-2-34 right now');
    const cpu = /^The CPU busy \(a share of its cores\) of ip-10-0-2-34\S* was ([\d.]+)% at /m.exec(conclusion.summary);
    expect(Number(cpu?.[1])).toBeGreaterThan(85);
    expect(conclusion.summary).toMatch(/^The memory in use \(a share of its total\) of ip-10-0-2-34\S* was [\d.]+% at /m);
  }, 60_000);
});

describe('questions about a CPU limit and its throttling', () => {
  // A rollout lowers recommendations' CPU limit from 1 to 0.3 cores 40 minutes before the end; its containers are throttled.
  const staged = stagedScenario('recommendations-cpu-throttled');

  it('answers the limit itself, with the one before it changed, and how much of the CPU periods are throttled', async () => {
    const { conclusion } = await staged.ask('what is the cpu limit of recommendations?');
    const limit = /^The CPU limit of recommendations's containers (is|was) (0\.3) cores (now|at) .*; it was 1 core until (\d\d:\d\d UTC): down \[#\d+\]$/.exec(
      conclusion.summary,
    );
    expect(limit).not.toBeNull();
    expect(Math.abs(minutesBefore(limit![4], staged.end()) - 40)).toBeLessThanOrEqual(2);
    const { conclusion: throttled } = await staged.ask('how throttled is it?', ['what is the cpu limit of recommendations?'], [conclusion.summary]);
    const share = /^The share of CPU periods throttled of recommendations (?:is|was) ([\d.]+)% /.exec(throttled.summary);
    expect(Number(share?.[1])).toBeGreaterThan(20);
  }, 60_000);
});

describe('questions that count, and what no source records', () => {
  // cart's new containers crash loop after a ConfigMap edit 38 minutes before the end.
  const staged = stagedScenario('cart-config-crashloop');

  it('counts the restarts over the range asked, as the increase of the counter', async () => {
    const { conclusion } = await staged.ask('how many restarts did cart have in the last hour?');
    const counted = /^cart had (\d+) container restarts from (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC to \d\d:\d\d UTC \[#\d+\]$/m.exec(conclusion.summary);
    expect(counted).not.toBeNull();
    const want = await staged.value('sum(increase(kube_pod_container_status_restarts_total{container="cart"}[1h]))');
    expect(Math.abs(Number(counted![1]) - want)).toBeLessThanOrEqual(Math.max(1, want * 0.1));
    // A count asked per second is a rate, not a count.
    const { conclusion: perSecond } = await staged.ask('how many requests per second does cart get?');
    expect(perSecond.summary).toMatch(/^The request rate of cart is [\d.]+ req\/s now/);
  }, 60_000);

  it('says that who approved a deploy is not in the data, and claims nothing in its place', async () => {
    const { conclusion } = await staged.ask('who approved the cart-config change?');
    expect(conclusion.summary).toMatch(/^This cannot be answered from the data: the connected sources \(prometheus\) record what the systems did/);
    expect(conclusion.findings).toHaveLength(0);
    expect(conclusion.hypotheses).toHaveLength(0);
  }, 60_000);
});

describe('questions about calls to a dependency', () => {
  // partner-bank's certificate expired 35 minutes before the end: every call payments makes to it fails.
  const staged = stagedScenario('partner-bank-certificate-expired');

  it("reads the calls of the service named to the dependency named from the caller's client-side series", async () => {
    const { conclusion } = await staged.ask("what share of payments' calls to partner-bank fail?");
    const share = /^The error ratio of calls of payments to partner-bank is ([\d.]+)% now/.exec(conclusion.summary);
    expect(share).not.toBeNull();
    const want = await staged.value(
      'sum(rate(http_client_requests_total{job="payments", peer="partner-bank", code!="200"}[5m])) / sum(rate(http_client_requests_total{job="payments", peer="partner-bank"}[5m]))',
    );
    expect(Math.abs(Number(share![1]) / 100 - want)).toBeLessThanOrEqual(want * 0.1);
    // A dependency no job names is a subject of its own: what calls it, read from the callers.
    const { conclusion: latency } = await staged.ask('avg latency of calls to partner-bank');
    expect(latency.summary).toMatch(/^The mean latency of calls to partner-bank is [\d.]+ (ms|s) now/);
  }, 60_000);

  it('answers when a certificate expired from the probe of the dependency named', async () => {
    const { conclusion } = await staged.ask('when did the partner-bank cert expire?');
    const expired = /^The TLS certificate of https:\/\/api\.partner-bank\.example\/health expired at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC), before /.exec(
      conclusion.summary,
    );
    expect(expired).not.toBeNull();
    expect(Math.abs(minutesBefore(expired![1], staged.end()) - 35)).toBeLessThanOrEqual(1);
  }, 60_000);
});

describe('questions about disks', () => {
  // /var/lib/media on ip-10-0-2-34 fills up 37 minutes before the end; the node's root filesystem is not full.
  const staged = stagedScenario('media-disk-full-flapping-alert');

  it("lists the filesystems of the nodes a service runs on, the fullest first, and a mount's size when asked how big", async () => {
    const { conclusion } = await staged.ask('which mount is full on the media nodes?');
    expect(conclusion.summary).toMatch(
      /^The fullest of \d+ filesystems and volumes: \/var\/lib\/media on ip-10-0-2-34 is 100% used, 0 B free of 200 GiB at \d\d:\d\d UTC \[#\d+\]$/m,
    );
    expect(conclusion.summary).toMatch(/^\| \/ \| ip-10-0-2-34 \| [\d.]+% \|/m);
    const { conclusion: size } = await staged.ask('how big is /var/lib/media?');
    expect(size.summary).toMatch(/^\/var\/lib\/media on ip-10-0-2-34 is 200 GiB, 100% used \(0 B free\) at /);
    const { conclusion: root } = await staged.ask('how full is / on that node?', ['how big is /var/lib/media?'], [size.summary]);
    const used = /^\/ on ip-10-0-2-34 is ([\d.]+)% used/.exec(root.summary);
    const want = await staged.value(
      '1 - node_filesystem_avail_bytes{node=~"ip-10-0-2-34.*", mountpoint="/"} / node_filesystem_size_bytes{node=~"ip-10-0-2-34.*", mountpoint="/"}',
    );
    expect(Math.abs(Number(used?.[1]) / 100 - want)).toBeLessThanOrEqual(0.02);
  }, 60_000);
});

describe('questions that name a route by a word of its path, and who made a change', () => {
  // media's POST /api/uploads fails once /var/lib/media is full; its GET /api/media/{id} does not.
  const staged = stagedScenario('media-disk-full-flapping-alert');

  it('reads the route a word names ("uploads" is /api/uploads) rather than asking which service it is', async () => {
    const { conclusion } = await staged.ask('what share of uploads are failing at the moment?');
    expect(conclusion.question).toBeUndefined();
    const ratio = /^The error ratio of media by route now \(\d\d:\d\d UTC\): \/api\/uploads ([\d.]+)%/.exec(conclusion.summary);
    const want = await staged.value(
      'sum(rate(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="media", route="/api/uploads"}[5m]))',
    );
    expect(Math.abs(Number(ratio?.[1]) / 100 - want)).toBeLessThanOrEqual(0.05 * want);
  }, 60_000);

  it('says who made a change is not in the data when no changes integration reports it, and claims nothing in its place', async () => {
    const { conclusion } = await staged.ask('who ran the last deploy of media?');
    expect(conclusion.summary).toMatch(/^Who made a change cannot be answered from the data: no changes integration/);
    expect(conclusion.findings).toHaveLength(0);
  }, 60_000);
});

describe('questions about a node that failed', () => {
  // ip-10-0-3-41 goes NotReady 36 minutes before the end; a cart pod ran on it.
  const staged = stagedScenario('node-not-ready');

  it('names the node that is not Ready, since when, and the pods that ran on it just before', async () => {
    const { conclusion } = await staged.ask('which node died and what cart pod was on it?');
    expect(conclusion.summary).toMatch(/^Node ip-10-0-3-41\S* has not been Ready since \d\d:\d\d UTC, and still at \d\d:\d\d UTC; \d+ pod\(s\) ran on /);
    expect(Math.abs(minutesBefore(conclusion.summary, staged.end()) - 36)).toBeLessThanOrEqual(2);
    expect(conclusion.summary).toMatch(/^\| cart-[a-z0-9]+-[a-z0-9]+ \| shop \|$/m);
  }, 60_000);
});

describe('questions about a volume that fills up beside a disk full all along', () => {
  // ledger's claim data-ledger fills 36 minutes before the end; /var/log/archive on the same node has been full for hours.
  const staged = stagedScenario('ledger-volume-full-chronic-mount');

  it('dates the volume that filled, not the disk full all along, and answers how full a claim named is', async () => {
    const { conclusion } = await staged.ask("When did ledger's storage fill up?");
    expect(conclusion.summary).toMatch(
      /^volume claim data-ledger on \S+ filled up at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(from [\d.]+% used at (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\); \/var\/log\/archive on \S+ was full already/,
    );
    expect(Math.abs(minutesBefore(conclusion.summary, staged.end()) - 36)).toBeLessThanOrEqual(2);
    const { conclusion: claim } = await staged.ask('how full is the data-ledger PVC?');
    expect(claim.question).toBeUndefined();
    expect(claim.summary).toMatch(/^volume claim data-ledger on \S+ is 100% used/);
  }, 60_000);
  it('reads the free space a follow-up asks of the claims the question before asked about, not of the fullest disk', async () => {
    const { conclusion } = await staged.ask('how much free did it have 2h ago', ['which PVC is out of space?'], ['']);
    const free = /^The free space of the disk with the least left of ledger was ([\d.]+) (GiB|MiB) 2 hours ago/m.exec(conclusion.summary);
    expect(free).not.toBeNull();
    const want = await staged.value('sum(kubelet_volume_stats_available_bytes{persistentvolumeclaim="data-ledger"} offset 2h)');
    expect(Math.abs(Number(free![1]) * (free![2] === 'GiB' ? 1024 ** 3 : 1024 ** 2) - want)).toBeLessThanOrEqual(want * 0.05);
  }, 60_000);
});

describe('questions about resources that run out', () => {
  // orders leaks memory from 75 minutes before the end; its containers are OOM-killed from about 41 minutes before it.
  const leak = stagedScenario('orders-memory-leak-oom');
  // A report holds transactions open on ordersdb until its connections reach max_connections, 40 minutes before the end.
  const connections = stagedScenario('ordersdb-connections-exhausted');
  // orders-worker is scaled to zero 44 minutes before the end.
  const scaled = stagedScenario('orders-worker-scaled-to-zero');

  it('dates when a gradual climb began, not its steepest step', async () => {
    const { conclusion } = await leak.ask('when did orders memory start climbing?');
    expect(conclusion.summary).toMatch(/^The memory use of orders rose from \S+ MiB to \S+ GiB at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/);
    const at = /at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(conclusion.summary)![1];
    expect(Math.abs(minutesBefore(at, leak.end()) - 75)).toBeLessThanOrEqual(5);
  }, 60_000);

  it("answers a database's connections against its own limit, and a pool's against its size", async () => {
    const { conclusion } = await connections.ask('ordersdb connections vs max_connections?');
    const share = /^The connections in use \(a share of the most allowed\) of calls to ordersdb is ([\d.]+)% now/.exec(conclusion.summary);
    const want = await connections.value('sum(pg_stat_activity_count{datname="orders"}) / scalar(pg_settings_max_connections)');
    expect(Math.abs(Number(share?.[1]) / 100 - want)).toBeLessThanOrEqual(0.02);
  }, 60_000);

  it("answers a queue's oldest message, its consumers against an hour ago, and what waits in it", async () => {
    const { conclusion } = await scaled.ask('what age has the head message of the orders queue reached?');
    const age = /^The age of the oldest message waiting in the queue of orders is ([\d.]+) s now/.exec(conclusion.summary);
    const want = await scaled.value('time() - max by (queue) (rabbitmq_queue_head_message_timestamp{queue="orders"})');
    expect(Math.abs(Number(age?.[1]) - want)).toBeLessThanOrEqual(want * 0.05);
    const { conclusion: consumers } = await scaled.ask('consumers on the orders queue vs an hour ago');
    expect(consumers.summary).toMatch(
      /^The number of consumers \(of the Deployment named after the queue, orders-worker wants 0 replicas now\) in the queue of orders is 0 now .* and was [1-9]\d* 1 hour ago \(.*\): down \[#\d+(, #\d+)*\]$/m,
    );
  }, 60_000);

  it('dates when a workload was scaled down from its available replicas', async () => {
    const { conclusion } = await scaled.ask('when did orders-worker go to 0?');
    const fell = /^The number of available replicas of orders-worker fell from \d+ to 0 at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(conclusion.summary);
    expect(fell).not.toBeNull();
    expect(Math.abs(minutesBefore(fell![1], scaled.end()) - 44)).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('questions about a dependency that went down, and the rollouts before it', () => {
  // inventory stops answering 36 minutes before the end (its blackbox probe fails from then); checkout 2.14.4 rolled out 44 minutes before the end.
  const staged = stagedScenario('inventory-down-harmless-rollout');

  it('dates a failing probe from the probe of the service named, not from the exporter that runs it', async () => {
    const { conclusion } = await staged.ask('when did the blackbox probe against inventory begin to fail?');
    const down = /^The probe_success targets of inventory went down at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(conclusion.summary);
    expect(down).not.toBeNull();
    expect(Math.abs(minutesBefore(down![1], staged.end()) - 36)).toBeLessThanOrEqual(2);
  }, 60_000);

  it('answers each time a message asks of different things, in the order asked: a rollout, then when a service went down', async () => {
    const { conclusion } = await staged.ask('for the timeline, when did checkout roll out, and when did inventory stop answering?');
    const lines = conclusion.summary.split('\n');
    const rollout = /^The rollout of checkout \S+ → 2\.14\.4.* started at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(lines[0]);
    expect(rollout).not.toBeNull();
    expect(Math.abs(minutesBefore(rollout![1], staged.end()) - 44)).toBeLessThanOrEqual(2);
    const down = lines.slice(1).find((l) => /inventory/.test(l) && /\d\d:\d\d UTC/.test(l));
    expect(down).toBeDefined();
    expect(Math.abs(minutesBefore(down!, staged.end()) - 36)).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('questions about what connections are doing, and about a deploy only a report shows', () => {
  // A report holds transactions open on ordersdb until its connections reach max_connections.
  const connections = stagedScenario('ordersdb-connections-exhausted');
  // A deploy of statements is reported 48 minutes before the end; the metrics show no new version.
  const reported = stagedScenario('archive-down-reported-deploy-red-herring');

  it("counts a PostgreSQL server's connections open against max_connections, and by state, the most first", async () => {
    const { conclusion } = await connections.ask('and what are the ordersdb connections doing, by state?');
    const states =
      /^ordersdb has (\d+) connections open at \d\d:\d\d UTC, of (\d+) connections allowed \(max_connections\); by state: (\d+) connections idle in transaction, /.exec(
        conclusion.summary,
      );
    expect(states).not.toBeNull();
    expect(Number(states![1])).toBe(Math.round(await connections.value('sum(pg_stat_activity_count{server="ordersdb:5432"})')));
    expect(Number(states![2])).toBe(Math.round(await connections.value('max(pg_settings_max_connections{server="ordersdb:5432"})')));
    const want = await connections.value('sum by () (pg_stat_activity_count{state=~"idle in transaction"})');
    expect(Number(states![3])).toBe(Math.round(want));
    expect(conclusion.summary).toMatch(/^\| idle in transaction \| \d+ \|$/m);
    // A state the question names is counted first.
    const { conclusion: idle } = await connections.ask('how many ordersdb connections are sitting idle in transaction right now?');
    const first = /^(\d+) connections of ordersdb are idle in transaction at \d\d:\d\d UTC; ordersdb has \d+ connections open/.exec(idle.summary);
    expect(first).not.toBeNull();
    expect(Number(first![1])).toBe(Math.round(want));
  }, 60_000);

  it('says how calls fail when asked: the outcomes of the failing calls, the most first', async () => {
    const { conclusion } = await reported.ask("what share of statements' calls to archive fail, and how?");
    expect(conclusion.summary).toMatch(/^The error ratio of calls of statements to archive is 100% now /);
    expect(conclusion.summary).toMatch(/^The failing outcomes of calls of statements to archive now, the most first: code="connection_refused" \[#\d+\]$/m);
    // Not said when the question does not ask it.
    const { conclusion: plain } = await reported.ask("what share of statements' calls to archive fail?");
    expect(plain.summary).not.toMatch(/failing outcomes/);
  }, 60_000);

  it('dates a deploy of the service named from its report when the metrics show none, and says what it runs', async () => {
    const { conclusion } = await reported.ask('at what time was statements deployed?');
    const deploy =
      /^The deploy "Deployed statements-static [^"]+" \(deploy-3301\) on statements by ci-bot was reported at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(
        conclusion.summary,
      );
    expect(deploy).not.toBeNull();
    expect(Math.abs(minutesBefore(deploy![1], reported.end()) - 48)).toBeLessThanOrEqual(1);
    // A version only the report names: dated from the report.
    const { conclusion: version } = await reported.ask('when did 2026.11.27-1 of statements go out?');
    const out =
      /^The deploy "Deployed statements-static 2026\.11\.27-1[^"]*" \(deploy-3301\) on statements by ci-bot was reported at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC); the metrics show no 2026\.11\.27-1 of statements/.exec(
        version.summary,
      );
    expect(out).not.toBeNull();
    expect(Math.abs(minutesBefore(out![1], reported.end()) - 48)).toBeLessThanOrEqual(1);
    const { conclusion: shipped } = await reported.ask('did anyone ship anything for archive?');
    expect(shipped.summary).toMatch(/^archive runs 5\.0\.3 \(2 pods\) at \d\d:\d\d UTC \[#\d+\]$/m);
  }, 60_000);

  it("reads a program a version's deploy names as the service it deploys", async () => {
    const { conclusion } = await reported.ask('statements-static 2026.11.27-1 shipped this morning, at what time did it go out?');
    expect(conclusion.question).toBeUndefined();
    const out =
      /^The deploy "Deployed statements-static 2026\.11\.27-1[^"]*" \(deploy-3301\) on statements by ci-bot was reported at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(
        conclusion.summary,
      );
    expect(Math.abs(minutesBefore(out![1], reported.end()) - 48)).toBeLessThanOrEqual(1);
  }, 60_000);

  it('knows the names a reported change gives (its author, the program it deployed) without asking, and leaves the investigation its runs', async () => {
    const { conclusion } = await reported.ask('ci-bot pushed a statements-static bundle before the errors began. did that deploy break it?');
    expect(conclusion.question).toBeUndefined();
    // The cause is the callee that went down, found with the runs the names did not spend; the deploy named is ruled out.
    expect(conclusion.summary).toMatch(/^archive, which statements calls, went down at /);
    expect(conclusion.summary).toMatch(/^Not the cause: The deploy "Deployed statements-static [^"]+" \(deploy-3301\)/m);
  }, 90_000);
});

describe('questions that compare with a time ago, pod by pod, and free space', () => {
  // A traffic surge on search's /api/search from about 40 minutes before the end.
  const surge = stagedScenario('search-traffic-surge');
  // video-transcode takes the CPU of the node one search pod runs on: that pod is slow, the other is not.
  const neighbour = stagedScenario('search-noisy-neighbour');
  // /var/lib/media fills up 37 minutes before the end.
  const disk = stagedScenario('media-disk-full-flapping-alert');

  it('reads a route named now and a time ago, and leads with the value then when that is what a follow-up asks', async () => {
    const { conclusion } = await surge.ask('/api/search requests per second now, and two hours ago?');
    const both = /^The request rate of search on \/api\/search is ([\d.]+) req\/s now .* and was ([\d.]+) req\/s 2 hours ago/.exec(conclusion.summary);
    expect(both).not.toBeNull();
    const now = await surge.value('sum(rate(http_requests_total{job="search", route="/api/search"}[5m]))');
    expect(Math.abs(Number(both![1]) - now)).toBeLessThanOrEqual(now * 0.1);
    const { conclusion: then } = await surge.ask('and 2 hours ago?', ["what's search's request rate?"], ['']);
    const ago = /^The request rate of search was ([\d.]+) req\/s 2 hours ago/.exec(then.summary);
    const want = await surge.value('sum(rate(http_requests_total{job="search"}[5m] offset 120m))');
    expect(Math.abs(Number(ago?.[1]) - want)).toBeLessThanOrEqual(want * 0.1);
  }, 60_000);

  it('splits the latency by pod when asked whether one pod or both are slow, the slowest first', async () => {
    const { conclusion } = await neighbour.ask('is the p99 bad on each search pod or only one of them?');
    const pods =
      /^The p99 latency of search by pod now \(\d\d:\d\d UTC\), the highest first: (search-\S+) ([\d.]+ (?:ms|s)), (search-\S+) ([\d.]+ (?:ms|s))/.exec(
        conclusion.summary,
      );
    expect(pods).not.toBeNull();
    const slowest = await neighbour.value(
      `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", pod="${pods![1]}"}[5m])))`,
    );
    const other = await neighbour.value(
      `histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket{job="search", pod="${pods![3]}"}[5m])))`,
    );
    expect(slowest).toBeGreaterThan(other * 2);
  }, 60_000);

  it("answers a mount's size and the free space of another on the same node, each as its own part", async () => {
    const { conclusion } = await disk.ask('how big is /var/lib/media, and how much is free on / of that node?');
    const [size, free] = conclusion.summary.split('\n').filter((l) => /\[#\d+\]$/.test(l));
    expect(size).toMatch(/^\/var\/lib\/media on ip-10-0-2-34 is 200 GiB, /);
    const left = /^The free space on \/ of ip-10-0-2-34\S* is ([\d.]+) GiB now/.exec(free);
    const want = await disk.value('min(node_filesystem_avail_bytes{mountpoint="/", node=~"ip-10-0-2-34.*"})');
    expect(Math.abs(Number(left?.[1]) * 1024 ** 3 - want)).toBeLessThanOrEqual(want * 0.02);
  }, 60_000);

  it('answers the free space a mount had a time ago in bytes, the value then first', async () => {
    const { conclusion } = await disk.ask('how much space was left on /var/lib/media 90 minutes ago?');
    const free = /^The free space on \/var\/lib\/media of media was ([\d.]+) (GiB|MiB) 90 minutes ago/.exec(conclusion.summary);
    expect(free?.[1]).toBeDefined();
    const want = await disk.value('min(node_filesystem_avail_bytes{mountpoint="/var/lib/media"} offset 90m)');
    const got = Number(free![1]) * (free![2] === 'GiB' ? 1024 ** 3 : 1024 ** 2);
    expect(Math.abs(got - want)).toBeLessThanOrEqual(want * 0.05);
  }, 60_000);
});

describe('compound questions that ask what to do, and names no source knows', () => {
  // orders-worker is scaled to zero 44 minutes before the end; the orders queue fills up.
  const scaled = stagedScenario('orders-worker-scaled-to-zero');

  it('investigates first when a message asks what to do beside questions answered as asked, so the budget goes to the cause', async () => {
    const { conclusion } = await scaled.ask('are orders and rabbitmq related, and what should we change to drain the queue?');
    expect(conclusion.summary).toMatch(/^1\. Scale orders-worker back to 2 replicas: /m);
    // The part answered as asked comes first, as it was asked first, with what its runs left allowed.
    expect(conclusion.summary.split('\n')[0]).not.toMatch(/Scale orders-worker/);
  }, 60_000);

  it('asks about a name no source knows when a kind of workload follows it, even in a question that refers back', async () => {
    const { conclusion } = await scaled.ask('Is the thumbnailer service hurt by this too?');
    expect(conclusion.question).toMatch(/^I could not find "thumbnailer" among the services and jobs the sources know\. Which of these do you mean: /);
  }, 60_000);

  it('asks about the first name of a question when no source knows it, rather than answering for the next name', async () => {
    const { conclusion } = await scaled.ask('The coupon-engine service reads the orders queue as well. Is it hurt too?');
    expect(conclusion.question).toMatch(/^I could not find "coupon-engine" among the services and jobs the sources know\. Which of these do you mean: /);
    // A hyphenated word of the language is no name to ask about.
    const { conclusion: plain } = await scaled.ask('a follow-up on orders-worker: how many replicas does it have now?');
    expect(plain.question).toBeUndefined();
  }, 60_000);
});

describe("the kubelet's probes, what another alert is about, and the node of what was just named", () => {
  // sessions-redis slows 38 minutes before the end; cart's liveness probes fail from then; CPUThrottlingHigh is chronic on recommendations.
  const liveness = stagedScenario('cart-liveness-slow-redis');
  // catalog-sync takes 1.1 cores on the node of an inventory pod from about 40 minutes before the end.
  const burst = stagedScenario('inventory-liveness-unexplained');

  it('reads the memory of a Redis its callers call from its exporter', async () => {
    const { conclusion } = await liveness.ask('how much memory is sessions-redis using?');
    const used = /^The memory use of sessions-redis is ([\d.]+) GiB now/m.exec(conclusion.summary);
    expect(used).not.toBeNull();
    const want = await liveness.value('sum(redis_memory_used_bytes{redis="sessions-redis"})');
    expect(Math.abs(Number(used![1]) * 1024 ** 3 - want)).toBeLessThanOrEqual(want * 0.02);
  }, 60_000);

  it("dates when the kubelet's liveness probes began to fail, and counts them over a range", async () => {
    const { conclusion } = await liveness.ask("when did cart's liveness probes start failing?");
    const rose = /^The number of failed kubelet probes per 5 minutes of cart rose from 0 to [\d.]+ at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(
      conclusion.summary,
    );
    expect(rose).not.toBeNull();
    expect(Math.abs(minutesBefore(rose![1], liveness.end()) - 37)).toBeLessThanOrEqual(2);
    const { conclusion: counted } = await liveness.ask('how many probe failures did cart have in the last 10 minutes?');
    const n = /^cart had (\d+) failures of the kubelet probes /.exec(counted.summary);
    const want = await liveness.value('sum(increase(prober_probe_total{pod=~"cart-.*", result="failed"}[10m]))');
    expect(Math.abs(Number(n?.[1]) - want)).toBeLessThanOrEqual(Math.max(2, want * 0.1));
  }, 60_000);

  it('says what another alert is about from its rule, and a follow-up about "it" reads that workload', async () => {
    const asked = 'CPUThrottlingHigh is also in the group - which workload is that one about? is it cart?';
    const { conclusion } = await liveness.ask(asked);
    // Its active alerts once Prometheus's rule manager has evaluated the rule since the data was staged (30 s), else what its expression returns now.
    expect(conclusion.summary).toMatch(
      /^(CPUThrottlingHigh is active|The condition of CPUThrottlingHigh holds at \d\d:\d\d UTC) for container recommendations; namespace shop; pod recommendations-/,
    );
    expect(conclusion.summary).not.toMatch(/container cart\b/);
    // The node of the pod it names, as kube-state-metrics places it.
    const placed = /; pod (recommendations-[a-z0-9-]+) runs on node (ip-[a-z0-9.-]+)(?:, pod .+)? \[#\d+, #\d+\]$/m.exec(conclusion.summary);
    expect(placed).not.toBeNull();
    expect(await liveness.value(`max(kube_pod_info{pod="${placed![1]}", node="${placed![2]}"})`)).toBe(1);
    const { conclusion: then } = await liveness.ask('how throttled is it right now?', [asked], [conclusion.summary]);
    expect(then.summary).toMatch(/^The share of CPU periods throttled of recommendations /);
  }, 60_000);

  it('answers a measure of a workload and of "that node" as two parts, the node being the one the workload runs on', async () => {
    const { conclusion } = await burst.ask('How much CPU is catalog-sync using, and how busy is that node overall?');
    const [cpu, node] = conclusion.summary.split('\n').filter((l) => /\[#\d+(, #\d+)*\]$/.test(l));
    expect(cpu).toMatch(/^The CPU use of catalog-sync is [\d.]+ cores now/);
    const busy = /^The CPU busy \(a share of its cores\) of (ip-[\d-]+)\S* was ([\d.]+)% at /m.exec(conclusion.summary);
    expect(node).toBeDefined();
    const want = await burst.value(`1 - avg(rate(node_cpu_seconds_total{mode="idle", node=~"${busy![1]}.*"}[5m]))`);
    expect(Math.abs(Number(busy![2]) / 100 - want)).toBeLessThanOrEqual(0.05);
    const home = await burst.value(`count(kube_pod_info{pod=~"catalog-sync.*", node=~"${busy![1]}.*"})`);
    expect(home).toBe(1);
  }, 60_000);
});

describe('follow-ups that name a queue, a pod or a change of the conversation, counters so far, and what no source holds', () => {
  // orders-worker is scaled to zero 44 minutes before the end: the orders queue grows; the emails queue keeps its consumers.
  const scaled = stagedScenario('orders-worker-scaled-to-zero');
  // sessions-redis slows 38 minutes before the end; cart's containers restart from then.
  const liveness = stagedScenario('cart-liveness-slow-redis');
  // billing's ledger client timeout is lowered 37 minutes before the end, as the configuration tool reported.
  const config = stagedScenario('billing-timeout-config-change');
  // accounts' HikariCP pool is exhausted while accountsdb has connections to spare.
  const pool = stagedScenario('accounts-pool-exhausted-harmless-rollout');
  // A resources-only rollout lowers recommendations' CPU limit from 1 to 0.3 cores.
  const throttled = stagedScenario('recommendations-cpu-throttled');

  it('asks the question before of a queue a follow-up names, which no service is called', async () => {
    const asked = 'how old is the oldest message in the orders queue now, in seconds?';
    const { conclusion } = await scaled.ask('same for emails? is that queue still draining', [asked]);
    const age = /^The age of the oldest message waiting in the queue of emails is ([\d.]+) s now/.exec(conclusion.summary);
    expect(age).not.toBeNull();
    // Read at the turn's end, a little after the data's: within a minute of the emails queue's, far from the orders queue's.
    const want = await scaled.value('max(time() - rabbitmq_queue_head_message_timestamp{queue="emails"})');
    expect(Math.abs(Number(age![1]) - want)).toBeLessThanOrEqual(60);
    expect(await scaled.value('max(time() - rabbitmq_queue_head_message_timestamp{queue="orders"})')).toBeGreaterThan(want + 600);
  }, 60_000);

  it("counts a pod's restarts and its workload's so far from their restart counters", async () => {
    const pod = await liveness.labelOf('topk(1, kube_pod_container_status_restarts_total{container="cart"})', 'pod');
    const { conclusion } = await liveness.ask(`restarts on ${pod}? and total across all cart pods?`);
    const [one, all] = [...conclusion.summary.matchAll(/^(\S+) had (\d+) container restarts so far \(its pods' restart counters\) at /gm)];
    expect(one[1]).toBe(pod);
    expect(Number(one[2])).toBe(await liveness.value(`sum(kube_pod_container_status_restarts_total{pod="${pod}"})`));
    expect(all[1]).toBe('cart');
    expect(Number(all[2])).toBe(await liveness.value('sum(kube_pod_container_status_restarts_total{pod=~"cart-.*"})'));
  }, 60_000);

  it('reads "the restarts" of the service whose restarts were asked, not of what was named after it', async () => {
    const { conclusion } = await liveness.ask('when did the restarts begin?', [
      'are the cart pods restarting?',
      'is sessions redis slow? how long do the calls take?',
    ]);
    const began = /^The containers of cart began restarting at ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)/.exec(conclusion.summary);
    expect(began).not.toBeNull();
    expect(Math.abs(minutesBefore(began![1], liveness.end()) - 37)).toBeLessThanOrEqual(3);
  }, 60_000);

  it('dates a configuration change the conversation asked about from its report, and says what no source holds', async () => {
    const { conclusion } = await config.ask('what time did that go out?', ['any config changes pushed to billing in the last hour? what changed?']);
    expect(conclusion.summary).toMatch(
      /^The configuration change "billing: ledger client timeout 2s -> 150ms" \(cfg-8841\) on billing by grace was reported at /,
    );
    expect(Math.abs(minutesBefore(conclusion.summary, config.end()) - 37)).toBeLessThanOrEqual(1);
    const { conclusion: outside } = await config.ask('why did grace push cfg-8841? is there a ticket for it?');
    expect(outside.findings).toEqual([]);
    expect(outside.summary).toMatch(/cannot/);
  }, 60_000);

  it('dates a change the question names by its id from the reported changes, not asking which service it is, and answers the part after it', async () => {
    const { conclusion } = await config.ask('at what time was cfg-8841 rolled out, and when did billing start failing?');
    expect(conclusion.question).toBeUndefined();
    const [change, failing] = conclusion.summary.split('\n');
    expect(change).toMatch(/^The configuration change "billing: ledger client timeout 2s -> 150ms" \(cfg-8841\) on billing by grace .*was reported at /);
    expect(Math.abs(minutesBefore(change, config.end()) - 37)).toBeLessThanOrEqual(1);
    expect(failing).toMatch(/^The error ratio of billing rose /);
    // An id no tool reported is a name like any other: asked about.
    const { conclusion: unknown } = await config.ask('when was chg-4242 applied?');
    expect(unknown.question).toMatch(/chg-4242/);
  }, 60_000);

  it('dates when a CPU limit was lowered from the limit of the pods before and after it', async () => {
    const { conclusion } = await throttled.ask('when did the recommendations cpu limit get changed?');
    const lowered =
      /^The CPU limit of recommendations's containers was 1 core until ((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC), when the first pod with 0\.3 cores started/.exec(
        conclusion.summary,
      );
    expect(lowered).not.toBeNull();
    // The rollout begins 40 minutes before the end.
    expect(Math.abs(minutesBefore(lowered![1], throttled.end()) - 40)).toBeLessThanOrEqual(3);
    // New pods with another limit and the same build: the changes say the version they still run, citing the run that shows it.
    const { conclusion: changed } = await throttled.ask('anything deployed to recommendations? the pods are new');
    const row = /recommendations's CPU limit 1 core → 0\.3 cores \(new pods, still version (\S+)\) \| \d+ min before \| #(\d+), #(\d+) \|/.exec(
      changed.summary,
    );
    expect(row?.[1]).toBe('0.9.4');
  }, 60_000);

  it("names the pool a service's connections wait on, and reads the measure a question asks rather than the one its statement names", async () => {
    const { conclusion } = await pool.ask('what connection pool is it waiting on then', ['accounts requests timing out', 'db looks fine']);
    expect(conclusion.summary).toMatch(/^The connections in use of pool HikariPool-1 \(a share of its size\) of accounts /);
    const { conclusion: db } = await pool.ask(
      'accounts is failing requests. Is the accounts database saturated? What percent of its max_connections is used right now?',
    );
    const share = /^The connections in use \(a share of the most allowed\) of calls to accountsdb (?:is|was) ([\d.]+)%/.exec(db.summary);
    expect(share).not.toBeNull();
    expect(db.summary).not.toMatch(/error ratio/);
  }, 60_000);

  it("reads what of a service's pool is asked: the callers waiting, its size, or timeouts no counter records", async () => {
    const { conclusion: waiting } = await pool.ask('how many threads are waiting for a db connection in accounts rn?');
    const pending = /^The number of callers waiting for a connection of pool HikariPool-1 \(all its pods\) of accounts is (\d+) now/.exec(waiting.summary);
    expect(pending).not.toBeNull();
    expect(Number(pending![1])).toBe(await pool.value('sum(hikaricp_connections_pending{job="accounts"})'));
    // Of each pod: the most any one pod has waiting, not their sum.
    const { conclusion: each } = await pool.ask('how many callers are waiting for a connection per accounts pod?');
    const most = /^The number of callers waiting for a connection of pool HikariPool-1 \(the most of any one pod\) of accounts is (\d+) now/.exec(each.summary);
    expect(Number(most?.[1])).toBe(await pool.value('max(hikaricp_connections_pending{job="accounts"})'));
    expect(Number(most?.[1])).toBeLessThan(Number(pending![1]));
    const { conclusion: size } = await pool.ask('how big is the accounts pool?');
    const max = /^The size \(the connections each pod may open\) of pool HikariPool-1 of accounts is (\d+) now/.exec(size.summary);
    expect(Number(max?.[1])).toBe(await pool.value('max(hikaricp_connections_max{job="accounts"})'));
    const { conclusion: timeouts } = await pool.ask('any pool timeouts on accounts? ballpark is fine');
    expect(timeouts.findings).toEqual([]);
    expect(timeouts.summary).toMatch(/^No counter of waits for a connection that timed out .* names accounts/);
  }, 60_000);

  it('answers what consumes a queue with its consumers and the replicas the Deployment named after it wants', async () => {
    const { conclusion } = await scaled.ask('what normally reads the orders queue?');
    const consumers =
      /^The number of consumers \(of the Deployment named after the queue, orders-worker wants (\d+) replicas now\) in the queue of orders is (\d+) now/.exec(
        conclusion.summary,
      );
    expect(Number(consumers?.[1])).toBe(await scaled.value('max(kube_deployment_spec_replicas{deployment="orders-worker"})'));
    expect(Number(consumers?.[2])).toBe(await scaled.value('sum(rabbitmq_queue_consumers{queue="orders"})'));
  }, 60_000);

  it('takes "it" after a cause answer for the service whose act the cause was', async () => {
    const { conclusion } = await scaled.ask(
      'at what time were its replicas scaled down?',
      ['how come the orders queue keeps growing?'],
      ['orders-worker was scaled to zero at 06:00 UTC'],
    );
    const fell = /^The number of available replicas of orders-worker fell from \d+ to 0 at (\d\d:\d\d UTC)/.exec(conclusion.summary);
    expect(fell).not.toBeNull();
    expect(Math.abs(minutesBefore(fell![1], scaled.end()) - 44)).toBeLessThanOrEqual(2);
  }, 60_000);
});

describe('counts since an event, their share of all requests, routes a message gives, and the suspect a question names', () => {
  // Each staged Prometheus serves three hours of one scenario.
  const disk = stagedScenario('media-disk-full-flapping-alert');
  // (A second scenario.)
  const redis = stagedScenario('sessions-redis-down-flapping-alert');
  // (A third.)
  const harmless = stagedScenario('inventory-down-harmless-rollout');
  // (A fourth.)
  const bad = stagedScenario('checkout-bad-version');

  it('counts failed requests since an event dated as the question of when it happened, and their share in a follow-up', async () => {
    const asked = 'how many uploads failed since the media disk filled up?';
    const { conclusion } = await disk.ask(asked);
    // ("Uploads" is the route /api/uploads: the count is of it.)
    const count = /^media had (\d+) failed requests on \/api\/uploads since the media disk filled up \(((\d{4}-\d\d-\d\d )?\d\d:\d\d UTC)\)/.exec(
      conclusion.summary,
    );
    expect(count).not.toBeNull();
    // The disk fills 37 minutes before the end; the count is that of media's failures since.
    expect(Math.abs(minutesBefore(count![2], disk.end()) - 37)).toBeLessThanOrEqual(2);
    const minutes = Math.round(minutesBefore(count![2], disk.end()));
    const want = await disk.value(`sum(increase(http_requests_total{job="media", route="/api/uploads", code=~"5.."}[${minutes}m]))`);
    expect(Math.abs(Number(count![1]) - want) / want).toBeLessThan(0.1);
    const { conclusion: share } = await disk.ask('and what % of all media requests is that in the same window?', [asked], [conclusion.summary]);
    // ("Of all media requests": of every route's.)
    const ratio =
      /^The failed requests on \/api\/uploads since the media disk filled up \([^)]*\) were ([\d.]+)% of all of media's requests: (\d+) of (\d+)/.exec(
        share.summary,
      );
    expect(ratio).not.toBeNull();
    const all = await disk.value(`sum(increase(http_requests_total{job="media"}[${minutes}m]))`);
    expect(Math.abs(Number(ratio![1]) / 100 - want / all)).toBeLessThan(0.05);
  }, 90_000);

  it('answers a count and its share of all requests asked in one message, each as its own part', async () => {
    const { conclusion } = await redis.ask('how many cart requests failed since sessions-redis went down, and what % of cart traffic is that?');
    const [count, share] = conclusion.summary.split('\n');
    expect(count).toMatch(/^cart had \d+ failed requests since /);
    const ratio = /^([\d.]+)% of cart's requests failed since /.exec(share);
    expect(ratio).not.toBeNull();
    // Nine in ten of cart's requests fail once its Redis is down.
    expect(Number(ratio![1])).toBeGreaterThan(80);
  }, 90_000);

  it('says what the investigation ruled out of the release a question of the cause names', async () => {
    const { conclusion } = await harmless.ask('someone noticed a checkout release right before the 503s started. is the release the problem?');
    expect(conclusion.summary).toMatch(/^inventory, which checkout calls, went down/);
    expect(conclusion.summary).toMatch(/\nNot the cause: The new build \([^)]*version="2\.14\.4"\)/);
  }, 120_000);

  it('reads the route a statement gives, of the service that serves it, whatever else the statement names', async () => {
    const { conclusion } = await bad.ask(
      "we're a partner integrating with your checkout API and our POST /api/checkout calls come back 'HTTP 500'. what failure rate are you seeing on that endpoint?",
    );
    expect(conclusion.summary).not.toMatch(/partner-bank/);
    const route = /\/api\/checkout (?:is |was )?([\d.]+)%/.exec(conclusion.summary);
    expect(route).not.toBeNull();
    const want = await bad.value(
      'sum(rate(http_requests_total{job="checkout", route="/api/checkout", code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout", route="/api/checkout"}[5m]))',
    );
    expect(Math.abs(Number(route![1]) / 100 - want)).toBeLessThan(0.03);
  }, 90_000);

  it('asks which service is meant when the subject is a word no dictionary holds, though the clause after it names a known one', async () => {
    const { conclusion } = await disk.ask('is the thumbnailer that resizes media uploads down as well?');
    expect(conclusion.question).toMatch(/^I could not find "thumbnailer" among the services and jobs the sources know\. Which of these do you mean: media, /);
  }, 60_000);

  it('says how the requests of a route named by its business word fail', async () => {
    const { conclusion } = await disk.ask('which status codes are the failing uploads getting?');
    expect(conclusion.summary).toMatch(/^\| \/api\/uploads \| /m);
    expect(conclusion.summary).toMatch(/^The failing outcomes of media now, the most first: code="507"/m);
  }, 60_000);
});

describe('what an SLO counts: requests slower than a duration, availability, statistics side by side, replicas serving, a queue in two parts, pods by pod', () => {
  // search 3.3.0 is slow from 40 minutes before the end.
  const slow = stagedScenario('search-slow-version-chronic-alert');
  // (A second scenario: orders-worker scaled to zero, its queue filling.)
  const scaled = stagedScenario('orders-worker-scaled-to-zero');
  // (A third: a neighbour starves one of search's two nodes of CPU.)
  const noisy = stagedScenario('search-noisy-neighbour');

  it("reads the share of requests slower than a duration from the latency histogram's buckets, over the range asked", async () => {
    const { conclusion } = await slow.ask("what % of search's requests took longer than 1 second over the last 30 minutes?");
    const share = /^([\d.]+)% of search's requests took longer than 1 s from /.exec(conclusion.summary);
    expect(share).not.toBeNull();
    const bucket = (le: string) => `sum(increase(http_request_duration_seconds_bucket{job="search", le=~"${le}"}[30m]))`;
    const want = await slow.value(`(${bucket('\\\\+Inf')} - ${bucket('1(\\\\.0)?')}) / ${bucket('\\\\+Inf')}`);
    expect(want).toBeGreaterThan(0);
    expect(Math.abs(Number(share![1]) / 100 - want)).toBeLessThan(0.03);
  }, 90_000);

  it('answers the mean and a percentile asked side by side as two parts, in the order asked', async () => {
    const { conclusion } = await slow.ask('search latency right now: average and p99? the avg alone hides the tail');
    const [mean, p99] = conclusion.summary.split('\n');
    expect(mean).toMatch(/^The mean latency of search is [\d.]+ m?s now/);
    expect(p99).toMatch(/^The p99 latency of search is [\d.]+ m?s now/);
    const seconds = (line: string): number => {
      const [, v, unit] = / is ([\d.]+) (ms|s) now/.exec(line)!;
      return Number(v) / (unit === 'ms' ? 1000 : 1);
    };
    const want = await slow.value(
      'sum(rate(http_request_duration_seconds_sum{job="search"}[5m])) / sum(rate(http_request_duration_seconds_count{job="search"}[5m]))',
    );
    expect(Math.abs(seconds(mean) - want) / want).toBeLessThan(0.05);
    expect(seconds(p99)).toBeGreaterThan(seconds(mean));
  }, 90_000);

  it('reads availability as the share of requests that succeeded over the range, both counts shown', async () => {
    const { conclusion } = await slow.ask("what's search's availability over the last 30 min?");
    const availability = /^The availability of search from .*: ([\d.]+)% of its requests succeeded \((\d+) of (\d+) failed\)/.exec(conclusion.summary);
    expect(availability).not.toBeNull();
    const failed = await slow.value('sum(increase(http_requests_total{job="search", code=~"5.."}[30m]))');
    const all = await slow.value('sum(increase(http_requests_total{job="search"}[30m]))');
    expect(Math.abs(Number(availability![1]) / 100 - (1 - failed / all))).toBeLessThan(0.01);
  }, 90_000);

  it('gives each pod\'s node beside a measure asked pod by pod, reads "the other" pod after it, and a pod named by its own suffix', async () => {
    const asked = 'give me p99 per search pod and the node each one is on';
    const { conclusion } = await noisy.ask(asked);
    const rows = [...conclusion.summary.split('\n')[0].matchAll(/(search-[a-z0-9]+-[a-z0-9]+) \(on (ip-[^)]+)\) [\d.]+ m?s/g)];
    expect(rows).toHaveLength(2);
    for (const [, pod, node] of rows) expect(await noisy.labelOf(`kube_pod_info{pod="${pod}"}`, 'node')).toBe(node);
    const { conclusion: other } = await noisy.ask("and what does the other search pod's p99 look like?", [asked], [conclusion.summary]);
    expect(other.summary).toMatch(new RegExp(`^The p99 latency of ${rows[1][1]} is `));
    const suffix = rows[1][1].split('-').at(-1)!;
    const { conclusion: bySuffix } = await noisy.ask(`what's the ${suffix} pod's p99 right now?`);
    expect(bySuffix.summary).toMatch(new RegExp(`^The p99 latency of ${rows[1][1]} is `));
  }, 120_000);

  it("counts the replicas serving from the workload's available replicas, and answers a queue's depth and its oldest message's age as two parts", async () => {
    const { conclusion: replicas } = await scaled.ask('how many orders-worker replicas are actually serving right now?');
    expect(replicas.summary).toMatch(/^The number of available replicas of orders-worker is 0 now/);
    const { conclusion: queue } = await scaled.ask('how many messages are waiting in the orders queue now, and how old is the oldest one?');
    const [depth, age] = queue.summary.split('\n');
    const waiting = /^The number of messages waiting in the queue of orders is (\d+) now/.exec(depth);
    expect(waiting).not.toBeNull();
    expect(Math.abs(Number(waiting![1]) - (await scaled.value('sum(rabbitmq_queue_messages_ready{queue="orders"})'))) / Number(waiting![1])).toBeLessThan(0.05);
    expect(age).toMatch(/^The age of the oldest message waiting in the queue of orders is [\d.]+ (s|ms) now/);
  }, 90_000);
});

describe("what words mean, the pods' restarts and last terminations, calls to the database by kind, each pod against its limits, and why beyond the data", () => {
  // checkout's memory limit was lowered: its new pods are OOM-killed.
  const lowered = stagedScenario('checkout-memory-limit-lowered');
  // A report holds transactions open on ordersdb until its connections reach max_connections; orders fails to get connections.
  const exhausted = stagedScenario('ordersdb-connections-exhausted');
  // recommendations' CPU limit was lowered to 0.3 cores: it is throttled.
  const throttled = stagedScenario('recommendations-cpu-throttled');
  // A node went NotReady.
  const notReady = stagedScenario('node-not-ready');

  it("lists a workload's pods with how often each restarted and how its containers last ended, when they did", async () => {
    const { conclusion } = await lowered.ask('customers get 502s from checkout on and off. are your checkout pods even up?');
    const listed =
      /^(\d+) pod\(s\) of checkout at \d\d:\d\d UTC, on \d+ node\(s\): [^;]+; (\d+) of them restarted(?:, ([^(]+))? \((\d+) restarts in all, last terminated: OOMKilled\)/.exec(
        conclusion.summary,
      );
    expect(listed).not.toBeNull();
    // A few pods that restarted are named: each one a checkout pod of the table with restarts.
    if (Number(listed![2]) <= 3)
      for (const pod of listed![3].split(', ')) expect(conclusion.summary).toMatch(new RegExp(`^\\| ${pod} \\| ip-[^|]+ \\| [^|]+ \\| [1-9]\\d* \\|`, 'm'));
    expect(Number(listed![4])).toBe(Math.round(await lowered.value('sum(kube_pod_container_status_restarts_total{pod=~"checkout-.*"})')));
    expect(conclusion.summary).toMatch(/^\| pod \| node \| version \| restarts \| last terminated \| waiting \|$/m);
    expect(conclusion.summary).toMatch(/^\| checkout-[a-z0-9]+-[a-z0-9]+ \| ip-[^|]+ \| [^|]+ \| [1-9]\d* \| OOMKilled \| /m);
    // "last terminated reason" asks the same table.
    const { conclusion: reason } = await lowered.ask("what's the last terminated reason of the checkout pods?");
    expect(reason.summary).toMatch(/last terminated: OOMKilled/);
  }, 90_000);

  it('reads the calls to "the db" as the calls to the database the service calls, and how they fail', async () => {
    const { conclusion } = await exhausted.ask("how are orders' calls to the db actually failing?");
    expect(conclusion.summary).toMatch(/^The error ratio of calls of orders to ordersdb is [\d.]+% now/);
    expect(conclusion.summary).toMatch(/^The failing outcomes of calls of orders to ordersdb now, the most first: code="too_many_connections" \[#\d+\]$/m);
    // The connections of a service without a pool of its own are those it holds on the database it calls.
    const { conclusion: held } = await exhausted.ask("how full are orders' connections?");
    const share = /^The connections in use \(a share of the most allowed\) of ordersdb, the database of orders is ([\d.]+)% now/.exec(held.summary);
    expect(share).not.toBeNull();
    const want = await exhausted.value('sum(pg_stat_activity_count{server="ordersdb:5432"}) / max(pg_settings_max_connections{server="ordersdb:5432"})');
    expect(Math.abs(Number(share![1]) / 100 - want)).toBeLessThan(0.01);
  }, 90_000);

  it('answers the rest of a message that asks what a word means, then says what it means, with no number of its own', async () => {
    const { conclusion } = await throttled.ask('newbie q: what is CPU throttling? and how many cores is each recommendations pod using vs its limit?');
    const [answer, meaning] = conclusion.summary.split('\n');
    const pods = [...answer.matchAll(/(recommendations-[a-z0-9]+-[a-z0-9]+) ([\d.]+) cores of ([\d.]+) cores \(([\d.]+)%\)/g)];
    expect(answer).toMatch(/^The CPU use of recommendations's pods against their limits at \d\d:\d\d UTC, the closest first: /);
    expect(pods.length).toBeGreaterThan(0);
    for (const [, pod, used, limit] of pods) {
      const want = await throttled.value(`sum(rate(container_cpu_usage_seconds_total{pod="${pod}", container!=""}[5m]))`);
      expect(Math.abs(Number(used) - want)).toBeLessThan(0.01);
      expect(Number(limit)).toBe(await throttled.value(`sum(kube_pod_container_resource_limits{pod="${pod}", resource="cpu"})`));
    }
    expect(meaning).toMatch(/^CPU throttling: /);
    expect(meaning).not.toMatch(/\d/);
    // A value asked in the same words is no meaning asked: "what is the throttling of recommendations?" reads it.
    const { conclusion: value } = await throttled.ask('what is the throttling of recommendations now?');
    expect(value.summary).not.toMatch(/^CPU throttling: /m);
    // A message that only asks a meaning is answered with it alone, citing nothing.
    const { conclusion: only } = await throttled.ask("what's a liveness probe?");
    expect(only.summary).toMatch(/^A liveness probe: /);
    expect(only.findings).toHaveLength(0);
  }, 90_000);

  it('says the data cannot tell which of the mechanisms a why lists beyond what the metrics record', async () => {
    const { conclusion } = await notReady.ask('why did that node die though? hardware fault, kernel panic?');
    expect(conclusion.summary).toMatch(/^This cannot be answered from the data/);
    expect(conclusion.findings).toHaveLength(0);
  }, 90_000);
});

describe('PromQL given to evaluate, words of the language where a name may stand, typos, the cause asked over a measure, and when it started', () => {
  const { ask, value } = stagedScenario('checkout-bad-version');

  it('evaluates an expression the question gives as it is written, and cites the run that did', async () => {
    const expr = 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[5m])) / sum(rate(http_requests_total{job="checkout"}[5m]))';
    const { conclusion, runs } = await ask(`${expr} pls`);
    const stated = /^`(.+)` is (\d+(?:\.\d+)?) now \(\d\d:\d\d UTC\) \[#(\d+)\]$/m.exec(conclusion.summary);
    expect(stated?.[1]).toBe(expr);
    // (The answer reads at the turn's own time, seconds after the data's end: as the other reads here, within a tenth.)
    const want = await value(expr);
    expect(Math.abs(Number(stated?.[2]) - want)).toBeLessThanOrEqual(want * 0.1);
    expect(runs.find((r) => r.ordinal === Number(stated?.[3]))?.arguments.query).toBe(expr);
  }, 60_000);

  it('evaluates arithmetic whose sides share no labels matched on no labels, and says so', async () => {
    const expr = 'sum(rate(http_requests_total{job="checkout"}[5m])) / kube_deployment_spec_replicas{deployment="checkout"}';
    const { conclusion } = await ask(`what does ${expr} give now?`);
    expect(conclusion.summary).toMatch(/^`.+` returns no series at \d\d:\d\d UTC: the two sides of its operator have no label set in common/m);
    const matched = 'sum(rate(http_requests_total{job="checkout"}[5m])) / on() kube_deployment_spec_replicas{deployment="checkout"}';
    const stated = /^`(.+)` is (\d+(?:\.\d+)?) now/m.exec(conclusion.summary);
    expect(stated?.[1]).toBe(matched);
    const want = await value(matched);
    expect(Math.abs(Number(stated?.[2]) - want)).toBeLessThanOrEqual(want * 0.1);
  }, 60_000);

  it('reads people and words of the language after a preposition as words, not as names to ask about; a misspelt name is asked about', async () => {
    const { conclusion } = await ask('what share of shoppers on the storefront get errors right now?');
    expect(conclusion.question).toBeUndefined();
    expect(conclusion.summary).toMatch(/^The error ratio of checkout is \d+(\.\d+)?% now/);
    expect(conclusion.limitations.map((l) => l.statement)).toContain('Nothing named storefront was found in the sources');
    const typo = await ask('chekout status?');
    expect(typo.conclusion.question).toMatch(/^I could not find "chekout" .* Which of these do you mean: checkout[,?]/);
  }, 120_000);

  it('answers the cause when it is asked beside a measure, and when the trouble started before when the alert held', async () => {
    const { conclusion } = await ask('checkout errors: root cause?');
    expect(conclusion.summary).toMatch(/2\.15\.0/);
    expect(conclusion.summary).not.toMatch(/^The error ratio of checkout is/);
    const started = await ask('catching up on the overnight page. when did this begin?');
    // (A time carries its date when it is not the day the window ends, which is the day before: it sorts first.)
    const sortable = (t: string | undefined) => (t === undefined ? undefined : t.length > 5 ? `0${t}` : `1${t}`);
    const [rose, held] = [
      sortable(/^The error ratio of checkout rose from .+ at ((?:\d{4}-\d\d-\d\d )?\d\d:\d\d) UTC \[#\d+(, #\d+)*\]$/m.exec(started.conclusion.summary)?.[1]),
      sortable(
        /^The condition of CheckoutHighErrorRate \(the incident's alert\) has held since ((?:\d{4}-\d\d-\d\d )?\d\d:\d\d) UTC/m.exec(
          started.conclusion.summary,
        )?.[1],
      ),
    ];
    expect(rose).toBeDefined();
    expect(held).toBeDefined();
    expect(rose! <= held!).toBe(true);
  }, 120_000);
});
