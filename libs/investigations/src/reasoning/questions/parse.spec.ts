import { describe, expect, it } from 'vitest';
import { followingUp, parseQuestion, questionParts } from './parse';

describe('parseQuestion', () => {
  it('reads a question about the logs, with the workload it names and none of its own words as names', () => {
    expect(parseQuestion('what do the logs of inventory say?')).toMatchObject({ kind: 'logs', words: ['inventory'] });
    expect(parseQuestion('any errors or stack traces logged since it started?')).toMatchObject({ kind: 'logs', words: [] });
    expect(parseQuestion('why is checkout failing? show me its log lines')).toMatchObject({ kind: 'logs', words: ['checkout'] });
    // A catalog is no log.
    expect(parseQuestion('what is the error rate of catalog?').kind).toBe('signals');
  });

  it('reads a split by route since a version', () => {
    const q = parseQuestion('is the regression limited to /api/search or are other routes slower too since 3.3.0?');
    expect(q).toMatchObject({ kind: 'signals', signals: ['latency'], compare: true, byRoute: true, routes: ['/api/search'], versions: ['3.3.0'], words: [] });
  });

  it('reads several signals over a range, compared', () => {
    const q = parseQuestion('what is the request rate and error rate of search over the last hour, did errors go up too?');
    expect(q).toMatchObject({ kind: 'signals', signals: ['rate', 'errors'], compare: true, byRoute: false, rangeMinutes: 60, words: ['search'] });
  });

  it('reads a listing of pods and nodes running a version', () => {
    const q = parseQuestion('which pods run 3.3.0 and on which nodes?');
    expect(q).toMatchObject({ kind: 'which', listings: ['pods', 'nodes'], versions: ['3.3.0'], words: [] });
  });

  it('reads percentiles, ranges in words and numbers, and CPU and memory', () => {
    expect(parseQuestion("what's the p95 latency of checkout in the past 30 minutes?")).toMatchObject({
      kind: 'signals',
      signals: ['latency'],
      percentile: 0.95,
      rangeMinutes: 30,
      words: ['checkout'],
    });
    expect(parseQuestion('how much cpu and memory does cart use over the last 2 hours')).toMatchObject({
      signals: ['cpu', 'memory'],
      rangeMinutes: 120,
      words: ['cart'],
    });
    expect(parseQuestion('error rate of payments, last day')).toMatchObject({ signals: ['errors'], rangeMinutes: 1440, words: ['payments'] });
  });

  it('tells the cause, what to do, and what it cannot read apart', () => {
    expect(parseQuestion('why did checkout start failing?').kind).toBe('cause');
    expect(parseQuestion('why is search this slow?').kind).toBe('cause');
    expect(parseQuestion('what caused this?').kind).toBe('cause');
    expect(parseQuestion('what should we do now?').kind).toBe('actions');
    expect(parseQuestion('should we roll back?').kind).toBe('actions');
    expect(parseQuestion('hello there').kind).toBe('unknown');
  });

  it('notes references to what the conversation named before, and keeps them out of the subjects', () => {
    expect(parseQuestion('and its latency?')).toMatchObject({ kind: 'signals', refers: true, words: [] });
    expect(parseQuestion('on which nodes do those pods run?')).toMatchObject({ kind: 'which', listings: ['pods', 'nodes'], refers: true, words: [] });
    expect(parseQuestion('what is the error rate of search?').refers).toBe(false);
  });

  it('tells the words standing where a name stands from the verbs and adjectives of the question', () => {
    // Where names stand: after "of", "is", "does … call", before "service", with a possessive, first, or shaped like one.
    expect(parseQuestion('what is the latency of the billing service?').placedAsNames).toEqual(['billing']);
    expect(parseQuestion("is fraud-check hit too? and billing's errors?").placedAsNames).toEqual(['fraud-check', 'billing']);
    expect(parseQuestion('warehouse latency over the last hour').placedAsNames).toEqual(['warehouse']);
    // Elsewhere: a word of the question, kept among the words (it may still be a typo of a known name).
    expect(parseQuestion('when did the checkout errors start creeping up?')).toMatchObject({ words: ['checkout', 'creeping'], placedAsNames: ['checkout'] });
    expect(parseQuestion('where are the errors originating?')).toMatchObject({ words: ['originating'], placedAsNames: [] });
    expect(parseQuestion('how bad is it for checkout?').placedAsNames).toEqual(['checkout']);
  });

  it("reads CPU or memory asked against the containers' limits", () => {
    expect(parseQuestion('how close is orders to its memory limit?')).toMatchObject({
      kind: 'signals',
      signals: ['memory'],
      againstLimit: true,
      placedAsNames: ['orders'],
    });
    expect(parseQuestion('cpu of search vs its quota')).toMatchObject({ signals: ['cpu'], againstLimit: true });
    expect(parseQuestion('what is the memory use of orders?').againstLimit).toBe(false);
    // The limit itself, and the throttling of the CPU, are measures of their own.
    expect(parseQuestion('what is the cpu limit of recommendations?')).toMatchObject({ signals: ['cpu'], limitValue: true });
    expect(parseQuestion('how close is orders to its memory limit?').limitValue).toBe(false);
    expect(parseQuestion('how much cpu throttling does recommendations have?').signals).toEqual(['throttling']);
  });

  it('splits a message into its questions when they are of different kinds, and only then', () => {
    const parts = questionParts("which pods are hit and what's their p99?");
    expect(parts.map((p) => [p.text, p.asked.kind])).toEqual([
      ['which pods are hit', 'which'],
      ["what's their p99", 'signals'],
    ]);
    expect(parts[1].asked.refers).toBe(true);
    expect(questionParts('what changed? when did it begin?').map((p) => p.asked.kind)).toEqual(['changes', 'when']);
    // Measures of different subjects: each of its own.
    expect(questionParts("what's the p99 of search and what's the error rate of cart?").map((p) => [p.text, p.asked.signals, p.asked.words])).toEqual([
      ["what's the p99 of search", ['latency'], ['search']],
      ["what's the error rate of cart", ['errors'], ['cart']],
    ]);
    expect(questionParts('how much CPU is catalog-sync using, and how busy is that node?').map((p) => p.asked.refersNode)).toEqual([false, true]);
    // One question with an "and" inside it, several of one kind of one subject, or a part not understood alone: none.
    expect(questionParts('which pods run 3.3.0 and on which nodes?')).toEqual([]);
    expect(questionParts("what's the p99 of search and what's its error rate?")).toEqual([]);
    expect(questionParts('hello and what changed?')).toEqual([]);
  });

  it('reads when something started and whether it still holds, with the signal it names', () => {
    expect(parseQuestion('when did the checkout errors start?')).toMatchObject({ kind: 'when', signals: ['errors'], words: ['checkout'] });
    expect(parseQuestion('is it still slow?')).toMatchObject({ kind: 'when', signals: ['latency'], refers: true, words: [] });
    expect(parseQuestion('since when is inventory down?')).toMatchObject({ kind: 'when', signals: ['down'], words: ['inventory'] });
    // Restarts come before memory: an OOM kill is a restart.
    expect(parseQuestion('when did the OOM kills begin?')).toMatchObject({ kind: 'when', signals: ['restarts', 'memory'], words: [] });
    expect(parseQuestion('is it still happening?')).toMatchObject({ kind: 'when', signals: [] });
    // "went down" is a direction, not a target down.
    expect(parseQuestion('did the errors of cart go down?').signals).toEqual(['errors']);
  });

  it('reads what changed, with the range it names', () => {
    expect(parseQuestion('what changed before checkout started failing?')).toMatchObject({ kind: 'changes', words: ['checkout'] });
    expect(parseQuestion('were there any deploys in the last hour?')).toMatchObject({ kind: 'changes', rangeMinutes: 60, words: [] });
    expect(parseQuestion('what was deployed recently?').kind).toBe('changes');
    expect(parseQuestion('was anything deployed around then?').kind).toBe('changes');
    expect(parseQuestion('did anything change before the alert?').kind).toBe('changes');
  });

  it('reads whether two services are related, and tells a call apart from how much a service uses', () => {
    expect(parseQuestion('is inventory related to the checkout errors?')).toMatchObject({ kind: 'related', words: ['inventory', 'checkout'] });
    expect(parseQuestion('does orders use ordersdb?')).toMatchObject({ kind: 'related', words: ['orders', 'ordersdb'] });
    expect(parseQuestion('do search and recommendations share a node?')).toMatchObject({ kind: 'related', words: ['search', 'recommendations'] });
    expect(parseQuestion('how much cpu does cart use over the last 2 hours').kind).toBe('signals');
    expect(parseQuestion('how much memory does orders use?').kind).toBe('signals');
  });

  it('reads a listing of what a service calls or what calls it apart from a relation of two', () => {
    expect(parseQuestion('what does checkout depend on?')).toMatchObject({ kind: 'which', listings: ['peers'], words: ['checkout'] });
    expect(parseQuestion('who calls inventory?')).toMatchObject({ kind: 'which', listings: ['peers'], words: ['inventory'] });
    expect(parseQuestion('does checkout depend on partner-bank?').kind).toBe('related');
    expect(parseQuestion('which routes does search serve?')).toMatchObject({ kind: 'which', listings: ['routes'] });
  });

  it('tells a question of what the cluster says (its events, a crash, a pod that cannot start) from one of signals', () => {
    expect(parseQuestion('why did checkout crash?')).toMatchObject({ kind: 'cause', asksCluster: true, words: ['checkout'] });
    expect(parseQuestion('what events are there for inventory?')).toMatchObject({ asksCluster: true, words: ['inventory'] });
    expect(parseQuestion('is the payments pod unschedulable?').asksCluster).toBe(true);
    expect(parseQuestion('what is the error rate of checkout?').asksCluster).toBe(false);
    expect(parseQuestion('why is search this slow?').asksCluster).toBe(false);
  });

  it('reads a moment named by what happened then: the start of a change, a rollout, the time of the previous answer', () => {
    // A change of the measure its noun names, or of the question's own; whose it is, kept out of the subjects.
    expect(parseQuestion('what was the p99 of search before the surge started?')).toMatchObject({
      kind: 'signals',
      signals: ['latency'],
      compare: true,
      words: ['search'],
      reference: { kind: 'change', signal: 'rate', words: [], at: false },
    });
    expect(parseQuestion('error ratio of cart since the latency spike').reference).toMatchObject({ kind: 'change', signal: 'latency' });
    expect(parseQuestion('how much traffic did orders get before payments began failing?')).toMatchObject({
      signals: ['rate'],
      words: ['orders'],
      reference: { kind: 'change', signal: 'errors', words: ['payments'] },
    });
    expect(parseQuestion('has the request rate of search gone up since the frontend rollout?')).toMatchObject({
      signals: ['rate'],
      words: ['search'],
      reference: { kind: 'rollout', words: ['frontend'] },
    });
    // "then": the value at the time the previous answer named, or a comparison with it.
    expect(parseQuestion('what was its p99 then?')).toMatchObject({ signals: ['latency'], compare: false, reference: { kind: 'then', at: true } });
    expect(parseQuestion('did errors go up since then?')).toMatchObject({ compare: true, reference: { kind: 'then', at: false } });
    expect(parseQuestion('what was deployed around then?')).toMatchObject({ kind: 'changes', reference: { kind: 'then' } });
    expect(parseQuestion('what is the error rate of checkout?').reference).toBeNull();
  });

  it('reads what runs on a node, a node an earlier answer named, and saturation asked without a measure', () => {
    expect(parseQuestion('what else runs on ip-10-0-2-34?')).toMatchObject({ kind: 'which', listings: ['pods'], onNode: true, words: ['ip-10-0-2-34'] });
    expect(parseQuestion('anything else running there?')).toMatchObject({ kind: 'which', onNode: true, refersNode: true, words: [] });
    expect(parseQuestion('which pods are on that node?')).toMatchObject({ kind: 'which', refersNode: true });
    expect(parseQuestion('what else shares that node?')).toMatchObject({ kind: 'which', onNode: true, refersNode: true });
    expect(parseQuestion('how loaded is node ip-10-0-2-34 right now')).toMatchObject({ kind: 'signals', signals: ['cpu', 'memory'], againstLimit: true });
    expect(parseQuestion('is that host under heavy load?')).toMatchObject({ signals: ['cpu', 'memory'], refersNode: true });
    expect(parseQuestion('is there any error on checkout?')).toMatchObject({ refersNode: false, onNode: false });
    expect(parseQuestion('what events are there?')).toMatchObject({ onNode: false, asksCluster: true });
    expect(parseQuestion("what's on ip-10-0-2-34?").onNode).toBe(true);
  });

  it('reads whether a service is affected as its errors and latency compared, and a follow-up asking the same of something else', () => {
    expect(parseQuestion('is payments affected?')).toMatchObject({ kind: 'signals', signals: ['errors', 'latency'], compare: true, words: ['payments'] });
    expect(parseQuestion('has cart been hit too?')).toMatchObject({ kind: 'signals', also: true, words: ['cart'] });
    expect(parseQuestion('which pods are hit?').kind).toBe('which');
    expect(parseQuestion('did errors rise as well?')).toMatchObject({ signals: ['errors'], compare: true, also: true, reference: null });
  });

  it("reads the grammar's words through a typo, and leaves names and other words alone", () => {
    expect(parseQuestion('whats the latncy of checkout')).toMatchObject({ kind: 'signals', signals: ['latency'], words: ['checkout'] });
    expect(parseQuestion('erors of cart since the deplyoment?')).toMatchObject({ signals: ['errors'], compare: true, words: ['cart'] });
    expect(parseQuestion('whcih pods run 3.3.0?')).toMatchObject({ kind: 'which', listings: ['pods'] });
    expect(parseQuestion('when did the restrats start?')).toMatchObject({ kind: 'when', signals: ['restarts'] });
    // A name one edit from a word of the grammar stays a name when it is shaped like one, and "chekout" is no word of the grammar.
    expect(parseQuestion('latency of errors-api').words).toEqual(['errors-api']);
    expect(parseQuestion("what's the error ratio of chekout?").words).toEqual(['chekout']);
  });

  it('reads counts apart from rates and shares, and failures per second apart from their share', () => {
    expect(parseQuestion('how many requests failed since then?')).toMatchObject({ kind: 'signals', signals: ['errors'], count: true });
    expect(parseQuestion('how many restarts did the cart pods have in the last 30m')).toMatchObject({
      kind: 'signals',
      signals: ['restarts'],
      count: true,
      rangeMinutes: 30,
    });
    expect(parseQuestion('how many requests per second does cart get?')).toMatchObject({ signals: ['rate'], count: false });
    expect(parseQuestion('how many checkout requests failed, as a %?')).toMatchObject({ signals: ['errors'], count: false, failedPerSecond: false });
    expect(parseQuestion('how many reqs/s of checkout r failing rn')).toMatchObject({ signals: ['errors'], count: false, failedPerSecond: true });
  });

  it('reads what no source records as such, and who deployed as a question of changes', () => {
    expect(parseQuestion('who approved the 3.3.0 rollout?').kind).toBe('outside');
    expect(parseQuestion('did anyone sign off on it?').kind).toBe('outside');
    expect(parseQuestion('which thread is stuck in inventory?').kind).toBe('outside');
    expect(parseQuestion('who deployed checkout recently?').kind).toBe('changes');
  });

  it('reads calls to a dependency, the mean latency, disks with their mounts, and chat shorthand', () => {
    expect(parseQuestion("what % of billing's calls to ledger time out")).toMatchObject({ kind: 'signals', signals: ['errors'], callee: 'ledger' });
    expect(parseQuestion('avg latency of carts redis calls')).toMatchObject({ signals: ['latency'], callee: 'redis', mean: true });
    expect(parseQuestion('how full is / on that box')).toMatchObject({ kind: 'signals', signals: ['disk'], routes: ['/'], refersNode: true, size: false });
    expect(parseQuestion('how big is /var/lib/media?')).toMatchObject({ signals: ['disk'], routes: ['/var/lib/media'], size: true });
    expect(parseQuestion('recs cpu limit b4 the rollout?')).toMatchObject({ signals: ['cpu'], limitValue: true, before: true });
    expect(parseQuestion('checkout errs rn').signals).toEqual(['errors']);
  });

  it('reads whether what was just named is the cause as a question of the cause', () => {
    expect(parseQuestion('the disk on that node is full, is that it?').kind).toBe('cause');
    expect(parseQuestion('could this be the culprit?').kind).toBe('cause');
    expect(parseQuestion('is that what is causing the errors').kind).toBe('cause');
    expect(parseQuestion('is it still failing?').kind).toBe('when');
  });

  it('reads connections refused, reset or timed out as failed calls, not as connections held', () => {
    expect(parseQuestion('how many connections does ordersdb have vs max_connections')).toMatchObject({ signals: ['connections'] });
    expect(parseQuestion('any connection refused errors from statements?').signals).toEqual(['errors']);
    expect(parseQuestion('statements conn resets to archive rn').signals).toEqual(['errors']);
  });

  it('reads the question past the pleasantries and the clause that says who asks or what for', () => {
    expect(parseQuestion('Good morning. For the status page, when did this begin?')).toMatchObject({ kind: 'when', words: [] });
    expect(parseQuestion('Thanks! which nodes run 2.15.0?')).toMatchObject({ kind: 'which', words: [], versions: ['2.15.0'] });
    expect(parseQuestion('As the incident commander I need the start time for my update: when did cart start failing?')).toMatchObject({
      kind: 'when',
      words: ['cart'],
    });
  });

  it('reads chat shorthand, "&" and "+" joining two questions, and counts asked as totals', () => {
    expect(parseQuestion('wen did it start')).toMatchObject({ kind: 'when' });
    expect(parseQuestion('wich pods r on wat nodes')).toMatchObject({ kind: 'which', listings: ['pods', 'nodes'] });
    expect(parseQuestion('cart errs/s rn')).toMatchObject({ signals: ['errors'], failedPerSecond: true, words: ['cart'] });
    expect(questionParts('checkout err % rn + wen did it start').map((p) => p.asked.kind)).toEqual(['signals', 'when']);
    expect(parseQuestion('total inventory restarts so far')).toMatchObject({ signals: ['restarts'], count: true });
    expect(parseQuestion('cart restarts last 15m')).toMatchObject({ signals: ['restarts'], count: true, rangeMinutes: 15 });
    expect(parseQuestion('restarts in the past half hour')).toMatchObject({ count: true, rangeMinutes: 30 });
  });

  it('reads what no source records about people, money and intent as such, without taking "for our users" for one', () => {
    for (const q of [
      'which of our enterprise customers rely most on search?',
      'how much revenue have we lost?',
      'which engineer is on call for orders?',
      'was that scale-down intentional?',
      'kubectl or a pipeline?',
    ])
      expect(parseQuestion(q).kind, q).toBe('outside');
    expect(parseQuestion('how slow is search for our users at the 99th percentile?')).toMatchObject({ kind: 'signals', percentile: 0.99 });
    expect(parseQuestion("users were getting 500s, what's the error rate of checkout?").kind).toBe('signals');
    expect(parseQuestion('who pushed this?')).toMatchObject({ kind: 'changes', asksWho: true });
  });

  it('reads route words, writes and reads, a name written with a space, and a limit compared in time', () => {
    expect(parseQuestion('what share of uploads are failing?')).toMatchObject({ signals: ['errors'], routeWords: ['uploads'] });
    expect(parseQuestion('is the status route slow too?').routeWords).toContain('status');
    expect(parseQuestion('ledger writes failing % rn')).toMatchObject({ method: 'write', words: ['ledger'] });
    expect(parseQuestion('when did the orders worker stop running?')).toMatchObject({ kind: 'when', signals: ['replicas'], compounds: ['orders-worker'] });
    expect(parseQuestion('CPU limit on recommendations now vs before the rollout?')).toMatchObject({ limitValue: true, before: true });
    expect(parseQuestion('How busy is the node from before at present?')).toMatchObject({ compare: false, refersNode: true });
  });

  it('reads a question after statements about what it names, and the parts of a request for a status update', () => {
    expect(parseQuestion('We also had a frontend alert earlier. Leaving that aside, when did media start failing?').words[0]).toBe('media');
    const parts = questionParts(
      'For the status page I need: when the checkout errors began, what share of checkout requests fail now, and which service checkout is struggling to reach.',
    );
    expect(parts.map((p) => p.asked.kind)).toEqual(['when', 'signals', 'which']);
    expect(parts[2].asked.listings).toEqual(['peers']);
    expect(
      questionParts('when did this begin and roughly what share of checkout requests fail? Could you give me both, please?').map((p) => p.asked.kind),
    ).toEqual(['when', 'signals']);
  });

  it('reads node failures, the other replica, a value asked since a moment, and measures no signal covers', () => {
    expect(parseQuestion('wich node died')).toMatchObject({ kind: 'which', nodeHealth: true });
    expect(parseQuestion('when did it go notready?')).toMatchObject({ kind: 'when', nodeHealth: true });
    expect(parseQuestion('and the other replica?')).toMatchObject({ other: true });
    expect(parseQuestion("what's payments' 5xx share since then?")).toMatchObject({ valueFirst: true, compare: true });
    expect(parseQuestion('did payments errors go up since then?')).toMatchObject({ valueFirst: false, compare: true });
    expect(parseQuestion('how many inodes are left on /var/lib/media?').runtime?.what).toBe('inodes');
    expect(parseQuestion('what are the cpu requests of recommendations?').runtime?.what).toBe('resource requests');
    expect(parseQuestion('what is the request rate of search?').runtime).toBeNull();
  });

  it('reads the cause, what to do and what no source records when they are asked in other words', () => {
    expect(parseQuestion('what is payments actually choking on?').kind).toBe('cause');
    expect(parseQuestion("so what's hurting them?").kind).toBe('cause');
    expect(parseQuestion('was it the config push or not?').kind).toBe('cause');
    expect(parseQuestion('is it us or something downstream of us?').kind).toBe('cause');
    expect(parseQuestion('what version do we revert it to?').kind).toBe('actions');
    expect(parseQuestion('what do we need to fix first?').kind).toBe('actions');
    expect(parseQuestion('when will the vendor have it fixed?').kind).toBe('outside');
    expect(parseQuestion('which sql is keeping the locks?').kind).toBe('outside');
    // When a certificate expires is in the probe's series.
    expect(parseQuestion('when will the partner cert expire?').kind).not.toBe('outside');
  });

  it('reads a question after statements as its own sentence asks, about what the statements name', () => {
    const q = parseQuestion('reports-batch is hogging a node next to checkout. what cpu does it take?');
    expect(q).toMatchObject({ kind: 'signals', signals: ['cpu'] });
    expect(q.words).toContain('reports-batch');
    // Asked of another kind than the statements' words make it, the sentence's own kind.
    expect(parseQuestion('orders restarts a lot after the new config. is that what breaks checkout?').kind).toBe('cause');
  });

  it('splits times asked of different things, and leaves out the parts that only set a condition or acknowledge', () => {
    expect(questionParts('when did payments roll out and when did its errors begin?').map((p) => p.asked.kind)).toEqual(['when', 'when']);
    // One time asked twice over is one question.
    expect(questionParts('how long has that been going on, when did it begin?')).toEqual([]);
    expect(questionParts("ok, and which pods run it? what's their p99?").map((p) => p.text)).toEqual(['and which pods run it', "what's their p99"]);
    expect(parseQuestion("if it isn't the memory, what's killing the pods?").kind).toBe('cause');
  });

  it('reads follow-ups that only say how to read the question before again', () => {
    const earlier = ["what's the p99 of cart right now?"];
    expect(followingUp(parseQuestion('and 3 hours ago?'), 'and 3 hours ago?', earlier)).toMatchObject({
      kind: 'signals',
      signals: ['latency'],
      reference: { kind: 'ago', minutes: 180, at: true },
    });
    expect(followingUp(parseQuestion('is it every route or one route?'), 'is it every route or one route?', earlier)).toMatchObject({
      kind: 'signals',
      byRoute: true,
    });
    expect(parseQuestion("what's the 5xx rate of cart?").signals).toEqual(['errors']);
    expect(parseQuestion('is the p99 bad on both cart pods or on one?')).toMatchObject({ byPod: true, byRoute: false });
    expect(parseQuestion('how much space was left on /var/lib/media an hour ago?')).toMatchObject({ kind: 'signals', free: 'disks', signals: ['disk'] });
    expect(parseQuestion('how much free space does our volume have?').free).toBe('volumes');
    expect(parseQuestion('how much free space does our volume have?').signals).toEqual(['disk']);
  });

  it('tells words shaped as names from hyphenated words of the language', () => {
    expect(parseQuestion('is the coupon-engine service hurt by the one-off follow-up?').nameShaped).toEqual(['coupon-engine']);
  });

  it('reads what customers report as context, and asks what no source records only when it is asked', () => {
    expect(parseQuestion('Customers say search hangs. Where is the slowness coming from?').kind).toBe('cause');
    expect(parseQuestion('what did customers report about search?').kind).toBe('outside');
    expect(parseQuestion('is billing a part of this incident?').kind).toBe('cause');
    expect(parseQuestion('is there a deadlock in the code of inventory?').kind).toBe('outside');
    expect(parseQuestion('which client or session is keeping them open?').kind).toBe('outside');
  });

  it('reads routes asked by "which endpoint", targets that fail and services back up as what they measure', () => {
    expect(parseQuestion('which search endpoint got slower?')).toMatchObject({ kind: 'signals', byRoute: true });
    expect(parseQuestion('when did the cart scrape targets start failing?').signals).toEqual(['down']);
    expect(parseQuestion('is sessions-redis back up?').signals).toEqual(['down']);
    expect(parseQuestion('capacity of the data-ledger volume?')).toMatchObject({ signals: ['disk'], size: true });
  });

  it('splits a disk size asked with its free space, and drops a part that is only context', () => {
    expect(questionParts('size of /var/lib/media, and how much is free on / there?').map((p) => [p.asked.size, p.asked.free])).toEqual([
      [true, null],
      [false, 'disks'],
    ]);
    expect(questionParts('Users report hangs on transfers. Is that this incident, and what is causing it?')).toEqual([]);
  });

  it('reads the largest pod of a workload apart from the sum of its pods', () => {
    expect(parseQuestion('how much memory does the largest checkout container use?').largest).toBe(true);
    expect(parseQuestion('how much memory do the checkout containers use?').largest).toBe(false);
  });

  it('reads the kubelet probes that fail, how requests fail, and an alert asked about', () => {
    expect(parseQuestion("when did cart's liveness probes start failing?").signals).toEqual(['probes']);
    expect(parseQuestion('when did the blackbox probe on inventory start failing?').signals).toEqual(['down']);
    expect(parseQuestion('what are its calls to inventory failing with?')).toMatchObject({ signals: ['errors'], howFailing: true });
    expect(parseQuestion('which status code is billing returning?')).toMatchObject({ signals: ['errors'], howFailing: true });
    expect(parseQuestion('what is the error ratio of billing?').howFailing).toBe(false);
    expect(parseQuestion('CPUThrottlingHigh fires too: which workload is it about?')).toMatchObject({
      kind: 'which',
      listings: ['alerts'],
      alertNamed: 'CPUThrottlingHigh',
    });
    // An alert named beside a measure asked is no question about the alert.
    expect(parseQuestion('QueueMessagesStale fired. How old is the oldest message in the orders queue?')).toMatchObject({
      kind: 'signals',
      alertNamed: 'QueueMessagesStale',
    });
    expect(parseQuestion('is the PostgreSQL on orders ok?').alertNamed).toBeNull();
  });

  it('leaves out an apology or a remark after the last question, and reads a name before "service" as a name', () => {
    expect(parseQuestion("p99 of search right now? Sorry, I'm still figuring out the dashboards.").words).toEqual(['search']);
    expect(parseQuestion('what about payments? cart too').words).toEqual(['payments', 'cart']);
    expect(parseQuestion('is the thumbnailer service affected?').nameShaped).toEqual(['thumbnailer']);
    expect(parseQuestion('how much memory do the orders pods use?').nameShaped).toEqual([]);
  });

  it('reads the limit asked after a question of memory as that limit', () => {
    expect(followingUp(parseQuestion('whats the limit on those'), 'whats the limit on those', ['orders memory usage per pod?'])).toMatchObject({
      kind: 'signals',
      signals: ['memory'],
      limitValue: true,
    });
  });

  it('reads the highest a measure reached, a limit asked beside its use, a size with no other measure, and a share and a count as two parts', () => {
    expect(parseQuestion('worst p99 of checkout during the incident?')).toMatchObject({ signals: ['latency'], peak: true });
    expect(parseQuestion('ordersdb connections vs max_connections?').peak).toBe(false);
    expect(parseQuestion('pool utilisation on accounts, active over max, right now?').peak).toBe(false);
    expect(parseQuestion('accountsdb connections as % of max?').peak).toBe(false);
    expect(parseQuestion('what memory limit were the orders pods hitting?')).toMatchObject({ signals: ['memory'], limitValue: true });
    expect(parseQuestion('how big is data-ledger?')).toMatchObject({ kind: 'signals', signals: ['disk'], size: true });
    expect(
      questionParts('peak checkout 5xx ratio during the incident, and total failed checkout requests since the rollout began?').map((p) => p.asked.count),
    ).toEqual([false, true]);
  });

  it('reads restarts so far from their counters, and an alert asked when it fired whatever the question before', () => {
    expect(parseQuestion('how many times has cart restarted so far?')).toMatchObject({ signals: ['restarts'], soFar: true });
    expect(parseQuestion('cart restarts in the last 30 min?').soFar).toBe(false);
    expect(
      followingUp(parseQuestion('and PaymentsHighErrorRate fired when?'), 'and PaymentsHighErrorRate fired when?', ['when did the partner-bank cert expire?']),
    ).toMatchObject({
      kind: 'when',
      alertNamed: 'PaymentsHighErrorRate',
      fired: true,
    });
  });

  it('reads what telemetry does not hold as outside the data: campaigns, dumps, ids, credits, earlier incidents, why a person did something', () => {
    for (const q of [
      'was that surge a marketing campaign?',
      'did anyone take a heap dump of the orders pods?',
      'can you list the order ids that failed?',
      'will we credit their plan for today?',
      'is this the same as the previous incident with redis?',
      'why did alice approve that change?',
    ])
      expect(parseQuestion(q).kind).toBe('outside');
    expect(parseQuestion('are credit card payments failing?').kind).not.toBe('outside');
  });

  it('reads a service going down, a metric named as no subject, and when a limit changed as a question of that limit', () => {
    expect(parseQuestion('at what point did sessions-redis go down? redis_up i mean')).toMatchObject({
      kind: 'when',
      signals: ['down'],
      words: ['sessions-redis'],
    });
    expect(parseQuestion('when did the error rate go down?').signals).toEqual(['errors']);
    expect(parseQuestion('when did the recommendations cpu limit get changed?')).toMatchObject({ kind: 'when', signals: ['cpu'], limitValue: true });
  });

  it('reads who asks before the question, and a fragment that begins with what it lists', () => {
    expect(parseQuestion('security: when does the cert of partner-bank expire?').words).not.toContain('security');
    expect(parseQuestion('statements -> archive calls: how many fail per second?')).toMatchObject({ words: ['statements', 'archive'], callee: 'archive' });
    expect(parseQuestion('pods on it + their nodes pls')).toMatchObject({ kind: 'which', refers: true });
  });

  it('dates a count by an event that is no change of a measure, and reads the share of a count asked after it', () => {
    expect(parseQuestion('how many uploads failed since the media disk filled up?')).toMatchObject({
      signals: ['errors'],
      count: true,
      reference: { kind: 'change', event: 'at what time the media disk filled up?' },
    });
    expect(parseQuestion('how many frontend requests got a 502 since ip-10-0-3-41 went NotReady?')).toMatchObject({
      words: ['frontend'],
      signals: ['errors'],
      nodeHealth: false,
    });
    const counted = 'how many payments requests failed since the partner-bank certificate expired?';
    expect(
      followingUp(parseQuestion('what share of all payments requests in that window is that?'), 'what share of all payments requests in that window is that?', [
        counted,
      ]),
    ).toMatchObject({
      signals: ['errors'],
      count: true,
      shareOfCount: true,
      words: ['payments'],
    });
    expect(
      questionParts('how many cart requests failed since sessions-redis went down, and what % of cart traffic is that?').map((p) => !!p.asked.shareOfCount),
    ).toEqual([false, true]);
  });

  it('reads a quotation as said, not asked, and the cause, a suspect and what no source holds in the words of people outside the team', () => {
    expect(questionParts("photo uploads are broken ('upload failed: insufficient storage'?!). what fraction of uploads are failing?")).toEqual([]);
    expect(parseQuestion("photo uploads are broken ('upload failed: insufficient storage'?!). what fraction of uploads are failing?").words).toEqual([
      'uploads',
    ]);
    for (const q of [
      "any idea what's up?",
      'anything wrong in the cluster?',
      'is orders itself broken or something underneath it?',
      'is the new version leaking db connections?',
    ])
      expect(parseQuestion(q).kind).toBe('cause');
    expect(parseQuestion('did the image version change as well or just the limits?').kind).toBe('changes');
    for (const q of [
      'can you turn the failed checkouts into a € amount?',
      'how many shoppers abandoned their cart?',
      'who took it down to zero?',
      'when are they going to renew it?',
    ])
      expect(parseQuestion(q).kind).toBe('outside');
    expect(parseQuestion('who ran the last deploy of media?').kind).not.toBe('outside');
    expect(parseQuestion('how many add-to-cart requests per second right now?')).toMatchObject({ method: 'write', words: ['cart'] });
    expect(parseQuestion('thx. I need an exact start time for our incident log, when did the 500s begin?')).toMatchObject({
      kind: 'when',
      words: [],
      signals: ['errors'],
    });
  });

  it('sets two moments side by side when asked whether one came before or after the other, and leaves out what the asker is about to do', () => {
    const both = questionParts('did the frontend rollout start before or after search traffic jumped? give me both times');
    expect(both.map((p) => p.asked.kind)).toEqual(['when', 'when']);
    expect(both[0].asked).toMatchObject({ words: ['frontend'], rollout: true });
    expect(both[1].asked).toMatchObject({ words: ['search'], signals: ['rate'] });
    expect(questionParts('at what point did redis become slow? was that before cart started restarting or after').map((p) => p.asked.words)).toEqual([
      ['redis'],
      ['cart'],
    ]);
    expect(parseQuestion("before we say 'consumers are gone' - how old is the oldest message on the orders queue right now?")).toMatchObject({
      reference: null,
      compare: false,
    });
  });

  it('reads a duration requests are counted beyond only where requests are counted or shared, and availability as a share that succeeded', () => {
    expect(parseQuestion('what % of /api/search requests took longer than 1 second since 3.3.0 went out?')).toMatchObject({
      signals: ['latency'],
      slowerThan: { seconds: 1, share: true },
    });
    expect(parseQuestion('how many calls to partner-bank were slower than 500ms in the last 30 min?').slowerThan).toEqual({ seconds: 0.5, share: false });
    expect(parseQuestion("search's p99 is over 4 s. give me /api/search traffic now").slowerThan).toBeNull();
    expect(parseQuestion('cart availabilty over the last 30 min?')).toMatchObject({ signals: ['errors'], count: true, shareOfCount: true, availability: true });
  });

  it('answers statistics of one latency asked side by side as parts in the order asked, and leaves out a part the next one answers', () => {
    expect(questionParts('recommendations latency over the last 30 min: average and p99?').map((p) => [p.asked.mean, p.asked.percentile])).toEqual([
      [true, null],
      [false, 0.99],
    ]);
    expect(parseQuestion('and the average latency right now? p99 alone looks scary in a slide')).toMatchObject({ mean: true, percentile: null });
    expect(parseQuestion("what's the average p99 of search over the last hour?")).toMatchObject({ mean: false, percentile: 0.99 });
    const [restarts, ...rest] = questionParts('crashlooping cart pod, how many restarts so far');
    expect(rest).toEqual([]);
    expect(restarts.asked).toMatchObject({ signals: ['restarts'], count: true });
    expect(restarts.asked.words).toContain('cart');
  });

  it("reads a metric's name as the measure it is, with the subject its matchers name, and a challenge's name as the callee of the calls after it", () => {
    expect(parseQuestion('what does container_memory_working_set_bytes say for orders right now?')).toMatchObject({ signals: ['memory'], words: ['orders'] });
    // (An expression given whole is evaluated as it is written.)
    expect(parseQuestion('histogram_quantile(0.99, rate(http_request_duration_seconds_bucket{job="search"}[5m])) - what is it now?')).toMatchObject({
      kind: 'signals',
      query: 'histogram_quantile(0.99, rate(http_request_duration_seconds_bucket{job="search"}[5m]))',
    });
    expect(parseQuestion('histogram_quantile(0.99, rate(http_request_duration_seconds_bucket{job="search"}[5m])) of search vs before?')).toMatchObject({
      query: null,
    });
    expect(parseQuestion('rate of http_requests_total{code=~"5.."} for checkout?')).toMatchObject({ failedPerSecond: true, words: ['checkout'] });
    const [when, calls] = questionParts(
      "are you sure it's the certificate and not partner-bank simply being down? when exactly did the cert expire, and how are payments' calls to them failing",
    );
    expect(when.asked.kind).toBe('when');
    expect(calls.asked).toMatchObject({ kind: 'signals', callee: 'partner-bank', howFailing: true });
  });

  it('reads a protocol as no name, a ticket the answer is for as nothing asked, and a route said not to be the one as not asked about', () => {
    expect(parseQuestion('uploads to media fail with HTTP 507. any idea?').words).not.toContain('http');
    expect(parseQuestion('is grpc to payments failing?').words).toEqual(['payments']);
    // The ticket the answer goes into is not what is asked; what a ticket says is.
    expect(parseQuestion('which release is it, so I can reference it in our ticket?').kind).not.toBe('outside');
    expect(parseQuestion('what did the tickets say about checkout?').kind).toBe('outside');
    expect(parseQuestion('we call /api/suggest, never /api/search: is suggest latency up since the release?').routes).toEqual(['/api/suggest']);
    expect(parseQuestion('is /api/search slower than /api/suggest?').routes).toEqual(['/api/search', '/api/suggest']);
    // "How come" and "what's the reason" ask why, whatever measure they name.
    expect(parseQuestion('how come the orders queue keeps growing?').kind).toBe('cause');
    expect(parseQuestion("what's the reason search's latency went up?").kind).toBe('cause');
  });

  it("reads what of a connection pool is asked, a pool's waiting threads as no runtime measure, and a CPU-bound service as one against its limit", () => {
    expect(parseQuestion('how many threads are stuck waiting on the hikari pool of ledger?')).toMatchObject({
      signals: ['connections'],
      pool: 'pending',
      runtime: null,
    });
    expect(parseQuestion('what is the pool size of ledger?')).toMatchObject({ signals: ['connections'], pool: 'size' });
    expect(parseQuestion('ledger pool timeouts in the last hour?')).toMatchObject({ signals: ['connections'], pool: 'timeouts' });
    expect(parseQuestion('ledger pool usage vs its max?')).toMatchObject({ signals: ['connections'], pool: 'share' });
    expect(parseQuestion('how many threads does ledger run?').runtime).toMatchObject({ what: 'threads' });
    expect(parseQuestion('how busy is the thread pool of ledger?').runtime).toMatchObject({ what: 'threads' });
    expect(parseQuestion('is ledger cpu-bound?')).toMatchObject({ signals: ['cpu'], againstLimit: true });
  });

  it('reads how exact an answer need be as no name, counts of failed requests of any kind since an event, and the minute something began', () => {
    expect(parseQuestion('how many uploads failed since the volume filled? a rough count is ok')).toMatchObject({
      signals: ['errors'],
      count: true,
      placedAsNames: [],
      reference: { event: 'at what time the volume filled?' },
    });
    expect(parseQuestion('approx: how many transactions errored since the new ledger build went out?')).toMatchObject({
      count: true,
      placedAsNames: [],
      reference: { kind: 'rollout', words: ['ledger'] },
    });
    expect(parseQuestion('how many ledger calls failed since it began ~25 min ago?')).toMatchObject({ count: true, reference: null, rangeMinutes: 25 });
    expect(parseQuestion('what minute did ledger start returning 503s?').kind).toBe('when');
    expect(questionParts('when the ledger deploy landed, and when billing stopped answering. in UTC pls').map((p) => p.asked.kind)).toEqual(['when', 'when']);
    expect(
      questionParts('is it throttled? what share of its cpu periods, and whats the limit per pod').map((p) => [p.asked.signals, p.asked.limitValue]),
    ).toEqual([
      [['throttling'], false],
      [['cpu'], true],
    ]);
  });

  it('reads whether a rollout was a new build as its versions, a limit beside them, and the first event of a part asked when as a time', () => {
    const parts = questionParts('the billing deploy an hour ago, was it a new image? which version runs now, and memory limit per pod before vs after');
    expect(parts.map((p) => [p.asked.kind, p.asked.listings, p.asked.limitValue])).toEqual([
      ['which', ['versions'], false],
      ['signals', [], true],
    ]);
    expect(parseQuestion('ledger: same image or new one?')).toMatchObject({ kind: 'which', listings: ['versions'] });
    expect(parseQuestion('what tag is ledger on?')).toMatchObject({ kind: 'which', listings: ['versions'], words: ['ledger'] });
    expect(questionParts('the latest restart of billing, at what time was that?')).toEqual([]);
    expect(parseQuestion('the latest restart of billing, at what time was that?')).toMatchObject({ kind: 'when', signals: ['restarts'], words: ['billing'] });
    // Which of two came first: when each did.
    expect(questionParts('which came first: billing timeouts or the ledger rollout?').map((p) => [p.asked.kind, p.asked.words, p.asked.rollout])).toEqual([
      ['when', ['billing'], false],
      ['when', ['ledger'], true],
    ]);
    // (A value and its start are two parts: "p99, and since when?".)
    expect(questionParts('billing p95, and since when?').map((p) => p.asked.kind)).toEqual(['signals', 'when']);
  });

  it('reads "backend" beside a listing as no call, the service that is the problem as the cause, and a measure of statements split by what the question lists', () => {
    expect(parseQuestion('which backend route returns the 502s?')).toMatchObject({ kind: 'signals', listings: ['routes'], byRoute: true });
    expect(parseQuestion('users on android see timeouts. which backend service is the problem?').kind).toBe('cause');
    expect(questionParts('users on android see timeouts. which backend service and which host are the problem?').map((p) => p.asked.kind)).toEqual(['cause']);
    expect(parseQuestion('the android app gets 503s from ledger. which endpoint is returning them?')).toMatchObject({
      kind: 'signals',
      signals: ['errors'],
      byRoute: true,
      words: ['ledger'],
    });
    // A word of the language before another that qualifies it opens a statement, no name.
    expect(parseQuestion('invoice exports return 504 since noon. is ledger ok?').plainWords).toContain('invoice');
    expect(parseQuestion('ledger errors?').placedAsNames).toEqual(['ledger']);
  });

  it("reads a pool's count on each pod, what no source holds inside a process or of customers, and a measure pod by pod or beside the other pod", () => {
    expect(parseQuestion('how many threads wait for a connection in each ledger pod?')).toMatchObject({
      signals: ['connections'],
      pool: 'pending',
      byPod: true,
    });
    expect(questionParts('what is ledger hanging on? which lock is it blocked on').map((p) => p.asked.kind)).toEqual(['outside']);
    for (const q of [
      'the specific setting that was modified in ledger-config, please',
      "who's holding all the ledger connections?",
      'names of the affected customers please',
      'how many invoices were lost?',
    ])
      expect(parseQuestion(q).kind).toBe('outside');
    // (What takes a node's CPU is a question of the data.)
    expect(parseQuestion("who's hogging the cpu on ip-10-0-9-9?").kind).not.toBe('outside');
    expect(followingUp(parseQuestion('every ledger replica, or only one?'), 'every ledger replica, or only one?', ['ledger p99 now?'])).toMatchObject({
      kind: 'signals',
      signals: ['latency'],
      byPod: true,
    });
    expect(parseQuestion('error ratio of ledger-6d4f9b7c8-abcde and the other ledger pod')).toMatchObject({ other: true, withOther: true });
    expect(followingUp(parseQuestion('when did it get to 100 %?'), 'when did it get to 100 %?', ['how full is /data on ip-10-0-9-9?'])).toMatchObject({
      kind: 'when',
      signals: ['disk'],
    });
    // A workload's pods together, not the one pod an alert named before.
    expect(parseQuestion('pod=ledger-6d4f9b7c8-abcde restarts often. restarts of ledger in the last hour, all pods combined?').words).not.toContain(
      'ledger-6d4f9b7c8-abcde',
    );
    expect(parseQuestion('restarts of ledger-6d4f9b7c8-abcde, and of all ledger pods?').words).toContain('ledger-6d4f9b7c8-abcde');
    // What a moment is named by is no measure asked: "vs before the crawler hit" asks no errors.
    expect(parseQuestion('ledger req/s now, and is that up vs before the batch hit?')).toMatchObject({ signals: ['rate'], compare: true });
  });

  it('reads a question after the last question mark, after a dash between questions, and what a name, a disk or an up gauge asks', () => {
    // What follows the last question mark asks when a question word or a request opens it; "I want …" is context.
    expect(parseQuestion('why does BillingSlow fire in this group? which workload is that even on')).toMatchObject({ kind: 'which', listings: ['alerts'] });
    // What an alert is about when the question follows its name; not a question after a statement of what else happened.
    expect(parseQuestion('BillingPodCrashLooping on billing - which pod is it?')).toMatchObject({ kind: 'which', listings: ['alerts'] });
    expect(parseQuestion('BillingHighErrorRate - the notes mention a node going away. which node, and when did it drop?').listings).not.toContain('alerts');
    expect(parseQuestion('what is ledger blocked on? need the goroutine dump').kind).toBe('outside');
    expect(parseQuestion("when did ledger's memory start rising? I want the time it left its usual level").words).not.toContain('level');
    // A dash between two questions parts them; a name before a dash is their subject.
    expect(questionParts('why do the billing connections run out - how many is the pool allowed?').map((p) => p.asked.kind)).toEqual(['cause', 'signals']);
    expect(questionParts('why do the billing connections run out - how many is the pool allowed?')[1].asked.pool).toBe('size');
    expect(questionParts('ledger-sync — which node, and its cpu in cores')[0].asked.words).toContain('ledger-sync');
    // The subjects the question names come first; those only its statements name after.
    expect(parseQuestion('the notes say billing 3.1.0 shipped and then ledger broke - since when exactly has ledger been down?').words[0]).toBe('ledger');
    // A superlative of more asks of the pod that uses the most.
    expect(parseQuestion('memory of the busiest ledger pod right now?').largest).toBe(true);
    expect(parseQuestion('working set of the fattest billing container?').largest).toBe(true);
    expect(parseQuestion('working set of the leanest billing container?').largest).toBe(false);
    // An up gauge at 0 is a target down; a volume named asks of the volumes; "log" in a name or a disk asks no logs.
    expect(parseQuestion('ledger-redis: when did redis_up go to 0?')).toMatchObject({ kind: 'when', signals: ['down'] });
    expect(parseQuestion('how big is the billing pvc?')).toMatchObject({ signals: ['disk'], volumes: true });
    expect(parseQuestion('is the archive log mount full?').kind).not.toBe('logs');
    expect(parseQuestion('when did log-shipper start?').kind).not.toBe('logs');
    expect(parseQuestion('the billing disk: read/write iops?').kind).toBe('outside');
    // Requests failing for customers are requests; a count of the customers is not in the data.
    expect(parseQuestion('how many billing requests per second are failing for customers?')).toMatchObject({ kind: 'signals', signals: ['errors'] });
    expect(parseQuestion('how many customers were affected?').kind).toBe('outside');
    // The calls named before: their outcomes, not a listing of what is called.
    expect(parseQuestion('what error do those calls get back?')).toMatchObject({ kind: 'signals', signals: ['errors'], calleeRefers: true });
    expect(parseQuestion('which deployment is meant to consume the ledger queue?')).toMatchObject({ signals: ['queue'], queue: 'consumers' });
  });

  it("reads a status asked of a service, whether it is over, a cause challenged in other words, a pool's count over the pods, and verbs and quantities as no names", () => {
    expect(parseQuestion('status of ledger?')).toMatchObject({ status: true, words: ['ledger'] });
    expect(parseQuestion('ledger status')).toMatchObject({ status: true, words: ['ledger'] });
    expect(parseQuestion('what status code do the failures have?').status).toBe(false);
    // Whether it is over is whether it still happens.
    expect(parseQuestion('is the outage over yet?')).toMatchObject({ kind: 'when', still: true });
    expect(parseQuestion('has it recovered already')).toMatchObject({ still: true, words: [] });
    // A suspect challenged in other words asks the cause.
    for (const q of [
      'i pushed billing 3.1.0 an hour ago. is my release the reason ledger is failing?',
      'was that it, or is ledger failing on something it calls?',
      'the throttling alert again - is that what keeps slowing billing?',
      'which dependency is billing choking on?',
      "what's it calling that's failing?",
      'is the ledger volume the problem here?',
      'three alerts in the group. which one should we chase?',
    ])
      expect(parseQuestion(q).kind, q).toBe('cause');
    // A count over the pods is their sum; on each pod, each one's.
    expect(parseQuestion('how many callers wait for a billing connection across all pods?').byPod).toBe(false);
    expect(parseQuestion('how many callers wait for a billing connection on each pod?').byPod).toBe(true);
    // A verb's form where a predicate or a statement's verb stands, and a quantity with its unit, name nothing; a name where a name stands still does.
    expect(parseQuestion('is it fixed yet?').placedAsNames).toEqual([]);
    expect(parseQuestion('drafting the status update. when did ledger start failing?').placedAsNames).not.toContain('drafting');
    expect(parseQuestion('what is chewing memory on that node?').placedAsNames).toEqual([]);
    expect(parseQuestion('memory peaks near 512MiB before each restart. when was the limit changed?').words).not.toContain('512mib');
    expect(parseQuestion('is shipping down?').placedAsNames).toContain('shipping');
    expect(parseQuestion('which configmap changed?').words).toEqual([]);
  });

  it('reads only the beginning of a long message', () => {
    expect(parseQuestion(`what is the latency of search? ${'what which list show '.repeat(5000)}`)).toMatchObject({ kind: 'signals', signals: ['latency'] });
    expect(parseQuestion(`${'and so on '.repeat(250)} what is the latency of search?`).kind).toBe('unknown');
  });
});
