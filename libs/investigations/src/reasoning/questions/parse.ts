import { distance } from 'fastest-levenshtein';
import { escape, workloadOfPod } from '../explainers/labels';
import ENGLISH_WORDS from 'an-array-of-english-words';
import { pastedQuery } from './pasted-query';

/**
 * What people ask during an incident, read from a message without a model: the grammar of the
 * common questions (how much traffic, errors, latency, restarts or CPU a service has, compared
 * before and after; which pods, nodes, versions or routes; when it started and whether it still
 * holds; what changed; whether two services are related; why; what to do), with the words that
 * may name its subjects, the routes and versions it names, and the time range it asks about.
 */

/** What a signals question measures. */
export type Signal =
  | 'rate'
  | 'errors'
  | 'latency'
  | 'down'
  | 'restarts'
  | 'cpu'
  | 'memory'
  | 'throttling'
  | 'disk'
  | 'connections'
  | 'replicas'
  | 'certificate'
  | 'queue'
  | 'probes';

/**
 * Measures outside the grammar's signals, each with the metric names that would give it: a
 * question about one is answered only when such series exist; else it says no series measures it.
 */
const RUNTIME_MEASURES: Array<{ words: RegExp; what: string; metrics: string }> = [
  { words: /\binodes?\b/, what: 'inodes', metrics: 'node_filesystem_files(_free)?|kubelet_volume_stats_inodes.*' },
  {
    words: /\b(jvm|heap)\b/,
    what: 'the heap of the runtime',
    metrics: 'jvm_memory_.*|go_memstats_heap_.*|nodejs_heap_.*|process_heap_bytes|dotnet_gc_heap.*|python_gc_.*',
  },
  {
    words: /\b(gc|garbage collect\w*)\b/,
    what: 'garbage collection',
    metrics: 'jvm_gc_.*|go_gc_duration_seconds.*|nodejs_gc_.*|dotnet_gc_.*|python_gc_.*',
  },
  { words: /\b(threads?|goroutines?|thread pools?)\b/, what: 'threads', metrics: 'jvm_threads_.*|go_goroutines|process_threads|executor_.*' },
  { words: /\b(file descriptors?|fds|open files)\b/, what: 'file descriptors', metrics: 'process_open_fds|process_max_fds' },
  { words: /\b(hit ratio|hit rate|cache hits?|cache misses|miss ratio)\b/, what: 'cache hits', metrics: '.*_hits_total|.*_misses_total|.*cache_hit.*' },
  {
    words: /\b(cpu|memory|mem|resource) requests?\b|\brequests? (of|for) (cpu|memory)\b/,
    what: 'resource requests',
    metrics: 'kube_pod_container_resource_requests',
  },
  {
    words: /\breplication lag\b|\breplica lag\b|\bseconds behind\b/,
    what: 'replication lag',
    metrics: '.*replication_lag.*|.*seconds_behind_master|pg_replication_.*',
  },
  { words: /\b(consumer|kafka) lag\b|\blag of the consumers?\b/, what: 'consumer lag', metrics: 'kafka_consumergroup_lag.*|.*consumer_lag.*' },
  { words: /\bevent[- ]loop\b/, what: 'the event loop', metrics: 'nodejs_eventloop_.*' },
];

/** The measure outside the signals a question asks about, if any (see RUNTIME_MEASURES). */
function runtimeMeasure(text: string): { what: string; metrics: string } | null {
  const found = RUNTIME_MEASURES.find((m) => m.words.test(text));
  // ("how many threads wait for a connection?": the pool's waiting callers.)
  if (found?.what === 'threads' && POOL_WORDS.test(text.replace(/\b(thread|worker|executor) ?pools?\b/g, ' '))) return null;
  return found ? { what: found.what, metrics: found.metrics } : null;
}

/** What of a connection pool a question asks (see TypedQuestion.pool). */
export type PoolAspect = 'share' | 'active' | 'pending' | 'idle' | 'size' | 'timeouts';

/** Words of a connection pool: a thread or a request that waits is one waiting for a connection, not the runtime's threads. */
const POOL_WORDS = /\b(connections?|conns?|connection ?pools?|pools?|hikari\w*)\b/;

/**
 * What of a connection pool `text` asks: waits that timed out, callers waiting, idle connections, its size, how many are in use, or
 * (else) how full it is.
 */
function poolAspect(text: string): PoolAspect {
  if (/\btime ?outs?\b|\btimed out\b|\btiming out\b/.test(text)) return 'timeouts';
  // (How many wait, not "what pool is it waiting on?".)
  if (
    /\b(pending|waiting|wait|waits|waited|queued|queueing|queuing|blocked|stuck)\b/.test(text) &&
    /\b(pending|how many|number of|count|any|are there|is there)\b/.test(text)
  )
    return 'pending';
  if (/\b(idle|spare|unused|free)\b/.test(text) && !/\bidle in transaction\b/.test(text)) return 'idle';
  // ("how many connections is it allowed?", "what's the pool max?")
  if (
    /\b(how big|sized?|capacity|maximumpoolsize|max(imum)?[- ]pool[- ]size|configured (max\w*|size|to)|set to|pool max|allowed to (have|open|hold|use))\b|\bhow many\b[^?.!]*\b(allowed|permitted)\b/.test(
      text,
    ) &&
    !AGAINST_LIMIT.test(text)
  )
    return 'size';
  if (/\b(how many|number of|count)\b/.test(text) && !AGAINST_LIMIT.test(text) && !/\b(limits?|max\w*)\b/.test(text)) return 'active';
  return 'share';
}

/** What a `which` question lists. */
export type Listing = 'pods' | 'nodes' | 'versions' | 'routes' | 'peers' | 'alerts';

/**
 * The kind of a question: its signals over a range (`signals`), a listing (`which`), when
 * something started and whether it still holds (`when`), what changed (`changes`), whether two
 * subjects are related (`related`), what the logs say (`logs`), the cause (`cause`), what to do
 * (`actions`); what no telemetry records, such as who approved a deploy or what customers said
 * (`outside`); `unknown` when none of the grammar's forms matched.
 */
export type QuestionKind = 'signals' | 'which' | 'when' | 'changes' | 'related' | 'logs' | 'cause' | 'actions' | 'outside' | 'unknown';

export interface TypedQuestion {
  kind: QuestionKind;
  /** For `signals` and `when`: what to read, in the grammar's order. */
  signals: Signal[];
  /** The latency percentile asked for (0.99 for "p99"), else null (the answer reads p99). */
  percentile: number | null;
  /** For `which`: what to list, in the order asked. */
  listings: Listing[];
  /** Whether it asks how the signals moved (went up, before and after, compared, since). */
  compare: boolean;
  /** Whether it asks for a split by route ("other routes", "per route", "only /api/search"). */
  byRoute: boolean;
  /** Whether it asks for CPU or memory against the containers' limits ("near its memory limit?", "cpu vs quota"). */
  againstLimit: boolean;
  /** The range asked for, in minutes back from now ("over the last hour": 60), else null. */
  rangeMinutes: number | null;
  /** The routes it names (`/api/search`). */
  routes: string[];
  /** The versions it names (`3.3.0`, `v2.15.0`), without a leading `v`. */
  versions: string[];
  /** Words that may name a subject (a service, job, pod, node), lowercased; references ("it", "those pods") are not among them. */
  words: string[];
  /**
   * Those of `words` that stand where a name stands or look like one (see namePlaced): a word among
   * them that names nothing the sources know is asked about; another is an ordinary word ("rising",
   * "originating") unless it nearly matches a known name (a typo).
   */
  placedAsNames: string[];
  /** Those of `placedAsNames` that are plainly words of the language, never asked about as names when the sources know none (see plainWordsOf). */
  plainWords: string[];
  /** A PromQL expression the message gives to be evaluated as written (see runnableQuery), else null. */
  query: string | null;
  /** Those of `words` shaped as a service's name ("loyalty-points", "sessions-memcached"): joined parts, none a common word ("follow-up", "time-series" are not). */
  nameShaped: string[];
  /** Two neighbouring words joined by `-` ("orders worker" is `orders-worker`): a name written with a space; it stands for both words when the sources know it. */
  compounds: string[];
  /** Whether it refers to what the conversation named before ("it", "that service", "those pods", "the new version"). */
  refers: boolean;
  /** Whether it asks what the cluster says: its events, why a pod crashed or cannot start (answered from a Kubernetes integration when there is one). */
  asksCluster: boolean;
  /** Whether it asks what runs on a node ("what else runs on ip-10-0-2-34?", "which pods are there?"): a listing of the node's pods when its subject is a node. */
  onNode: boolean;
  /** Whether it asks the same as an earlier question of something else ("as well", "too"): it keeps that question's reference time. */
  also: boolean;
  /** Whether it asks whether something still holds ("is it still failing?"): the answer says how it is now first. */
  still: boolean;
  /** Whether it asks how a service is doing, without a measure ("is payments affected?", "is cart on fire?"): how it is now first, then how it moved. */
  status: boolean;
  /**
   * Whether it asks a value ("what's payments' 5xx share since then?"), not whether it moved ("did
   * errors go up since then?"): a comparison answered with how it is now first.
   */
  valueFirst: boolean;
  /** A measure outside the signals ("inodes", "jvm heap", "gc pauses", "cpu requests"): what it is, and the metric names that would give it. */
  runtime: { what: string; metrics: string } | null;
  /** Whether it asks the CPU or memory limit itself ("what's the memory limit of checkout?"), not the use against it. */
  limitValue: boolean;
  /** Whether it asks about the node a workload or pod runs on ("cpu on the node ledger-reconcile is on", "catalog-sync's node"), not the workload itself. */
  nodeOf: boolean;
  /** Whether it asks which node failed or when it did ("which node died?", "when did it go NotReady?"): read from the nodes' conditions. */
  nodeHealth: boolean;
  /** Whether it asks about the other pods of the workload whose pod was named before ("and the other replica?", "same for the other one"). */
  other: boolean;
  /** Whether the other pods are asked beside the one it names ("p99 of search-…-m9xrk, and the other search pod"). */
  withOther?: boolean;
  /** Whether it refers to a node an earlier answer named ("that node", "the host", "runs there"). */
  refersNode: boolean;
  /** The moment a comparison splits at, or the value is read at, when the question names one other than the incident's start (see Reference). */
  reference: Reference | null;
  /** Whether it asks how many requests, failed requests or restarts there were ("how many requests failed since then?"), not how many a second. */
  count: boolean;
  /** With `count`: whether it asks the share of all requests the failed ones counted were ("… and what % of cart traffic is that?"). */
  shareOfCount?: boolean;
  /** With `shareOfCount`: whether the share is of all the subject's requests, every route, though the failed ones counted are of the routes named. */
  shareOfAll?: boolean;
  /** With `shareOfCount`: whether it asks the share that succeeded ("availability over the last 30 min?"), not the share that failed. */
  availability?: boolean;
  /** Whether it asks failures per second ("how many reqs/s are failing?"), not their share of the requests. */
  failedPerSecond: boolean;
  /** The word naming what is called when it asks about calls to something ("billing's calls to ledger", "cart's redis calls"): read from the callers' side. */
  callee: string | null;
  /**
   * Words that may name a route by a part of its path ("uploads" is `/api/uploads`, "the status route"
   * `/api/checkout/status`): the question's words, and a grammar word only when a route noun follows it.
   */
  routeWords: string[];
  /** Whether it asks about writes (POST, PUT, PATCH, DELETE requests) or reads (GET requests), else null. */
  method: 'write' | 'read' | null;
  /** For `changes`: whether it asks who made a change ("who pushed this?", "deployed by whom?"). */
  asksWho: boolean;
  /** Whether it asks about calls to what was named before ("what % of orders' calls to it fail?"). */
  calleeRefers: boolean;
  /** Whether it asks the mean ("avg latency"), not a percentile. */
  mean: boolean;
  /** Whether it asks CPU in cores ("how many cores is the node using?"): a node's CPU is otherwise the share of its cores busy. */
  inCores?: boolean;
  /** Whether it asks how much CPU or memory is used ("how much is each pod using vs its limit?"), not only its share of a limit. */
  amount?: boolean;
  /**
   * The duration it counts requests beyond ("% of requests took longer than 1 s", "how many calls were
   * slower than 500ms"), in seconds, and whether it asks their share of all requests (else how many).
   */
  slowerThan: { seconds: number; share: boolean } | null;
  /** Whether it asks the highest a measure reached ("peak 5xx ratio", "worst p99 during the incident"). */
  peak: boolean;
  /** Of restarts: how many so far, as the pods' restart counters say ("restarts of cart so far?", "total restarts"). */
  soFar: boolean;
  /** For disks: whether it asks how big a filesystem is, not how full. */
  size: boolean;
  /** Whether it asks how something was before a moment ("the memory limit before the rollout"): the answer leads with then. */
  before: boolean;
  /** For `when`: whether it asks when a gradual rise began ("when did memory start climbing?"). */
  trend: boolean;
  /** Whether it asks when something went out ("what time did it go out?", "when was 2.15.0 deployed?"), not when a signal moved. */
  wentOut: boolean;
  /** For `when`: whether it asks the latest of counted events ("when was the latest one?", "when did it last restart?"), not the first. */
  latest: boolean;
  /** Every signal the message names, whatever its kind ("which pods got OOM-killed?" names restarts): what a follow-up that names none inherits. */
  mentioned: Signal[];
  /** For a queue: what of it is asked: how old its oldest message is, how many consume it, else how many messages wait. */
  queue: 'age' | 'consumers' | 'depth';
  /**
   * For a service's connection pool: what of it is asked: how full it is (a share of its size), how many connections are in use,
   * how many callers wait for one, how many are idle, its size, or how many waits for one timed out.
   */
  pool: PoolAspect;
  /** Whether it asks what the connections are doing ("what state are they in?", "how many are idle in transaction?"): by state. */
  connectionStates: boolean;
  /** For `when`: whether it asks when a rollout went out without naming its version ("when did the checkout rollout start?", "when was orders deployed?"). */
  rollout: boolean;
  /** For disks: whether it asks the free space left (bytes), of volumes (claims) or of any disk; null when it asks how full. */
  free: 'volumes' | 'disks' | null;
  /** For CPU and memory: whether it asks the pod that uses the most ("the largest orders container", "the biggest pod"). */
  largest: boolean;
  /** Whether it asks requests, errors or latency pod by pod ("is it both pods or just one?", "which replica is slow?"). */
  byPod: boolean;
  /** With `byPod`: whether it asks where each pod runs too ("p99 per pod and the node each one is on"). */
  podNodes?: boolean;
  /** For disks: whether it names volumes ("how big is the ledger volume?", "the ledger pvc's capacity"): those its pods claim, not its nodes' filesystems. */
  volumes?: boolean;
  /** Whether it asks about what probes the subject from outside ("the blackbox probe on inventory", "the synthetic check"): whether it is down, by the probe. */
  probe: boolean;
  /** An alert the message names as Prometheus writes it ("CPUThrottlingHigh"), if any. */
  alertNamed: string | null;
  /** For `when` of no measure: whether it asks when an alert fired ("what time did the page go off?"). */
  fired: boolean;
  /** For `changes`: whether it asks about versions or images ("did the image version change?"): what runs now is said too. */
  aboutVersions: boolean;
  /** Whether it asks how requests fail ("failing with what?", "which status code?"): the outcomes of the failing requests. */
  howFailing: boolean;
}

/** How a pod's containers last ended, asked ("last terminated reason", "exit code", "last state", "OOMKilled?"): the pods' table, which shows it. */
const TERMINATIONS =
  /\b(last[- ]?)?(terminat\w* (reasons?|states?|status)|terminations?|last states?|exit (codes?|reasons?|status))\b|\boom[- ]?kill(ed)?\s*(\?|$)/;

/** How many replicas serve ("how many cart replicas are actually serving traffic?"): the available replicas, not a listing of pods nor their traffic. */
const SERVING_REPLICAS =
  /\bhow many (?:[a-z0-9_-]+ ){0,2}(?:replicas|pods|instances|copies)\b(?: (?:are|is|were|do we have|does it have))?(?: (?:actually|still|currently|really|now))? (?:serving|up|available|ready|healthy|alive|taking traffic|in service|running)\b(?! (?:on|the|version|v?\d|build|release|image|pods?)\b)/;

/**
 * A moment the question names by what happened then, found in the data: the start of a change of
 * a measure ("before the surge started", "since the latency spike"), a rollout ("since the
 * frontend rollout"), or the time the previous answer named ("then", "since then", "at that time").
 */
export interface Reference {
  kind: 'change' | 'rollout' | 'then' | 'ago';
  /** For `ago`: how long before now ("compared to an hour ago": 60). */
  minutes?: number;
  /** For `change`: the measure whose change it is ("surge" is traffic), else the question's own (null: the first it asks). */
  signal: Signal | null;
  /** Words of the reference that may name whose change or rollout it is ("the frontend rollout"), kept out of the question's subjects. */
  words: string[];
  /** For `then`: whether it asks the value at that moment ("what was its p99 then?") rather than a comparison ("since then"). */
  at: boolean;
  /** For `then`: whether it asks just before that moment ("how busy was it just before that?"). */
  justBefore?: boolean;
  /**
   * For `change`: an event the question dates as a question of when would ("since the media disk
   * filled up", "after the certificate expired", "since the node went NotReady"): that question.
   */
  event?: string;
}

const SIGNALS: Array<[Signal, RegExp]> = [
  [
    'rate',
    /\b(more|fewer|less) (requests|calls|traffic)\b|\b(answering|serving|handling|getting|receiving|taking) (more|fewer|less|any) (requests|calls|traffic)\b|\breqs?\/s(ec)?\b|\brequests?\/s(ec)?\b|\b(request ?rates?|rates?|traffic|throughput|rps|qps|requests? per second|load|how many (?:[^\s?.!]+ ){0,2}?(?:requests|calls|hits)\b(?! (?:\w+ )?(?:fail\w*|error\w*|tim\w+ out|5\d\d|return\w*|came back|got)\b)|volume)\b/,
  ],
  [
    'errors',
    /\b(errors?|error ?rates?|erroring|errored|failures?|failing|failed|fail|5xx|50x|5\d\ds?(?!\s*(?:ms|millis\w*|s|secs?|seconds?|mb|mib|gb|gib|kb|%|req\w*|rps|pods?|conn\w*|users?|customers?|errors?)\b)|exceptions?|tim(e|es|ed|ing) ?outs?|refused|rejected|connections? resets?|(go|goes|going|went) wrong|connection_refused|too_many_connections|tls_error)\b/,
  ],
  [
    'latency',
    /\bhow long\b[^?.!]*\b(tak(e|es|ing)|took)\b|\b(typical|median|average|avg|mean)\)? (\(?\w+\)? )?(time|wait)s?\b|\bwait(ing)? times?\b|\b(latency|latencies|slow|slower|slowness|p\d{2}(\.\d+)?|percentiles?|(response|call|request|query) ?times?|durations?|fast|faster|drag\w*|sluggish|lag\w*|crawl(s|ing)?)\b/,
  ],
  [
    'down',
    /\b(is|are|was|were|been) (\S+ )?(down|unreachable|unavailable)\b|\b(is|are) (?!(?:latency|errors?|traffic|cpu|memory|load|usage|throughput|rate|restarts|p\d\d|it'?s)\b)(it|they|that|this|[a-z0-9]+(?:-[a-z0-9]+)*) (still |even |actually )?up\s*(\?|$|,)|\b(not|stop(s|ped)?|stopping|quit|quits) (answering|responding|reachable|reporting)\b|\bunreachable\b|\bflap(s|ped|ping|py)?\b|\bback (up|online)\b|\bup again\b|\bc[oa]me back\b(?!\s+(?:with|as|from|empty|an?)\b)/,
  ],
  ['restarts', /\bstay(s|ing)? (up|alive)\b|\b(restart(s|ed|ing)?|crash(es|ed|ing)?|crash ?loop(s|ing)?|oom ?kill(s|ed)?|killed|kills)\b/],
  ['cpu', /\b(cpu|cores?|processor)\b/],
  ['memory', /\b(memory|mem|ram|heap|working ?set|oom)\b/],
  ['throttling', /\b(throttl\w*|cfs|(cpu |its |their |of )periods)\b/],
  [
    'queue',
    /\bpick(s|ing|ed)? (them |it |messages |jobs |orders |work |anything )?up\b|\b(queues?|backlog|messages? (waiting|ready|queued|pending)|oldest (message|msg)|consumers?|unacked|enqueued)\b/,
  ],
  ['certificate', /\b(certs?|certificates?|tls|ssl|x509)\b/],
  // The kubelet's liveness, readiness and startup probes that fail (not a probe from outside: see PROBES).
  [
    'probes',
    /\b(liveness|readiness|startup) ?(probes?|checks?)? ?(fail\w*|timeouts?|timing out|timed out)\b|\bprobes? (fail\w*|timeouts?|timing out|timed out)\b|\b(failing|failed) (liveness |readiness |startup )?probes?\b|\b(failing|failed) (liveness|readiness|startup)\b|\b(liveness|readiness|startup) probes?\b/,
  ],
  [
    'replicas',
    new RegExp(
      /\b(scaled?|scaling|scales|autoscal\w*|running at all|stop(ped|s)? running|no longer running|not running|(go|goes|gone|went) (away|missing)|disappear\w*|vanish\w*)\b|\b(go|goes|gone|went|drop(ped)?|fell|down) to (0|zero|one|1)\b|\breplica ?counts?\b|\bnumber of (replicas|pods|instances)\b/
        .source + `|${SERVING_REPLICAS.source}`,
    ),
  ],
  ['connections', /\b(connections?|connection ?pools?|pools?|hikari\w*|max_connections|clients connected|connected clients)\b/],
  [
    'disk',
    /\b(?:anything|something|what|nothing|everything)(?: else)? (?:is |are |getting |running |that'?s )?(?:almost |nearly |also )?full\b|\b(fill (level|ratio|percentage)|fill(s|ed|ing)? up|out of (disk )?space|(no|free|disk) space|space (was |is |are )?(left|remaining|free|available)|(size|capacity)(?=[^?.!]*(\s\/|volumes?|pvcs?|claims?|mounts?|disks?|filesystems?))|space left|disks?|filesystems?|file systems?|mounts?|mount ?points?|volumes?|pvcs?|storage|disk ?space|free space|inodes?)\b|\bhow (full|big|large) is \/|\/\S* (is )?(full|at 100)|\b(free|left|used|full) (on|in|at) \//,
  ],
];

/** A volume that is a disk ("our volume", "the data volume", "free space on the volume"), not a volume of traffic. */
const DISK_VOLUME =
  /\b(?:(?:the|our|its|their|that|this|data|persistent|mounted|[a-z0-9]+-[a-z0-9-]+) volumes?|(?:the|our|its|their|that|this) (?!(?:traffic|request|requests|call|calls|message|messages|order|orders|error|errors|log|logs|query|queries|search|upload|uploads)\b)[a-z0-9-]+ volumes?\b|volumes? (?:claims?|mounts?|space|usage|full|fill\w*|size|capacity))\b|\bvolumes?\b(?=[^?.!]*\b(?:space|disk|full|fill\w*|bytes|gib|mib|pvc|claim|mount|free|capacity|size|left)\b)|(?<=\b(?:space|disk|full|bytes|pvc|claim|mount|capacity|size|big|large)\b[^?.!]*)\bvolumes?\b/g;

/** Connections that failed ("connection refused errors", "conn resets", "connections timing out"): failed calls, not connections held. */
const CONNECTION_FAILURES =
  /\bconnections? (refused|reset|resets|dropped|closed|errors?|failures?|failed|failing|timed? ?out|timeouts?|timing out)\b|\b(fail\w*|errors?|rejected|refused) (with |because of |due to |on )?(a |the )?too many (connections|clients)\b/g;

/** A probe from outside the service: blackbox's, a synthetic or uptime check; not the kubelet's liveness or readiness probes. */
const PROBES =
  /\b(blackbox|synthetic|uptime|external|http) ?(probes?|checks?|monitors?)\b|\bprobe_success\b|\b(probes?|health ?checks?) (on|of|against|for|to|hitting)\b(?![^?.!]*\b(liveness|readiness|startup)\b)/;

/** Words of the calls between services: what a service calls, what calls it. */
const CALLS = /\b(call|calls|calling|callers?|depends?|dependencies|dependents|upstreams?|downstreams?|backends?|peers?|reach|reaching|talks? to|talking to)\b/;

const LISTINGS: Array<[Listing, RegExp]> = [
  ['pods', /\b(pods?|replicas?|instances?|containers?)\b/],
  ['nodes', /\b(nodes?|hosts?|machines?)\b/],
  ['versions', /\b(versions?|builds?|images?|releases?|(?:image )?tags?)\b/],
  ['routes', /\b(routes?|endpoints?|paths?|urls?|handlers?)\b/],
  ['peers', CALLS],
];

const ASKS_WHICH =
  /\b(both|all|every|just one|only one) (of (the|its|their) )?(replicas|pods|instances|nodes)\b(?!,? (together|combined|summed|added up|in total|total)\b)|\b(?:are|is) (?:its |the |their |your |our )?(?:[a-z0-9_-]+(?:'s)? )?(?:pods?|replicas?|instances?) (?:even |still |actually |all |really )?(?:up|running|ready|alive|there)\b|\bhow many (?:[a-z0-9_.-]+ ){0,2}(?:pods?|replicas?|instances?|nodes?|hosts?|versions?|builds?|images?|tags?|routes?|endpoints?|paths?)\b|\b(which|list|show|give me|tell me|get me)\b[^?.!,]*\b(pods?|replicas?|instances?|nodes?|hosts?|versions?|builds?|images?|tags?|routes?|endpoints?|paths?)\b|\bwhat(?:'s|s| is| are| were| was)?(?: (?:the|all|its|their|those|these))?(?: [a-z0-9_.-]+)?\s+(pods?|replicas?|instances?|nodes?|hosts?|versions?|builds?|images?|tags?|routes?|endpoints?|paths?)\b|\bwhere (do|does|did|is|are|was|were)\b[^?!]*\b(run|running|scheduled|land|landed|go|went|deployed|rolled out|placed)\b|\b(?:was|is|were|are) (?:that|it|this|they|those|these|(?:the |that |this )?(?:[a-z0-9_.-]+ )?(?:rollout|roll-out|deploy(?:ment)?|release|push|update|upgrade))(?: really| actually| even)? (?:a )?new (?:builds?|images?|tags?|versions?|releases?)\b|\bnew (?:builds?|images?|tags?|versions?) or (?:the )?(?:same|old)\b|\bsame (?:builds?|images?|tags?|versions?) or (?:a )?new\b/;
/** "what does checkout depend on?", "who calls inventory?", "which services does cart call?": a listing of the calls of one service. */
const ASKS_PEERS =
  /^\W*(which|what|who|list|show)\b(?!\s+(?:fraction|share|percent\w*|proportion|ratio|portion|part|rate|number|count|%)\b)[^?.!]*\b(call|calls|calling|callers?|depends?|dependencies|dependents|upstreams?|downstreams?|backends?|peers?|reach|reaching|talks? to|talking to)\b/;
const ASKS_WHEN =
  /\b(?:what|which|at what) (?:exact )?(?:minute|timestamp|hour)\b(?! (?:window|average|mean|rate|of (?:data|traffic)))|\b(?:the )?(?:time|moment|timestamp) of (?:the )?(?:first|last|latest|most recent) \w+|\b(fired|fire|fires|started|began|happened|paged|triggered|went off|expired|recovered|stopped|broke|failed) when\s*\??\s*$|^\W*(?:and |so |ok |okay )?(?:when|at what time|what time)(?: exactly| precisely| roughly| approximately| was (?:that|it|this))?\W*$|\bwhen (this|it|that|the [a-z0-9 _-]{1,40}?|[a-z0-9_-]+) (began|started|begin|start|kicked off|stopped|ended|happened|went down|went out|went live|got worse|landed|shipped|rolled out|(?:was |got )?(?:deployed|released|pushed))\b|\bthe time (?:when )?(?:[a-z0-9_.'-]+ ){1,4}(?:went out|rolled out|started|began|deployed|landed|happened|stopped)\b|^\W*(and |ok |so )?(the )?(first|last|latest|most recent) (\w+ )?(oom ?kill|restart|crash|error|failure|alert|page|timeout)s?\W*$|\b(when (exactly |roughly |approximately |precisely )?(did|does|do|was|were|is|are|has|have)|since when|starting when|from when|from what time|at what point|as of when|what time|how long ago|how long (has|have|did|is|are|was|were)\b(?![^.!]*\b(tak(e|es|ing)|took)\b)|(is|are) (it|they|\S+) still|still (happening|failing|slow|down|firing|going on|broken|ongoing|high|crashing|erroring|restarting)|(has|have) (it|they|\S+) (stopped|recovered|ended|resolved)|did (it|they|\S+) (stop|recover|end))\b/;
const ASKS_CHANGES =
  /\bdid (the |its |their )?([a-z0-9_-]+ )?(image|version|build|tag|release)s?( version)? (also |actually |even |really )?change\b|\b(has|have) (the |its |their )?([a-z0-9_-]+ )?(image|version|build|tag)s? (also |actually |even |really )?changed\b|\b(did (?:somebody|someone|anybody|anyone|any\w*|we|you|they) (?:push|deploy|change|roll|ship|release|edit|apply|touch|modify|update|scale|lower|raise|bump|resize)\b|who (pushed|ran|scaled|deployed|changed|edited|modified|applied|triggered|rolled|released|shipped|made|did|touched|lowered|raised|bumped|updated|set|put|turned|dropped|killed|removed|deleted)\b|(by|from) who(m)?\b|what (has |have )?changed|(which|what) ([a-z0-9_-]+ ){0,2}?(config\w*|configmaps?|settings?|secrets?|flags?|env vars?|changes?|deploys?|releases?|rollouts?) (was |were |got |has been |have been )?(changed|edited|modified|updated|reported|applied|pushed|made|deployed|rolled out|released)|what (was|were|got|has been|have been) (deployed|released|rolled out|changed|shipped|pushed)|what (went|go|goes) out|what (did we|did they|did someone) (ship|push|deploy|release|roll out)|any(thing)? (deploys?|deployments?|rollouts?|releases?|changes?|config(uration)? changes?)|(was|were) there (any )?(deploys?|deployments?|rollouts?|releases?|changes?)|recent (deploys?|deployments?|rollouts?|releases?|changes?)|(deployed|released|rolled out) recently|who deployed|(was|were|has|have|had) (anything|something|any\w*) (been )?(deployed|released|rolled out|changed|pushed)|did (anything|something) change|any(thing)? (new )?(deployed|released|rolled out|changed|pushed))\b/;
const ASKS_RELATED = /\b(related|connected|linked|depends? on|dependent on|(on|share\w*|in|at|run\w* on) (the )?same nodes?|shares?d? (a |any )?nodes?)\b/;
/** "does checkout call payments?": a relation when it names no signal ("how much cpu does cart use over..." does). */
const ASKS_CALLS = /\b(does|do|is|are|did) \S+ (call|calling|use|using|talk to|talking to|reach|need)\s+[a-z0-9]/;
/** "what do the logs say?", "any errors in the logs of inventory?", "show me checkout's log lines": the logs. */
/** What the Kubernetes API answers: events, crashes and their reasons, pods that cannot start or be scheduled. */
const ASKS_CLUSTER =
  /\b(events?|crash(es|ed|ing)?|crash ?loop\w*|oom ?kill(s|ed)?|evict(ed|ions?)?|kubernetes|k8s|probes?|(un)?schedul(ed|able|ing)|image ?pull\w*|back-?off|pod (status|states?)|exit code)\b/;
/**
 * What no source of telemetry records: people and process (who approved, reviewed or owns
 * something, who is on call), what customers said, tickets, and the code inside a process (which
 * thread, line or function). Who deployed or changed something is what a changes integration reports.
 */
const ASKS_OUTSIDE =
  /[€£]|\$\s?\d|\b(eur|usd|gbp)\b|\bbasket (value|size)s?\b|\b(total |the )?(value|amount|worth) of (those|these|them|their|all|the (failed|lost|missed))\b|\btotal amount\b|\bhow many (shoppers|buyers|people|persons|visitors|merchants|signups|members)\b|\bcustomer counts?\b|\b(order|invoice|ticket|case) numbers\b|\babandon\w*\b|\bwho (took|cut|scaled|lowered|deleted|killed|turned)\b|\b(hardware (fault|failure|issue|problem)s?|kernel (panic|bug|oops)|hypervisor|gc pauses?|garbage collect\w*|stuck threads?|thread (dump|starvation)|inside (the )?(process|jvm|app|code))\b|\b(has|have|did) (anyone|anybody|someone|somebody|we|you) (already |yet )?(contact\w*|reach\w* out|call\w*|email\w*|ping\w*|talk\w* to|spoken to|spoke to|notif\w*|told)\b|\bwhen (they'll|they will|it'll|we'll|we will|he'll|she'll)\b|\bwhen (?:are|is) (?:they|we|you|he|she|the \w+|[a-z0-9][a-z0-9_.-]*) (?:going to|gonna|planning to|planning on|expected to|supposed to)\b|\bwhich (redis |sql |db |database )?(commands?|keys?)\b|\b(running|ran|runs) keys\b|\b(has|have|did) [a-z0-9_-]+ (told|said|confirmed|promised|informed|emailed|notified|replied|answered)( us| you| me)?\b|\b(told|said to) us\b|\bwhich (keys?|values?|fields?|settings?|lines?|entries|parameters?)\b[^?.!]*\b(edit\w*|chang\w*|modif\w*|touched|updated)\b|\bwhat (was|got|has been) (actually |exactly )?(changed|edited|modified) (inside|in) (the |that |this )?[a-z0-9_-]*\s*(configmap|config ?map|secret|config file)\b|\bdeadlock\w*\b|\b(tested|testing|qa'?d|verified|validated|tried)\b[^?.!]*\b(staging|qa|pre-?prod|test env\w*|canary|first|beforehand)\b|\b(user[- ]?agents?|source ips?|client ips?|remote ips?|referr?ers?|which bots?|which crawlers?)\b|\bhow (much|many) (of it |of them )?(is|are) (the )?(crawlers?|bots?|scrapers?|real (users|shoppers|customers|people|traffic))\b|\b(is it|is that|is this|are they|are these|are those|was it) (just |all |only |some )?(bots?|crawlers?|scrapers?|a bot|a crawler|a scraper|a ddos|ddos|an attack|real (users|customers|shoppers|people))\b|\b(?:in|inside) the code\b|\bstuck on inside\b|\bwhich (?:\w+ or )?(?:clients?|sessions?|callers?|process(?:es)?|quer(?:y|ies)|sql)\b[^?.!]*\b(?:hold\w*|keep\w*|lock\w*)\b|\bwhen will\b(?![^?.!]*\bexpir)|\bhow long (?:until|till|before) (?:it'?s |it is |we'?re |they'?re |\S+ (?:is|are) )?(?:fixed|back|resolved|restored|renewed|recovered|done|up)\b|\beta\b|\bwhich (?:quer(?:y|ies)|sql|code ?paths?|locks?|transactions?)\b|\bcode ?paths?\b|\bwho\b[^?.!]*\b(approv\w*|signed off|sign off|review\w*|merg\w*|authori[sz]\w*|on[- ]?call|owns?|owner|responsible|accountable|paged|acknowledg\w*|ack'?d|notif\w*|escalat\w*)\b|\b(what|did|do|does|have|has|any|how many|which)\b[^?.!]*\b(customers?|users?|clients?) (said|say|says|complain\w*|report(ed|ing)?|tweet\w*|emailed|called)\b|\b(tickets?|jira|zendesk|sla credits?)\b|\bwhich (threads?|lines? of code|functions?|methods?|goroutines?|commits?|classes)\b|\b(what|which) (line|function|method|commit) (of|in) (the )?code\b|\bsign(ed)? off\b|\b(approved|approval)\b|\b(hpa|autoscaler|kubectl|pipeline|ci|cd|argo\w*|flux|terraform|script|cron\w*|bot|human|person|someone|somebody|manual\w*|by hand) or (a |an |the |by )?(hpa|autoscaler|kubectl|pipeline|ci|cd|argo\w*|flux|terraform|script|cron\w*|bot|human|person|someone|somebody|manual\w*|hand)\b|\b(vendor|support) contacts?\b|\bcontact (details|info\w*|person)\b|\bphone (numbers?)\b|\bwho (should|do|can) (we|i) (call|page|contact|ping|escalate to)\b|\bwhich (keys?|fields?|settings?|flags?) (in|of|did)\b|\b(which|how many|number of|list( of)?)\b(?:(?!\b(?:requests?|reqs?|calls?|errors?|failures?|5xxs?|timeouts?|responses?)\b)[^?.!])*\b(customers?|tenants?|users|compan(y|ies)|ip (ranges?|addresses)|isps?|end[- ]users?)\b|\b(customers?|users|tenants?) (lost|rely|relying|depend\w*)\b|\b(compan(y|ies)|ip (ranges?|addresses)|isps?)\b|\b(revenue|money(?! transfers?)|dollars|euros|cost us|financial\w*|contracts?|slas?|guarantee\w*|penalt\w*|refunds?|compensat\w*|double[- ]?(billed|charged)|charged twice|error budgets?)\b|\b(engineer|person|people|team|who|whom|rota|rotation|schedule)\b[^?.!]*\bon[- ]?call\b|\bon[- ]?call (engineer|person|team|rota|rotation|schedule)\b|\b(which|what) team\b|\b(intentional\w*|intended|on purpose|deliberate\w*|planned|by design|by accident|accidental\w*)\b|\b(aws|gcp|azure|amazon|google|cloud provider)\b[^?.!]*\b(acknowledg\w*|confirm\w*|announc\w*|status|retir\w*|maintenance|terminat\w*|scheduled events?)\b|\b(marketing|campaigns?|promotions?|promo|newsletters?)\b|\b(thread|heap|core|memory|goroutine|stack) ?dumps?\b|\biops\b|\bdisk (?:i\/?o|reads?|writes?) (?:latency|throughput|ops|operations)\b|\bread\/write (?:ops|iops|throughput|latency)\b|\b(order|user|customer|transaction|trace|session|account|payment|message) ?ids\b|\bcredit(s|ed|ing)?\b(?! ?cards?)|\b(lost|lose|losing) (any |their |our |the )?(data|files|orders|uploads|photos|payments)\b|\b(files|data|orders|uploads|photos|payments) (were|was|got|are|have been) (lost|deleted|corrupted|gone)\b|\b(last|previous|prior|earlier) (\w+ )?(incidents?|outages?|postmortems?|post-mortems?)\b|\b(mon|tues|wednes|thurs|fri|satur|sun)day'?s (incident|outage|issue|problem)\b|\bwhy (did|would|does|do) [a-z]+ (push|merge|approve|ship|decide|choose|pick)\b|\b(?:exact|specific|particular) (?:keys?|values?|fields?|settings?|lines?|entries|parameters?)\b[^?.!]*\b(?:edit\w*|chang\w*|modif\w*|touched|updated)\b|\bwho(?:'s| is| are)? (?:holding|keeping|owning|opening|leaking)\b[^?.!]*\b(?:connections?|conns?|locks?|sessions?|transactions?)\b|\bnames? of (?:(?:the|our|those|these|all|affected|impacted) )*(?:customers?|users?|accounts?|tenants?|merchants?|shoppers?)\b|\bcustomer accounts?\b|\bhow many (?:invoices|bookings|purchases|signups|sign-ups)\b|\b(?:request|response|payload)s? (?:body |payload )?sizes?\b|\bbody sizes?\b|\bbytes per request\b|\bthreads?\b[^?.!]*\b(?:blocked|stuck|parked|hung|deadlocked) on\b|\b(?:need|want|get|give me|show me|send) (?:the |a )?stacks?\b(?! ?traces?)/;
// (The asker's own record, "for our incident log", "the change log", is no log of a service.)
// (Nor a disk that holds logs, "the archive log mount", "the logs volume"; nor a part of a name, "log-shipper".)
const ASKS_LOGS =
  /(?<!\b(?:incident|change|audit|decision|ops|work|our|my) )(?<!-)\b(logs?|log ?lines?|logged|logging|log ?messages?|stack ?traces?)\b(?!-\w|\s+(?:mounts?|volumes?|disks?|dirs?|directory|directories|partitions?|paths?|folders?|filesystems?|pvcs?|rotation)\b)/;
/** Asking whether what was just named is the cause: "is that it?", "could that be the culprit?", "is this what's causing it?". */
const CONFIRMS_CAUSE =
  /\b(is|was) (that|this|it) (the|a|our) [a-z0-9 ._-]{0,30}?(deploy|deployment|rollout|release|change|version|upgrade|push|config change)\w*\s*[?.!]*\s*$|\b(could|can|might|would|is|was) (that|this|it)( deploy| rollout| release| change| version)? (be )?(related|connected|linked|relevant|responsible)\s*[?.!]*\s*$|\b(is|was|could|would|might) (that|this|it)( be)? (it|the (main |real |root )?(cause|culprit|reason|problem|issue|trigger))\s*[?.!]*\s*$|\b(is|was) (that|this|it) (a |the )?part of (this|the|our) (problem|issue|incident|outage)\b|\b(is|was) (that|this) why\b|\b(is|was) (that|this) (what'?s |what is )?(causing|behind|driving) (it|this|that|the \w+)\b|\b(is|was) (that|this|it) what('?s| is)? ?(causes?|caused|causing|broke|breaks?|breaking|kills?|killing|slows?|slowing|hurts?|hurting|failing|fails|crashing|affecting)\b|\b(is|was) (that|this|it) what(?:'s| is| was)? (?:keeps |kept )?(?!(?:running|serving|listening|using|holding|showing|scheduled|deployed|shipped|rolling)\b)[a-z]+ing\b|\b(is|was) (that|this) it\b(?=\s*(?:[?,]|or\b|$))|\b(is|was|could|might) (my|our|your|their|the|this|that) (?:[a-z0-9._-]+ ){1,3}(?:really |actually |even )?the (?:real |main |root )?(?:reason|cause|culprit|trigger)\b|\b(are|am) (we|you|i) (really |actually |even )?(sure|certain|confident|positive) (that )?(it'?s|it is|it was|the cause is|the \w+ is)\b[^?.!]*\b(and|but|rather than|instead of|or) not\b/;
const ASKS_CAUSE = /\b(why|root ?cause|cause[sd]?|causing|reason|what happened|explain)\b/;
/**
 * The cause asked whatever measure is named beside it: "cart restarts: root cause?", "crashloop — trigger?", "is that the
 * slowness or a red herring?", "the throttling or something else?", "is the throttling what slows search?", "what is making
 * search slow?".
 */
const ASKS_CAUSE_OVER_MEASURES =
  /\b(?:us|our (?:side|end|code|app|service|fault)|my (?:side|end|code|app|service))\b[^?.!]*\bor (?:the |a |an |our |their |some )?(?:[a-z0-9_-]+ )?(?:provider|vendor|partner|third[- ]party|upstream|downstream|dependenc\w+|bank|them|they|their side|their end|network|infra\w*)\b|\bwhat (?:dependenc\w+|downstream|upstream|callee|backend)\b[^?.!]*\b(?:broken|failing|down|erroring|bad|wrong|dead|at fault|to blame)\b|\b(?:what|which) (?:(?:backend|downstream|upstream) )?(?:services?|components?|dependenc\w+|systems?|backends?|machines?|nodes?|hosts?)\b[^?.!]*\b(?:is|are|was|were)\s+(?:the|our|at) (?:real |actual |root )?(?:problem|issue|culprit|cause|fault)\b|\broot[- ]?causes?\b|\b(?:involved|implicated) in (?:this|the|these|that|our)\b|\btrigger(?:ed)?\s*[?!.]*\s*$|\bwhat (?:triggered|set off|kicked off) (?:it|this|that|the \w+)\b|\bred herring\b|\bculprit\b|\bor (?:is it |was it |is that |was that |is this )?(?:something|anything) else\b|\b(?:is|was|are|were) (?:the |that |this |our |those |these )?(?:[a-z0-9_.-]+ ){1,3}what(?:'s| is)? (?:making|causing|caus\w+|break\w*|slow\w*|kill\w*|fail\w*|hurt\w*|crash\w*|affect\w*|driv\w*)\b|\bwhat(?:'s| is| was) (?:making|causing|behind|driving) (?:the )?[a-z0-9_-]+\b/;
/** The cause asked in other words: "what is checkout failing on?", "what's killing them?", "was it the deploy or not?". */
const ASKS_CAUSE_PHRASED =
  /\b(?:what|which (?:backend|dependency|service|downstream|upstream|one|thing|resource))(?:'s| is| are| was)? (?:[a-z0-9_-]+ ){0,2}?(?:choking|waiting|stuck|blocked|hanging|hung|tripping) on\b|\bwhat(?:'s| is) (?:it|[a-z0-9_-]+) calling (?:that|which)(?:'s| is) (?:broken|failing|down|bad|erroring)\b|\b(?:is|was) (?:the |that |this )?(?:[a-z0-9_./-]+ ){1,2}(?:really |actually |even )?the (?:real |main |root )?(?:problem|issue|culprit|cause|reason)(?: here)?\s*[?.!]*\s*$|\bwhich (?:one|alert|page)s? (?:do|should) (?:i|we) (?:chase|look at|focus on|worry about|care about|start with)\b|\bwhich one'?s real\b|\b(?:is|was|could|might) (?:the|this|that|our|your) (?:new |latest |last |recent )?(?:version|release|deploy(?:ment)?|rollout|build|image|upgrade) (?:\w+ )?(?!(?:rolling|running|deploying|starting|finishing|going|coming|pending)\b)[a-z]+ing\b|\b(?:did|does|could|might) (?:the|this|that|our|your) (?:new |latest |last |recent )?(?:version|release|deploy(?:ment)?|rollout|build|image|upgrade) (?:cause|break|introduce|trigger|leak)\w*\b|\b(?:is|was) (?:the|this|that|our|your) (?:new |latest |last |recent )?(?:version|release|deploy(?:ment)?|rollout|build|image|upgrade|change) (?:really |actually |maybe |definitely |even )?(?:the (?:problem|issue|cause|culprit|reason|trigger)|harmless|innocent|responsible|to blame|at fault|guilty|bad|broken)\b|\b(?:any ?idea|no idea|any clue|know) what'?s? (?:is )?(?:up|going on|happening|wrong)\b|\bwhat'?s up with\b|^\W*(?:so |ok |and )?what'?s up\s*[?.!]*\s*$|\b(?:anything|something) (?:wrong|off|broken|weird) (?:in|with|on|inside) (?:the |your |our )?(?:cluster|cloud|infra\w*|platform|network|side|end)\b|\bor (?:is )?(?:it )?(?:something|anything) (?:underneath|beneath|below|behind|under|further down|deeper)\b|\bis [a-z0-9_-]+ what'?s? (?:is )?(?:making|causing|breaking|slowing|killing|failing)\b|\bor is (?:that|it|this) unrelated\b|\b(?:someone|somebody|people|they|folks|everyone|others)\b[^?.!]{0,40}\bblam(?:e|ed|es|ing)\b|\bwhat(?:'s| is| are) [a-z0-9_-]+ (?:choking|stuck|hanging|waiting|blocked|tripping) on\b|\b(?:is|was|are|were) (?:the |that |this )?(?:[a-z0-9_.-]+ ){1,3}(?:really |actually |truly )?(?:harmless|innocent|to blame|at fault|the (?:cause|culprit)|a victim)\b|\b(?:fail\w*|break\w*|broken|slow\w*|dying|down) (?:on its own|by itself|itself)\b[^?.!]*\bor\b|\bor (?:is |was |are )?(?:a |an |the |one of (?:its|the) |some )?(?:downstream |upstream )?(?:dependenc\w+|callees?|downstream)\b[^?.!]{0,40}\b(?:down|taking|failing|broken|at fault|to blame|causing|breaking|the (?:cause|problem|culprit))\b|\bor is (?:something|anything) else\b|\bis [a-z0-9_-]+ (?:the )?(?:cause|culprit|reason) of\b|\bis [a-z0-9_-]+ (?:a |the )?part of (?:this|the|our) (?:problem|issue|incident|outage|failures?|errors?)\b|\bwhere (?:is|are) (?:the |this |that )?[a-z0-9_-]+ coming from\b|\bor is it (?:something|anything)\b|\bwhat(?:'s| is) (?:actually |really )?(?:failing|breaking|killing|crashing|slowing(?: down)?|hurting) (?:the |our )?[a-z0-9_-]+|\bwhat(?:'s| is) (?:actually |really )?(?:wrong|going on|happening) (?:there|here|with (?:it|them|that|this))\b|\bor (?:is|was) (?:it|this|that) (?:something|anything) else\b|\bor is the (?:problem|issue|fault) (?:in|within|with|on|inside)\b|\bis (?:it|this|that) (?:us|me|our \w+|the app|the code|\S+) or (?:something|someone|anything|the|a|our|them)\b|\b(?:something|anything) (?:downstream|upstream|else) (?:of|from) (?:us|it|them)\b|^\W*(?:so |ok |and )?what(?:'s| is) (?:going on|happening|wrong)\s*[?.!]*\s*$|\bwhat(?:'s| is| are)? (?:\S+ ){0,3}?(?:actually |really |even )?(failing|erroring|breaking|choking|dying|crashing|timing out|hanging|stuck|blocked|waiting) on\b|\bwhat(?:'s| is) (?:actually |really )?(killing|breaking|crashing|slowing( down)?|taking down|hurting|behind|driving|causing) (it|them|this|that|those|these|[a-z0-9_-]+)\b|\b(?:was|is) (?:it|this|that) (?:the|a|our) [a-z0-9 _.-]{0,30}?(?:deploy|deployment|rollout|release|change|config|version|upgrade|push)\w*,? or (?:not|something else|what)\b/;
const ASKS_ACTIONS =
  /\b(what'?s the plan|(?:should|shall|must|can|could|do) (?:we|i|you) roll (?:it|this|that|them|[a-z0-9_.-]+) back|roll (?:it |this |that |them |[a-z0-9_-]+ )?back to|revert (?:it |this |that |[a-z0-9_-]+ )?to|(?:what|how) (?:do|should|must|can) (?:we|i) (?:have to|need to|got to) (?:fix|do|change)|what (?:needs|has) to (?:be done|be fixed|happen|change)|plan of action|game ?plan|roll ?back or|^\W*(should we |do we |can we )?(roll ?back|revert)\W*$|(would|do|what|which|can|could) (you )?recommend|recommend(ed)? (that|we|to|rolling|a|doing)|your recommendation|(should|shall|must|can|could) (we|i|you)\b[^?.!]*\b(roll ?back|revert|restart|scale|undo|drain|cordon)|which version should|go back to (?=v?\d|the (?:old|previous|last|prior)|[a-z0-9_-]+ v?\d)|(is|was) the fix|the fix is|how (do|can|should) (we|i) fix (it|this|that)|what (should|can|do|must) (i|we|you) do|what to do|how (do|can|should) (i|we) (fix|mitigate|resolve|stop|recover)|how to (fix|mitigate|resolve|recover)|next steps?|remediat\w*|mitigat\w*|should (i|we) roll ?back)\b/;
const ASKS_COMPARE =
  /\b(than (usual|normal|typical|expected|baseline)|mov(e|ed|ing)|budg(e|ed)|shift(ed)?|go(ne|es)? up|went up|go(ne|es)? down|went down|increase[ds]?|decrease[ds]?|rise|rose|risen|drop(ped)?|higher|lower|more|less|worse|better|changed?|compare[ds]?|compared|before|after|since|too|also|spike[ds]?|jump(ed)?|slower|faster)\b/;
const ASKS_BY_ROUTE =
  /\bwhich (?:[a-z0-9_-]+ )?(?:routes?|endpoints?|paths?|urls?|handlers?)\b|\b(other routes?|per route|by route|each route|which routes?|every route|all routes|other endpoints?|limited to|only|(one|a single|single|specific|particular|some|certain|all the|every) (routes?|endpoints?|paths?)|spread (over|across))\b/;
/** CPU or memory against the containers' limits. */
const ASKS_LIMIT =
  /\b(cpu|memory|mem|ram)[- ]?(bound|constrained|capped|limited)\b|\b(limits?|quotas?|headroom|saturat\w*|maxed out|max(ed)? out|starv\w*|pegged|overload\w*|over ?loaded|busy|utili[sz]\w*|out of (cpu|memory|mem|cores?|capacity))\b/;
/** The limit itself: "cpu limit of recommendations", "what memory limit does checkout have". */
const ASKS_LIMIT_VALUE = /\b(cpu|memory|mem|ram)\s+(limits?|quotas?)\b|\blimits?\s+(of|for|on)\b/;
/** A disk asked of as a Kubernetes volume ("the ledger PVC", "persistent volumes"): the volumes' fill, not the nodes' filesystems. */
const VOLUME_WORDS = /\b(volumes?|pvcs?|claims?|persistent)\b/;
/** Use against a limit: "close to its limit", "vs its quota", "how much of its limit". */
const AGAINST_LIMIT =
  /\b(close|closer|near|nearing|against|vs|versus|hit|hits|hitting|reach\w*|approach\w*|how much of|percent|share|fraction|proportion|ratio|headroom|saturat\w*|over|above|under|below|within|exceed\w*|throttl\w*)\b|%/;
/** Saturation asked without a measure ("is the node overloaded?", "how loaded is cart?"): its CPU and memory against what it may use. */
const ASKS_SATURATION =
  /\b(saturat\w*|overload\w*|over ?loaded|under (heavy |much )?(load|pressure)|(cpu|memory|resource) pressure|maxed out|out of (capacity|resources)|capacity|headroom|how (busy|loaded|full)|%? ?busy|utili[sz]\w*|(is|are|was|were) (\S+ )?(busy|loaded|full|starved))\b/;
/** Whether a service is affected, asked without a measure: "is payments affected?", "was cart hit too?", "is search ok?". */
const ASKS_AFFECTED =
  /\b(status|state|health) (of|on|for)\b|\b(status|health) (check )?(now|currently|right now|atm|at the moment)\b|^\W*(status|health)\W*$|^\W*[a-z0-9][a-z0-9_.-]*(?:'s)? (?:status|health)\W*$|\b(hurt|hurting|in trouble)\b|\b(does|did|do|is|will) (this|it|that|the (incident|outage|issue|problem)) (also |even |now )?(hit|hitting|affect\w*|impact\w*|touch\w*|reach\w*|spread\w* to)\b|\b(is|are|was|were|has|have|got)\b[^?.!]*\b(affected|impacted|hit|degraded|healthy|unhealthy|ok|okay|fine|suffering|involved|touched|broken|on fire)\b|\bhow('?s| is| are| was|s)\b[^?.!]*\b(doing|looking|holding up|going)\b|\bhow\b[^?.!]*\b(is|are) (doing|looking|holding up|behaving|performing)\b|\b(anything|something) (weird|wrong|odd|off|strange|unusual) (with|about|on)\b|\bwhat'?s (wrong|up|going on) with\b|^\W*how('?s| is| are)\s+[a-z0-9_.-]+\s*\W*$|\bhow bad\b|\b(ok|okay|fine|healthy)\s*\?*\s*$/;
/** How many of something countable there were: "how many requests failed", "how many restarts so far", "total number of errors". */
const ASKS_COUNT =
  /\bhow many (?:[a-z0-9_'-]+ ){0,3}?(?:requests|calls|orders|payments|uploads|writes|reads|transactions|checkouts|logins|searches|attempts|jobs)\b[^?.!]*\b(?:fail\w*|error\w*|rejected|refused|timed out|dropped|lost|5\d\d|5xx)\b|\bso far\b|\bhow many (?:\w+ ){0,2}(failures|errors|probes?|probe failures)\b|\b(in )?total\b|\bhow many (?:\w+ ){0,2}(restarts?|oom ?kills?|crash(es)?|kills)\b|\bhow many (times\b|requests\b|errors\b|failures\b|failed\b|restarts?\b|crash\w*|oom ?kills?\b|5xx|500s\b)|\bhow many\b(?![^?.!]*\b(pods?|replicas?|instances?|nodes?|hosts?|versions?|builds?|routes?|endpoints?|containers?|services?|per (second|sec|s|minute|min))\b)|\b(number|count|total|tally) of (?:[a-z0-9_'-]+ ){0,2}?(requests|errors|failures|failed requests|restarts|crashes|oom ?kills|calls|uploads|writes)\b|\bhow often\b[^?.!]*\b(restart\w*|crash\w*|fail\w*|killed)\b/;
/** Failed requests over a range, named without a question word ("failed orders API requests since ordersdb ran out …"): their count. */
const FAILED_OVER = /\bfailed (?:[a-z0-9_'-]+ ){0,3}(?:requests|calls)\b(?= (?:since|from|between|during|in the|over)\b)/;
/** Calls to something, read from the callers' side: "calls to ledger", "calls from frontend to cart", "cart's redis calls". */
const CALLS_TO =
  /\b(?:calls?|requests?|queries|connections?) (?:from [a-z0-9_.'-]+ )?(?:to|into|against|toward) (?:the )?([a-z0-9][a-z0-9_.-]*)\b(?!['’]s\b)|\bfrom [a-z][a-z0-9_.-]* to (?:the )?([a-z][a-z0-9_.-]*)\b(?!['’]s\b)|\b(?:calls?|requests?)(?:\/s(?:ec)?| per second| a second)? (?:is|are|does|do) [a-z0-9_.-]+ (?:making|sending|issuing|firing|doing|make|send) (?:to|into|against) (?:the )?([a-z0-9][a-z0-9_.-]*)\b|\b(?:p\d\d|latency|latencies|error ratio|error rate|errors|timeouts)(?: of (?:its |the |their )?calls)? (?:to|into|against|toward) (?:the )?(?!(?:respond|reply|answer|load|complete|finish|serve|return|process|recover|settle|drop|go|come|rise|fall|spike|climb|normal|baseline|zero|it|that|this|them|those)\b)([a-z][a-z0-9_.-]*)\b(?!['’]s\b)/;
const NAMED_CALLS = /\b[a-z0-9][a-z0-9_.-]*(?:'s)? ([a-z0-9][a-z0-9_.-]*) (?:calls|queries|call (?=time|latency|duration|errors?|failures?|rate))/;
/** How many so far, as a counter says: "so far", "in total", "the restart count". */
const SO_FAR = /\b(so far|in total|total|altogether|to date|all[- ]time|restart count|restarts? counts?|counters?)\b/;
/** A count asked as a share: "how many failed, as a %", "what fraction of requests failed". */
const AS_A_SHARE = /%|\b(percent\w*|percentage|fraction|share|proportion|ratio)\b/;

/** The share of requests that succeeded, as an SLO counts it: "availability", "success rate", "non-5xx". */
const AVAILABILITY = /\b(availability|availabilty|availibility|success (rate|ratio|share|percentage)|non-?5xx|successful requests share)\b/;

/** What a question sets aside after a comma ("…, not the first crash", "…, rather than the errors"): no measure it asks. */
const SET_ASIDE = /,\s*(?:and )?(?:not|rather than|instead of) (?:the|a|an|its|their|those|these|that|this) [^,?.!]*/g;

/** A CPU or memory question that asks how much is used ("how many cores is it burning?"), not how close to a limit. */
const USES_AN_AMOUNT = /\b(how (much|many)|using|uses|burning|eating|[mg]ib|bytes)\b/;

/** A measure asked pod by pod: "is it both pods or just one?", "which replica is slow?", "p99 per pod". */
const BY_POD =
  /\b(both|either|just one|only one|one of|each|every|all|per|by) (of )?(the |our |its |their |these |those )?([a-z0-9-]+ )?(pods?|replicas?|instances?)\b|\bwhich (one|pod|replica|instance)s?\b|\bone of (them|those|these)\b|\b(healthy|other|remaining|surviving|good|new|old) (pods|replicas|instances)\b/;

/** A duration requests are counted beyond ("requests took longer than 1 second", "calls slower than 500ms", "those over 2s"). */
const SLOWER_THAN =
  /\b(?:requests?|reqs|calls?|hits|ones|queries|transactions|traffic|them|those)\b[^?.!]{0,40}?(?:\b(?:took|take|takes|taking|slower than|longer than|over|more than|above|exceed(?:ed|ing|s)?|beyond|past)\s+(?:than\s+)?(\d+(?:\.\d+)?)\s*(ms|millis(?:econds?)?|s|secs?|seconds?)\b|>\s*(\d+(?:\.\d+)?)\s*(ms|s|secs?|seconds?)\b)/;
/** Failures asked per second, not as a share: "how many reqs/s are failing", "errors per second", "5xx/s". */
const PER_SECOND = /\b(per (second|sec|s)|a (second|sec)|rps|qps)\b|\/s(ec)?\b|\brate of (5\d\d|5xx|50x)s?\b/;
/** A follow-up that asks the same of something else: "did errors rise as well?", "and cart too?". */
const ASKS_ALSO = /\b(too|as well|also|either)\b/;
/** What runs on a node: "what else runs on ip-10-0-2-34?", "which pods are on that node?", "anything else there?". */
const ASKS_ON_NODE =
  /\b(what|what's|whats|which|who|anything|everything|list|show)\b[^?.!]*\b(else\b[^?.!]*\b(run|runs|running|on|there|scheduled|placed|shar\w*|co-?located)\b|(runs?|running|scheduled|placed|hosted|lives?|co-?located) (on|there)\b|(is|are|was|were) on\b|'?s on\b)/;
/** What uses a node's CPU or memory: "what's eating cpu on ip-10-0-3-41?", "which pods hog memory on that node?". */
const ASKS_USING_NODE =
  /\b(what|what's|whats|which|who)\b[^?.!]*\b(eating|using|hogging|taking|consuming|burning|uses|takes|eats|hogs)\b[^?.!]*\b(on|there|(node|host|machine|box)'?s)\b|\b(what|what's|whats|which|who)\b[^?.!]*\b(on|there)\b[^?.!]*\b(eating|hogging|taking|consuming|burning|eats|hogs)\b/;
/** The node a workload or pod runs on: "the node ledger-reconcile is on", "catalog-sync's node", "the host running search". */
const NODE_OF =
  /\b(node|host|machine|box|vm)s? (that |which |where )?[a-z0-9][a-z0-9_.-]* (is|are|runs?|was|were|sits?|lives?|is running|is scheduled) on\b|\b[a-z0-9][a-z0-9_.-]*'s (node|host|machine|box|vm)s?\b|\b(node|host|machine|box|vm)s? (running|hosting|under) [a-z0-9][a-z0-9_.-]*\b/;
/** A node that failed: "which node died?", "the machine that went down", "when did it go NotReady?". */
const NODE_HEALTH =
  /\b(nodes?|hosts?|machines?|vms?|box|instances? of the cluster)\b[^?.!]*\b(died|dead|down|failed|failing|not ?ready|notready|unhealthy|lost|crashed|went away|gone|unreachable|under (memory|disk|pid) pressure)\b|\b(not ?ready|notready)\b|\b(memory|disk|pid) ?pressure\b/;
/** The other pods of a workload one of whose pods was named: "the other replica", "the other one". */
const OTHER = /\bthe other (?:[a-z0-9-]+ )?(one|replica|pod|instance|container)s?\b|\bthe other\s*\W*$/;
/** A node an earlier answer named: "that node", "the same host", "runs there". */
const REFERS_NODE = /\b(that|this|the|same|those|these) (node|host|machine|box|server|vm)s?\b|\b(runs?|running|else|scheduled|placed) there\b/;
/** What a reference's noun says changed: a rollout, or a change of a measure ("surge" and "flood" are traffic). */
const REFERENCE_NOUNS =
  'surge|spike|jump|rise|increase|climb|burst|flood|storm|drop|dip|fall|rollout|roll-out|deploy|deployment|release|upgrade|downgrade|restart|restarts|crash|crashes|change|edit|config change|config push|config update|push|build|version';
/** A change made to a service (as deploy and configuration tools report them), not one of a measure. */
const ROLLOUT_NOUNS = /^(rollout|roll-out|deploy|deployment|release|upgrade|downgrade|change|edit|config change|config push|config update|push|build|version)$/;
const TRAFFIC_NOUNS = /^(surge|flood|storm|burst)$/;
/** "before the surge started", "since the latency spike", "after frontend's rollout", "since the frontend deploy": a reference by what happened. */
const REFERENCE = new RegExp(
  `\\b(?:before|since|after|prior to|until|from)\\s+((?:(?:the|that|this|its|their|a)\\s+)?(?:[a-z0-9_.'-]+\\s+){0,3}?)(${REFERENCE_NOUNS})(?:s)?\\b`,
);
/**
 * What the asker is about to do ("before I sign off on 'it's 2.15.0' -", "before we say 'consumers
 * are gone'"): no moment of the data, and nothing the question asks about.
 */
const ASKERS_OWN_STEP =
  /\bbefore (?:we|i|you|anyone|someone|somebody) (?!(?:deploy|roll|push|releas|ship|restart|scal|chang|edit|upgrad|merg|start|saw|notic|got|had)\w*)(?:[^?.!,;:—–]|\.(?=\d))*?(?=\s+[-—–]\s|[?!,;:—–]|\.(?!\d)|$)/g;
/** "before it started rising", "since errors began climbing", "around when search got slow": a reference by a change's start. */
const REFERENCE_BY_VERB =
  /\b(?:before|since|after|prior to|until|around|about|near)\s+(?:when\s+)?((?:[a-z0-9_.'-]+\s+){0,3}?)(?:started|began|starts|begins|start|got|went|became|turned)\s+(?:to\s+)?(ris\w*|climb\w*|go(?:ing)? up|spik\w*|jump\w*|increas\w*|fail\w*|error\w*|slow\w*|drop\w*|fall\w*|crash\w*|restart\w*|down|bad|worse)/;
/**
 * "since the media disk filled up", "after the partner-bank certificate expired", "since ip-10-0-3-41
 * went NotReady", "since the pool ran dry": an event that is no change of a measure, dated as the
 * question of when it happened is.
 */
const REFERENCE_BY_EVENT =
  /\b(?:since|after|before|prior to|until|from)\s+(?:when\s+)?((?:[a-z0-9_.'/-]+\s+){1,5}?(?:filled up|fill(?:s|ed)?(?: up)?|got full|was full|became full|ran out(?: of (?:space|disk|memory|connections))?|ran dry|run dry|expired|went (?:notready|not ready|unready)|became (?:notready|not ready|unready)|(?:got|was) (?:exhausted|edited|changed|modified)|hit (?:its |the )?(?:limit|max\w*|zero|100 ?%)|(?:got |was )?scaled (?:down|to zero|to 0)))(?=$|[\s?.!,;:)])/;
/** "before the crawler showed up", "since the batch job kicked in": the start of a change of the question's own measure. */
const REFERENCE_BY_ARRIVAL =
  /\b(?:before|since|after|prior to|until)\s+(?:when\s+)?((?:[a-z0-9_.'-]+\s+){1,3}?)(?:showed up|shows up|appeared|arrived|kicked in|came in|came along|came up|came online|went live|rolled out|hit|started|began|landed)\b/;
/** "compared to an hour ago", "vs 30 min ago", "than two hours ago": now against a moment that long before. */
const REFERENCE_AGO =
  /\b(?:(?:compared (?:to|with)|vs\.?|versus|than|since|from|to|with|at)\s+)?(an?|one|two|three|four|five|six|seven|ten|fifteen|twenty|thirty|half an|\d+(?:\.\d+)?)\s*(minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w)\s+(?:ago|(?:earlier|back)\b(?!\s+(?:than|then|from|when)\b))\b/;
/** "the same time yesterday", "vs yesterday", "last week": now against a day or a week before. */
const REFERENCE_DAYS =
  /\b(?:(?:the )?same time (?:yesterday|last week)|(?:compared (?:to|with)|vs\.?|versus|than|with|from|since) (?:yesterday|last week)|yesterday|last week)\b/;
/** "then", "since then", "at that time": the time the previous answer named. */
const THEN =
  /\b(?:around|at|by|before|after|since|until|till|from|back) then\b|\bthen\s*[?.!]*\s*$|\b(?:ever )?since(?: (?:that|it)(?: time| point| moment)?)?\s*[?.!]*\s*$|\bat (?:that|the same|this) (?:time|moment|point)\b|\bat the time\b|\b(?:just|right) (?:before|after) (?:that|it)\s*[?.!]*\s*$/;
const COMPARED_THEN = /\b(?:before|after|since|until|till|from) then\b|\bsince(?: (?:that|it)(?: time| point| moment)?)?\s*[?.!]*\s*$/;
const REFERS =
  /\bthe (latest|last|first|other|previous|same|earlier|newer|older|new|old) ones?\b|\b(it|its|it's|that service|this service|the service|those|these|them|they|their|the (new|old|bad|previous|latest) (version|build|release|image|deploy)|(that|this) (version|build|release|image)|same)\b|\b(did|does|do|is|was|has|had|when) (that|this)\b(?!\s+(node|host|machine|pod|service|version|route)s?\b)|\b(that|this)\s*[?.!]*\s*$/;

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
};
const UNIT_MINUTES: Record<string, number> = { minute: 1, min: 1, m: 1, hour: 60, hr: 60, h: 60, day: 1440, d: 1440, week: 10080, w: 10080 };

/**
 * Words that never name a subject: the grammar's own words, common English, times and numbers.
 * What is left may name a service, job, pod or node, and is matched against label values.
 */
const COMMON = new Set(
  (
    'liveness readiness startup pile piled piling dry idle transaction transactions txn crashloopbackoff oomkilled notready runbook ' +
    'a about after again all also am an and any anything are around as at back be been before being between both but by can could did do does doing done down during each ' +
    'else ever every for from get got had has have how i if in into is it its just know last let like look made make many may me more most much my no not now of off ok on ' +
    'once only or other others our out over past please really right same see seen should show since so some still tell than thanks that the their them then there these ' +
    'they this those through to today too up us very want was we were what whats when where which while who why will with would yes yesterday you your ' +
    'ago recently recent currently current going happen happened happening compared compare versus vs per each every limited run runs running ran ' +
    'minute minutes min mins hour hours hr hrs day days second seconds week weeks go goes gone went increase increased decrease decreased rise rose higher lower ' +
    'worse better change changed spike spiked jump jumped drop dropped average mean max maximum median peak now new old ' +
    'request requests rate rates traffic throughput rps qps load volume error errors failure failures failing failed fail exception exceptions ' +
    'latency latencies slow slower slowness fast faster percentile percentiles response time times duration durations cpu core cores processor memory mem ram heap ' +
    'pod pods replica replicas instance instances container containers node nodes host hosts machine machines version versions build builds image images release releases ' +
    'route routes endpoint endpoints path paths url urls handler handlers service services job jobs app application scheduled list ' +
    'cause causes caused causing root reason explain fix mitigate resolve recover remediate step steps roll rollback should must ' +
    'alert alerts incident incidents issue issues problem problems regression is use uses used using much does ' +
    'started start starts begin began begun stop stopped ended end recovered still long since deploy deploys deployed deployment deployments ' +
    'rollout rollouts rolled released changes anything something related connected linked depend depends dependent call calls calling talk reach ' +
    'ratio ratios serve serves served serving need share shares shared affect affects affecting down unreachable unavailable answering responding reachable restart restarts restarted restarting ' +
    'crash crashes crashed crashing crashloop loop oom kill kills killed happening firing broken ongoing erroring limit limits quota quotas headroom ' +
    'log logs logged logging line lines message messages say says said saying show tell stack trace traces written write wrote writes ' +
    'event events kubernetes k8s cluster probe probes evicted eviction evictions scheduled unscheduled unschedulable scheduling pull pulling image backoff back-off exit code status state states ' +
    'affected impacted hit degraded healthy unhealthy okay fine suffering involved touched saturated saturation overloaded loaded busy pressure capacity ' +
    'placed hosted lives co-located colocated surge spike spikes jump rise rising climb climbing burst flood storm dip fall upgrade downgrade started began well either ' +
    'usual normal normally typical typically baseline expected bad box server right just exactly anyway dragging sluggish lagging timing timeout timeouts ' +
    'queue queues backlog message messages msg msgs consumer consumers oldest stale staleness waiting ready pending unacked draining drained drain drains think guess believe suppose full sec secs told filled yet itself themselves recovering improving improve improved trending stabilising stabilizing settling easing fire fired fires timeline specifically security three four five several different according customer customers doc docs cert certs certificate certificates tls ssl x509 expire expired expires expiry expiring one ones other another cut cuts lowered raised bumped dropped reduced starved starving pegged throttled stalled stuck connection connections pool pools hikari hikaricp max_connections latest last first earliest newest previous ' +
    'wrong even pvc pvcs claim claims mount mounts mountpoint mountpoints volume volumes disk disks filesystem filesystems partition partitions taking take takes took exporter exporters returning returns returned throwing throws threw seeing getting showing shows showed coming sorry apologies dashboard dashboards panel panels graph graphs legend figure figuring learning basic silly obvious confused sure remember recognise recognize understand number numbers percentage percentages percent fraction thing things stuff ' +
    'thank hello hi hey morning afternoon evening good great quick check whether overall update updates channel leadership team teams everyone anyone ' +
    'someone somebody kindly might need needs wondering curious question questions able give both roughly approximately moment present mentioned earlier typical typically ' +
    'part leaving aside besides apart setting ignoring regardless best tell reads writes read write req reqs 5xx 4xx 5xxs 4xxs 500s 503s 504s kick kicked kicks off far total overall whole entire own spread extra additional size capacity big large come starting utc gmt timezone exact page paged paging pages came outage space left remaining available free room move moved moving budge budged shift shifted post put patch delete actually really replicaset replicasets statefulset daemonset plan hurt hurting placing place places adding add adds submitting submit real thx ty thanx safe keep keeps kept retry retries retrying retried leak leaks leaking leaked idea underneath beneath behind choking choke chokes hard callers caller renew renewed renewing config configs configuration saw noticed notice harmless innocent guilty innocuous benign lead leads here trying across mib mb gib gb kib length window windows slide slides deck placements placement sheet spreadsheet report notready unready dry don doesn didn isn wasn aren weren won refused refusal refusals point points somewhere somehow break breaks breaking sitting sits sat become became becomes zero' +
    ' reported evidence pinning pinned edit edits edited metrics short matters matter mattered two crashlooping crashloop crashloops crashlooped feels feel felt side sides ' +
    // A protocol ("fails with HTTP 507"), a scrape target and scaling name no service.
    'http https http2 grpc tcp udp graphql websocket websockets scale scaled scaling target targets ' +
    // Verbs of failing and waiting, and how exact an answer need be.
    'errored rejected rejecting rejects refused live wait waits waited ballpark rough estimate estimated impact backend staying stays lot lots together fewer ' +
    'patchy flaky spotty intermittent intermittently provider dependency dependencies landed shipped picking picks picked processing forever nothing ' +
    // A client's platform ("the ios app", "users on android") names no service.
    'ios android iphone ipad mobile browser browsers desktop tag tags way gets got pulls ' +
    // Kinds of Kubernetes objects and what a process runs ("which configmap", "threads waiting"), and what a hog does, name nothing.
    'configmap configmaps secret secrets cronjob cronjobs namespace namespaces ingress hpa threads thread gap ' +
    'hammering hammered hogging hogged pegging pegged eating burning chewing'
  ).split(' '),
);

/**
 * The words of the grammar a typo is corrected to ("latncy", "erors", "restrats", "deplyed"), the
 * likelier first: words of five letters or more, none a usual service name. A word one edit or one
 * swap of neighbouring letters away from one of them, and not itself a word of COMMON, is read as it.
 */
const VOCABULARY = (
  'latency latencies errors error failures failing failed requests request traffic throughput restarts restarted restarting crashing crashed ' +
  'memory deployed deploys deployment deployments rollout released changed changes version versions replicas instances percentile ' +
  'related started happened happening caused causing saturated affected depends dependencies upstream downstream recently rising ' +
  'increase increased decreased slower compared before since which where still spike surge cause'
).split(' ');

/** Whether `a` is `b` with two neighbouring letters swapped ("whcih", "latnecy"). */
function swapped(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const at = [...a].findIndex((c, i) => c !== b[i]);
  return at >= 0 && at < a.length - 1 && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}

/** Chat shorthand, read as the words it stands for: "b4" is before, "rn" right now, "reqs" requests. */
const SHORTHAND: Record<string, string> = {
  b4: 'before',
  teh: 'the',
  hte: 'the',
  rn: 'right now',
  atm: 'now',
  r: 'are',
  u: 'you',
  ur: 'your',
  pls: 'please',
  plz: 'please',
  smth: 'something',
  sth: 'something',
  thx: 'thanks',
  req: 'request',
  reqs: 'requests',
  msg: 'message',
  msgs: 'messages',
  conn: 'connection',
  conns: 'connections',
  svc: 'service',
  prev: 'previous',
  hr: 'hour',
  hrs: 'hours',
  avg: 'average',
  w: 'with',
  bc: 'because',
  cuz: 'because',
  pct: 'percent',
  perc: 'percent',
  lat: 'latency',
  errs: 'errors',
  err: 'error',
  q: 'queue',
  qs: 'queues',
  wen: 'when',
  wat: 'what',
  wot: 'what',
  wut: 'what',
  wich: 'which',
  whcih: 'which',
  y: 'why',
  hw: 'how',
  abt: 'about',
  ppl: 'people',
  rly: 'really',
  tho: 'though',
  mem: 'memory',
  num: 'number',
  cnt: 'count',
  diff: 'difference',
  prod: 'production',
  dep: 'dependency',
  deps: 'dependencies',
  cfg: 'config',
};

/** `text` with the typos of the grammar's words corrected (see VOCABULARY) and its shorthand spelt out (see SHORTHAND); a name-shaped word (digits, `-`, `_`, `.`) is never touched. */
function corrected(text: string): string {
  // "errs/s" is errors a second; "&" and "+" between words join two questions as "and" does.
  const spelt = text
    .replace(/(?<![\w./-])[a-z0-9]+(?![\w.-])(?!\/[a-z0-9]{2})/g, (token) => SHORTHAND[token] ?? token)
    .replace(/\s+[&+]\s+/g, ' and ')
    // "frontend->cart calls", "statements → archive": the calls from the one to the other.
    .replace(/\b([a-z0-9][a-z0-9_.]*(?:-[a-z0-9_.]+)*)\s*(?:->|→|=>)\s*([a-z0-9][a-z0-9_.-]*)(?:\s+(?:calls?|requests?))?/g, 'calls from $1 to $2')
    .replace(/\bout[- ]of[- ]memory\b/g, 'oom')
    // "is it fixed yet?", "is the outage over?", "has it recovered yet?": whether it still happens.
    .replace(
      /\b(is|has|was) (it|that|this|the (?:incident|outage|issue|problem)|everything) (already |now |finally )?(over|fixed|resolved|recovered|back to normal|cleared|mitigated)( yet| now| already)?\b/g,
      '$1 $2 still happening',
    );
  return spelt.replace(/[a-z]{5,}/g, (token, at: number) => {
    if (COMMON.has(token) || VOCABULARY.includes(token) || /[\w.-]/.test(spelt[at + token.length] ?? '') || /[\w.-]/.test(spelt[at - 1] ?? '')) return token;
    return VOCABULARY.find((w) => Math.abs(w.length - token.length) <= 1 && (distance(w, token) === 1 || swapped(w, token))) ?? token;
  });
}

/** How much of a message is read: a question is short, and the grammar's patterns scan what they read. */
const READ_CHARS = 2000;

/** Greetings and thanks a message opens with: "Good morning.", "Thanks!", "hi team,". */
const PLEASANTRY =
  /^\s*(good (morning|afternoon|evening)|hi|hello|hey|thanks?( you)?( so much| a lot)?|thank you|ok(ay)?|cool|great|sorry|quick (one|question))\b( (all|team|folks|everyone|there))?[\s,.!:;-]*|^\s*(?:a |the )?(?:ballpark|rough(?:ly)?|approx\w*|estimate|best guess|back of (?:the )?envelope|tl;?dr|urgent|asap)(?: (?:number|figure|estimate|count|answer)s?)?\s*[:,-]\s*/;
/** Who asks or what for, before the question itself: "For the status page, …", "As the incident commander I need …: when did …", "security here. …", "data eng: …". */
const PURPOSE =
  /^\s*(for|as|re|regarding) (?![^,:?—–]*\b(i|we|you|i'd|we'd|i'm|we're|need|want|give|show|tell|please|pls|can|could|what|how|which|when)\b)[^,:?—–]{0,100}(?:[,:]|\s[—–-])\s+|^\s*(security|secops|data|data ?eng\w*|support|product|qa|legal|finance|comms|management|mgmt|sales|marketing|cs|csm)( here| team| eng\w*| engineering| side)?\s*(:|[-—–.,]\s)\s*|^(?!\s*[a-z0-9_.-]+\s*:)(?![^?:]*(->|→|=>))[^?:]{0,160}:\s*(?=(when|what|which|how|is|are|was|were|did|does|do|can|could|where|who|why|has|have)\b)/;

/**
 * A clause that says what the answer is for ("… so I can reference it in our ticket", "… to paste it into the report"): what it
 * names (a ticket) is not what is asked.
 */
const WHAT_FOR =
  /,?\s+(?:so (?:that )?(?:i|we|you|they|the \w+) (?:can|could|may|might|will)|(?:in order )?to (?:put|reference|cite|add|paste|include|quote|note|mention|link) (?:it|that|this|them))\b[^?.!]*/g;

/** The question of a message without the pleasantries that open it and the clause that says who asks it or what for. */
function withoutPreamble(text: string): string {
  let rest = text;
  for (let i = 0; i < 3; i++) {
    const next = rest.replace(PLEASANTRY, '').replace(PURPOSE, '');
    if (next === rest) break;
    rest = next;
  }
  return /[a-z]/.test(rest) ? rest : text;
}

/**
 * The name a message's opening clause gives as its topic ("catalog-sync on the inventory node: when
 * did its cpu go up?"): its first word shaped like a name (with a hyphen, an underscore or a digit),
 * what "it" in the questions after it means; null when the message opens with none.
 */
function topicOf(message: string): string | null {
  const lower = message.toLowerCase();
  const opening = lower.slice(0, lower.length - withoutPreamble(lower).length);
  if (!/:\s*$/.test(opening) || /^\s*(for|as|re|regarding)\b/.test(opening)) return null;
  // (A hyphenated word of the language, "a follow-up on orders-worker:", "on-call here:", is no name.)
  return (
    subjectWords(opening, [], []).find(
      (w) =>
        /[a-z]/.test(w) &&
        ((/[-_\d]/.test(w) && !/-(up|in|on|off|out|over|by|down|call|mortem|mail|run|side)$|^(e|re|co|non|pre|post|self)-/.test(w)) ||
          // (Or a word no dictionary holds that opens the message, perhaps a name misspelt: "paymnets errors: …".)
          (!/[-_\d]/.test(w) && !isEnglish(w) && opening.trimStart().startsWith(w))),
    ) ?? null
  );
}

/** A question that refers to what it does not name ("when did its cpu go up?") asks about the topic of its message. */
function aboutTopic(asked: TypedQuestion, topic: string | null): TypedQuestion {
  return topic && asked.refers && !asked.words.length ? { ...asked, words: [topic], placedAsNames: [topic], nameShaped: [topic], refers: false } : asked;
}

/**
 * Reads the typed question a message asks (from its first READ_CHARS characters). A question
 * after statements ("catalog-sync shares a node with inventory. what CPU does it take?") is
 * of the kind its own sentence asks, about what the statements name when it names nothing itself.
 * `pasted`: whether a PromQL expression it gives is evaluated (see runnableQuery); not in what is
 * left of a message once its expression was taken out.
 */
export function parseQuestion(message: string, pasted = true): TypedQuestion {
  const query = pasted ? runnableQuery(message) : null;
  if (query) return query.asked;
  const whole = withoutClosingStatement(withQuotesAsStatements(message.slice(0, READ_CHARS)));
  // (A question after a dash is a sentence of its own: "ip-10-0-3-41 is at 98% cpu — what's on it?")
  const sentences = whole
    .split(/(?<=[.!?])\s+(?=\S)|\s[—–-]\s(?=(?:what|what's|whats|which|when|where|who|why|how|since when)\b)/i)
    .filter((s) => /[a-z]/i.test(s));
  const read = aboutTopic(parseText(whole), topicOf(whole));
  // The statistic the questions name, not one a statement beside them names ("the average latency right now? p99 alone looks scary").
  const [statistic, ...others] = statisticsNamed(sentences.filter((s) => /\?\s*$/.test(s)).join(' '));
  const full = read.signals.includes('latency') && statistic && !others.length ? { ...read, ...statistic } : read;
  // The questions begin at the first sentence that asks one (the last sentence when none ends with a question mark).
  const asking = sentences.findIndex((s) => /\?\s*$/.test(s));
  const from = asking < 0 ? sentences.length - 1 : asking;
  // (What an alert is about is asked of the whole message when the question follows its name in the same sentence, "KubePodCrashLooping
  // on cart - which pod is it?"; not after a statement that names what else happened: "FrontendHighErrorRate - the handover mentions a
  // node going away. which node?")
  const ofTheAlert = !!full.alertNamed && new RegExp(`${escape(full.alertNamed)}[^.!?]*$`).test(sentences.slice(0, from).join(' '));
  if (sentences.length < 2 || from === 0 || (full.listings.includes('alerts') && ofTheAlert)) return full;
  const own = parseText(sentences.slice(from).join(' '));
  // Measures the questions name are what is asked, not those the statements before them name ("accounts is failing requests. What percent of its max_connections is used?").
  // (Nor a comparison only the statements make: "… keeps dying with 'too many clients'. how close is ordersdb to its limit right now?")
  const ownMeasures =
    (own.kind === 'signals' || own.kind === 'when') &&
    full.kind === own.kind &&
    own.signals.length > 0 &&
    (own.signals.length < full.signals.length || (full.compare && !own.compare));
  // (Nor listings only the statements make: "our calls to checkout get resets. are its pods even up?" lists its pods, not its peers.)
  const ownListings = own.kind === 'which' && full.kind === 'which' && own.listings.length > 0 && own.listings.join() !== full.listings.join();
  // (Nor a measure only the statements name beside a question of when a version went out: "accounts errors overnight. when did 1.4.1 roll out?")
  const ownRollout = own.kind === 'when' && own.rollout && !own.signals.length && full.signals.length > 0;
  // (Nor a listing of routes or pods the measure of the statements is split by: "getting 500s on checkout. which endpoint is throwing them?")
  const splitsTheirMeasure = own.kind === 'which' && full.kind === 'signals' && (full.byRoute || full.byPod) && !own.signals.length;
  // (The subjects the question names come before those only the statements name: "handover says checkout 2.14.4 went out and then
  // inventory fell over - since when has inventory been down?" asks of inventory.)
  const questionFirst = { ...full, words: [...own.words.filter((w) => full.words.includes(w)), ...full.words.filter((w) => !own.words.includes(w))] };
  if (own.kind === 'unknown' || splitsTheirMeasure || (own.kind === full.kind && !ownMeasures && !ownListings && !ownRollout)) return questionFirst;
  // ("I look after accountsdb. Is the database itself overloaded?": "the database" is the one the statements named.)
  const names = own.words.some(
    (w) =>
      (own.placedAsNames.includes(w) || own.nameShaped.includes(w) || /[-_.\d]/.test(w)) &&
      !/^(database|db|service|app|server|cache|queue|cluster|system|thing|one)$/.test(w),
  );
  // ("the handover mentions the thumbnailer cronjob - is that related to SearchLatencyHigh?": "that" is what the statements named,
  // shaped as a name, related to what the question names.)
  const referent = own.kind === 'related' && own.refers && names ? full.nameShaped.filter((w) => !own.words.includes(w)) : [];
  return {
    ...own,
    words: names ? [...referent, ...own.words] : full.words,
    placedAsNames: names ? [...referent, ...own.placedAsNames] : full.placedAsNames,
    plainWords: names ? own.plainWords : full.plainWords,
    nameShaped: names ? [...referent, ...own.nameShaped] : full.nameShaped,
    compounds: names ? own.compounds : full.compounds,
    refers: names || !full.words.length ? own.refers : false,
    versions: own.versions.length ? own.versions : full.versions,
    routes: own.routes.length ? own.routes : full.routes,
    byRoute: own.byRoute || (!own.routes.length && full.routes.length > 0),
  };
}

/** The typed question of a message read whole. */
/**
 * The metric names a question may use for a measure ("what does container_memory_working_set_bytes say for orders?",
 * "histogram_quantile(0.99, …) of search", "http_requests_total{code=~\"5..\"} for checkout"), as the words of the measure, so
 * that a metric's name is read as what it measures, not as the name of a service.
 */
const METRIC_WORDS: Array<[RegExp, string]> = [
  [/^http_requests_total$|^http_server_requests_seconds_count$|_requests_total$|^requests_total$/, 'requests'],
  [/_duration_seconds(?:_bucket|_sum|_count)?$|_latency_seconds(?:_bucket)?$/, 'latency'],
  [/^kube_pod_container_status_restarts_total$/, 'restarts'],
  [/^kube_pod_container_status_last_terminated_reason$/, 'last terminated reason'],
  [/^container_memory_working_set_bytes$|_resident_memory_bytes$|^container_memory_usage_bytes$/, 'memory'],
  [/^container_cpu_usage_seconds_total$|^process_cpu_seconds_total$|^node_cpu_seconds_total$/, 'cpu'],
  [/^container_cpu_cfs_(?:throttled_)?periods_total$|^container_cpu_cfs_throttled_seconds_total$/, 'throttling'],
  [/^pg_stat_activity_count$|^hikaricp_connections\w*$|^db_client_connections\w*$|^mysql_global_status_threads_connected$/, 'connections'],
  [/^pg_settings_max_connections$/, 'max_connections'],
  [/^node_filesystem_\w+$|^kubelet_volume_stats_\w+$/, 'disk space'],
  [/^kube_deployment_status_replicas\w*$|^kube_deployment_spec_replicas$/, 'replicas'],
  [/^rabbitmq_queue_messages\w*$/, 'queue messages'],
  [/^probe_ssl_earliest_cert_expiry$/, 'certificate expiry'],
  [/^kube_node_status_condition$/, 'node ready'],
];

/**
 * A PromQL expression the message gives to be evaluated ("sum(rate(…[5m])) pls", "<expr> — value?", "what does <expr> give
 * now?"), as the question of a part of its own, with the message's own question about it (`rest`, the expression's measure
 * written in its place) when it asks a measure of its own or one against a limit ("… — how high did it get vs the limit?"). Not a
 * counter's or a histogram's raw series (whose values mean nothing until a rate is taken), and not an expression beside a
 * question of another kind or about something else ("kube_node_status_condition{…} 0 — which cart pod was on that box?").
 */
function runnableQuery(message: string): RunnableQuery | null {
  // (A message's parts and its question are both read from it: the expression is found once.)
  if (lastRunnable?.message !== message) lastRunnable = { message, found: findRunnableQuery(message) };
  return lastRunnable.found;
}

interface RunnableQuery {
  expr: string;
  asked: TypedQuestion;
  rest: string | null;
}
let lastRunnable: { message: string; found: RunnableQuery | null } | undefined;

function findRunnableQuery(message: string): RunnableQuery | null {
  const pasted = pastedQuery(message.slice(0, READ_CHARS));
  // (Nor a metric's name alone: "what does container_memory_working_set_bytes say for orders?" names a measure.)
  if (!pasted || !/[{([]/.test(pasted.expr) || /^[a-z_:][a-z0-9_:]*(_total|_count|_sum|_bucket)\s*(\{[^}]*\})?$/.test(pasted.expr)) return null;
  const ownText = `${pasted.before} ${pasted.after}`;
  const own = parseText(ownText);
  // (A listing of pods is the expression's own split when it sums by pod: "… by (pod, le) … — what is the worst pod at?")
  const splitByPod = /\bby\s*\([^)]*\bpod\b/.test(pasted.expr) && own.listings.every((l) => l === 'pods');
  // (A comparison in time is read as the engine reads one: "<expr> of search vs before?".)
  if (!['signals', 'unknown', ...(splitByPod ? ['which'] : [])].includes(own.kind) || own.compare || own.reference) return null;
  const asked: TypedQuestion = { ...parseText(''), kind: 'signals', query: pasted.expr };
  const asks =
    own.kind === 'signals' || own.againstLimit || /\b(vs\.?|versus|against|compared|limits?|ceiling|max\w*|how many of (them|those|these))\b/i.test(ownText);
  return { expr: pasted.expr, asked, rest: asks ? `${pasted.before} ${withMetricNamesAsWords(pasted.expr.toLowerCase())} ${pasted.after}`.trim() : null };
}

/** A question with the metric names it uses written as the words of their measures (see METRIC_WORDS). */
function withMetricNamesAsWords(text: string): string {
  if (!/\b[a-z][a-z0-9]*_[a-z0-9_]+\b/.test(text)) return text;
  return (
    text
      .replace(/\bhistogram_quantile\(\s*0?\.(\d{2})\d*\s*,/g, ' p$1 of ')
      .replace(/\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(\{[^}]*\})?/g, (whole, name: string, matchers: string | undefined) => {
        const words = METRIC_WORDS.find(([re]) => re.test(name))?.[1];
        if (!words) return whole;
        // (A matcher of 5xx codes says the failing ones; one of a job, service, app or container names the subject.)
        const failing = matchers && /code\s*=~?\s*["'`]5/.test(matchers) ? '5xx ' : '';
        // (A database server's address names the database: server="ordersdb:5432".)
        const subject = matchers ? /\b(?:job|service|app|container|deployment|server)\s*=\s*["'`]([a-z0-9_.-]+)(?::\d+)?["'`]/.exec(matchers)?.[1] : undefined;
        return ` ${failing}${words}${subject ? ` of ${subject}` : ''} `;
      })
      // (PromQL's functions and ranges around them are no words of the question.)
      .replace(/\b(?:rate|irate|increase|sum|avg|max|min|count|topk|bottomk|by|without|deriv|delta|abs|time|\w+_over_time)\s*\(|\[\d+[smhd]\]|[()]/g, ' ')
      .replace(/\s+/g, ' ')
  );
}

function parseText(whole: string): TypedQuestion {
  const message = whole.slice(0, READ_CHARS);
  const text = corrected(withoutPreamble(withMetricNamesAsWords(message.toLowerCase()))).replace(ASKERS_OWN_STEP, ' ');
  const written = [
    ...new Set([...message.matchAll(/(?:^|[\s(`'"])(\/[A-Za-z0-9_\-./{}:]*)/g)].map((m) => m[1].replace(/[.,;:]+$/, '')).filter((r) => r.length > 1)),
  ];
  // A route said not to be the one ("only calls /api/suggest, never /api/search") is not asked about, when another is.
  const lower = message.toLowerCase();
  const kept = written.filter(
    (r) =>
      !new RegExp(
        `\\b(?:never|not|except|excluding|other than|apart from|but not)\\s+(?:(?:get|post|put|patch|delete)\\s+)?${escape(r.toLowerCase())}(?![\\w/])`,
      ).test(lower),
  );
  const routes = kept.length ? kept : written;
  const versions = [...new Set([...text.matchAll(/\bv?(\d+\.\d+(?:\.\d+)?(?:-[a-z0-9.]+)?)\b/g)].map((m) => m[1]))];
  // The root filesystem of a disk question ("how full is / on that node?") is a mount, as paths are.
  if (/(^|\s)\/(?=[\s?.!,]|$)/.test(message) && (SIGNALS.find(([x]) => x === 'disk')![1].test(text) || /\b(free|left|full|used)\b/.test(text)))
    routes.push('/');
  // "getting better or worse?", "is it recovering?": now against a quarter of an hour before.
  const reference =
    referenceOf(text) ??
    (RECENT_DIRECTION.test(text) && rangeOf(text) === null
      ? { kind: 'ago' as const, minutes: RECENT_MINUTES, signal: null, words: [], at: false, clause: '' }
      : null);
  // The signals of the question, not of its reference ("p99 before the surge" asks the p99, not the traffic).
  // (Nor of what it sets aside: "the memory climb i mean, not the first crash" asks the memory.)
  const asking = (reference?.clause ? text.replace(reference.clause, ' ') : text).replace(SET_ASIDE, ' ');
  // "the node from before", "the version you mentioned earlier": what the conversation named, not a comparison in time.
  // ("too many connections" is no comparison.)
  const compared = text.replace(
    /\b(from|mentioned|named|said|listed|given|shown) (before|earlier)\b|\byou (mentioned|named|said|listed|gave|showed)\b|\btoo (many|much|few|little)\b/g,
    ' ',
  );
  // An error or failure rate is a ratio of errors, not a request rate; a node "under load" is not one of requests.
  // Connections refused, reset or timed out are failed calls, not connections held.
  const signals = SIGNALS.filter(([s, re]) =>
    re.test(
      s === 'rate'
        ? asking
            .replace(DISK_VOLUME, ' ')
            .replace(/\b(error|failure|success|5xx|4xx|5\d\d|500s|errors|failed|failing) ?(rates?|ratios?)\b|\bunder (heavy |much )?load\b/g, '')
        : s === 'connections'
          ? asking.replace(CONNECTION_FAILURES, ' ')
          : asking,
    ),
  ).map(([s]) => s);
  // A probe from outside that fails ("the blackbox probe on inventory started failing") says the service is down, by the probe.
  const probe = PROBES.test(asking);
  if (probe && signals.includes('errors')) signals.splice(signals.indexOf('errors'), 1, 'down');
  if (probe && !signals.length) signals.push('down');
  // "when did redis_up drop to 0?": an exporter's up gauge at 0 is its target down, not replicas scaled to zero.
  if (
    /\b(?:[a-z][a-z0-9]*_)?up\b(?:\{[^}]*\})?\s+(?:(?:first )?(?:drop(?:s|ped)?|fell|fall|falls|went|go|goes|hit|was|is|=+)\s+)?(?:to |at )?(?:0|zero)\b/.test(
      asking,
    )
  )
    signals.splice(0, signals.length, 'down');
  // "at what point did sessions-redis go down?": a service going down, when no measure is named that could fall.
  if (!signals.length && /\b(go|goes|went|gone|going) (down|offline|dark)\b/.test(asking)) signals.push('down');
  // Probes that fail are what is asked, not the requests that fail: the kubelet's, unless a probe from outside is meant.
  if (signals.includes('probes')) {
    if (probe) signals.splice(signals.indexOf('probes'), 1);
    else for (const x of ['errors', 'down'] as const) if (signals.includes(x)) signals.splice(signals.indexOf(x), 1);
  }
  // "How many uploads per second are coming in?": a rate, whatever is counted.
  if (!signals.length && PER_SECOND.test(asking)) signals.push('rate');
  // The status codes asked ("which status code is billing returning?") are those of its failing requests.
  if (!signals.length && /\b(status|error|response|http|return) codes?\b|\b(what|which) (errors?|status(es)?|exceptions?)\b/.test(asking))
    signals.push('errors');
  // Scrape targets that fail ("when did the inventory scrape targets start failing?") are targets down.
  if (/\b(scrape ?targets?|scrapes?|targets?)\b/.test(asking) && signals.includes('errors') && !signals.includes('down'))
    signals.splice(signals.indexOf('errors'), 1, 'down');
  // A version's ReplicaSet that scaled up ("when did the 2.15.0 ReplicaSet start scaling up?") is the version going out.
  if (versions.length && /\breplicasets?\b/.test(asking) && signals.includes('replicas')) signals.splice(signals.indexOf('replicas'), 1);
  // What of a connection pool is asked (see TypedQuestion.pool).
  const pool = poolAspect(text);
  // A pool's callers that wait for a connection, or whose wait timed out ("threads queued on the hikari pool", "pool timeouts"), are the
  // pool's own counts, not a message queue nor failed requests.
  if (/\b(pools?|hikari\w*)\b|\b(get|getting|acquir\w*|wait\w* for|borrow\w*|checkout of) an? (db |database )?connection\b/.test(asking)) {
    if (pool === 'pending' || pool === 'timeouts') signals.splice(0, signals.length, 'connections');
  }
  // CPU throttling is its own measure, not the CPU used.
  if (signals.includes('throttling') && signals.includes('cpu')) signals.splice(signals.indexOf('cpu'), 1);
  // Saturation asked without a measure is its CPU and memory against what it may use.
  // "how big is data-ledger?": a size asked of no other measure is a disk's or a volume's.
  if (
    !signals.length &&
    /\b(how big|how large|what size|size of|total size)\b/.test(text) &&
    !/\b(spike|surge|jump|drop|increase|rise|backlog|queue|heap|batch|team|impact)\b/.test(text)
  )
    signals.push('disk');
  const saturation = !signals.length && ASKS_SATURATION.test(text);
  if (saturation) signals.push('cpu', 'memory');
  // Whether a service is affected, asked without a measure, is its errors and latency compared.
  const affected = !signals.length && ASKS_AFFECTED.test(asking);
  if (affected) signals.push('errors', 'latency');
  // "is checkout recovering?": how its errors and latency moved lately.
  if (!signals.length && RECENT_DIRECTION.test(text) && !ASKS_CAUSE.test(text)) signals.push('errors', 'latency');
  // Requests beyond a duration ("what % took longer than 1 s?") are counted from the latency histogram's buckets, whatever else it names.
  // (Of requests counted or shared: "p99 is over 4 s" states a latency.)
  const slower = AS_A_SHARE.test(text) || ASKS_COUNT.test(text) ? SLOWER_THAN.exec(text) : null;
  const slowerThan = slower
    ? {
        seconds: Number(slower[1] ?? slower[3]) / (/^m/.test(slower[2] ?? slower[4]) ? 1000 : 1),
        share: AS_A_SHARE.test(text) || !ASKS_COUNT.test(text),
      }
    : null;
  if (slowerThan) signals.splice(0, signals.length, 'latency');
  // Availability is the share of requests that succeeded over the range: both counted.
  const availability = !slowerThan && AVAILABILITY.test(text);
  if (availability) signals.splice(0, signals.length, 'errors');
  // How many there were, not how many a second nor what share.
  // Restarts over a range asked ("cart restarts last 15m") are how many there were.
  const count =
    availability ||
    // (The moment a count runs from names no count of its own: "since the node went NotReady" asks no number of nodes.)
    ((ASKS_COUNT.test(asking) || FAILED_OVER.test(text) || (signals.includes('restarts') && rangeOf(text) !== null && !ASKS_COMPARE.test(text))) &&
      !AS_A_SHARE.test(text) &&
      !PER_SECOND.test(text) &&
      signals.some((x) => x === 'rate' || x === 'errors' || x === 'restarts' || x === 'probes'));
  // A count since a time ago ("how many errored since it began ~40 min ago?") is one over the range since then, not a comparison with then.
  const countedSince = count && reference?.kind === 'ago' && !reference.at && /\bsince\b[^?.!]*\bago\b/.test(text) ? (reference.minutes ?? null) : null;
  const ownReference = countedSince === null ? reference : null;
  // A count of failed requests is of the failures, and failures per second ("reqs/s failing") are a rate of failures, not of every
  // request; a count of OOM kills is one of restarts.
  const failedPerSecond = signals.includes('errors') && PER_SECOND.test(text) && !AS_A_SHARE.test(text);
  if ((count || failedPerSecond) && signals.includes('errors') && signals.includes('rate')) signals.splice(signals.indexOf('rate'), 1);
  if (count && signals.includes('restarts') && signals.includes('memory')) signals.splice(signals.indexOf('memory'), 1);
  const callsTo = CALLS_TO.exec(asking);
  const calleeWord = callsTo?.[1] ?? callsTo?.[2] ?? callsTo?.[3] ?? callsTo?.[4] ?? NAMED_CALLS.exec(asking)?.[1] ?? null;
  const callee = calleeWord && !COMMON.has(calleeWord) && signals.length ? calleeWord : null;
  // "orders' calls to it": calls to what the conversation named before.
  const calleeRefers = !!calleeWord && /^(it|that|this|them|those)$/.test(calleeWord) && signals.length > 0;
  const onNode = (!signals.length && ASKS_ON_NODE.test(text)) || (signals.every((x) => x === 'cpu' || x === 'memory') && ASKS_USING_NODE.test(text));
  // "how many restarts did the cart pods have?" counts restarts; it lists no pods.
  // "which mount is full on the checkout nodes?" asks how full the disks are; the listing of them answers it.
  // ("how many cart replicas are serving traffic?" asks the replicas available, not their traffic.)
  if (SERVING_REPLICAS.test(text) && signals.includes('rate')) signals.splice(signals.indexOf('rate'), 1);
  const asksWhich =
    (!count && !signals.includes('disk') && !SERVING_REPLICAS.test(text) && ASKS_WHICH.test(text)) || (!callee && ASKS_PEERS.test(text)) || onNode;
  // "orders-worker replicas?", "the checkout pods": a listing asked without a question word.
  // "pods on it + their nodes pls": a fragment that begins with what it lists.
  const bareListing =
    !signals.length && !SO_FAR.test(text) && /\b(pods?|replicas?|instances?|nodes?)\s*\??\s*$|^\W*(its |their |the )?(pods?|replicas?|instances?)\b/.test(text);
  // ("which backend endpoint is throwing them?": a route; "backend" only says which side it is on.)
  const listed = text.replace(
    /\b(?:backend|downstream|upstream)s? (?=(?:endpoints?|routes?|paths?|urls?|handlers?|pods?|replicas?|instances?|nodes?|hosts?|machines?)\b)/g,
    '',
  );
  const listings = asksWhich || bareListing ? LISTINGS.filter(([, re]) => re.test(listed)).map(([l]) => l) : [];
  // "Where did 2.15.0 land?", "where does cart run?": its pods and their nodes.
  if (asksWhich && !listings.length && /\bwhere (do|does|did|is|are|was|were)\b/.test(text)) listings.push('pods', 'nodes');
  if (onNode && !listings.includes('pods')) listings.unshift('pods');
  // ("time of the first OOM kill?" asks when.)
  const terminations = TERMINATIONS.test(text) && !ASKS_WHEN.test(text);
  if (terminations && !listings.includes('pods')) listings.unshift('pods');
  // "why ..." asks for the cause, whatever signal it names ("why is search this slow?"); the forms that
  // say what they ask (related, changed, when) come before the listings and signals they name.
  const read: QuestionKind = ASKS_ACTIONS.test(text)
    ? 'actions'
    : ASKS_OUTSIDE.test(text.replace(WHAT_FOR, ''))
      ? 'outside'
      : ASKS_LOGS.test(routes.reduce((t, r) => t.split(r.toLowerCase()).join(' '), text))
        ? 'logs'
        : /\bwhy\b|\bhow come\b|\bwhat(?:'s| is| was) the reason\b/.test(text) ||
            CONFIRMS_CAUSE.test(text) ||
            ASKS_CAUSE_PHRASED.test(text) ||
            ASKS_CAUSE_OVER_MEASURES.test(text)
          ? 'cause'
          : (ASKS_PEERS.test(text) && !signals.length && !callee) || onNode || terminations
            ? 'which'
            : (ASKS_RELATED.test(text) || (!signals.length && ASKS_CALLS.test(text))) && !callee
              ? 'related'
              : ASKS_CHANGES.test(text)
                ? 'changes'
                : ASKS_WHEN.test(text) && !(signals.includes('queue') && /\boldest\b/.test(text))
                  ? 'when'
                  : asksWhich &&
                      listings.length &&
                      !(listings.length === 1 && listings[0] === 'routes' && signals.length) &&
                      // ("is the error ratio the same on both pods?", "p99 per search pod and the node each is on": the measure pod by pod.)
                      !(
                        signals.some((x) => x === 'rate' || x === 'errors' || x === 'latency') &&
                        BY_POD.test(text) &&
                        !/\bwhich (pods?|replicas?|instances?)\b/.test(text)
                      ) &&
                      // ("the rff78 pod's working set": the measure of that pod.)
                      !(signals.length && /\b(pod|replica|instance|container)['’]s\b/.test(text)) &&
                      // ("what error do those calls get back?": the measure of the calls named before, not a listing of what is called.)
                      !(calleeRefers && listings.every((l) => l === 'peers')) &&
                      // ("how many threads are waiting for a connection across both pods?": a count of what the measure counts, over the pods.)
                      !(
                        signals.length &&
                        listings.every((l) => l === 'pods') &&
                        /\bhow many (?!(?:\w+ )?(?:pods?|replicas?|instances?|containers?|nodes?)\b)\w+/.test(text)
                      )
                    ? 'which'
                    : signals.length
                      ? 'signals'
                      : ASKS_CAUSE.test(text)
                        ? 'cause'
                        : bareListing || NODE_HEALTH.test(text)
                          ? 'which'
                          : runtimeMeasure(text)
                            ? 'signals'
                            : 'unknown';
  // "CPUThrottlingHigh fires too: which workload is it about?": what the alert is about, unless a measure, a time or the changes are asked.
  const alertNamed = alertNameIn(message);
  const asksAlert = !!alertNamed && !['signals', 'when', 'changes', 'actions', 'outside'].includes(read) && ASKS_ALERT_SUBJECT.test(text);
  const kind: QuestionKind = asksAlert ? 'which' : read;
  if (asksAlert) listings.splice(0, listings.length, 'alerts');
  // The subjects are named outside the reference ("search's traffic since the frontend rollout" is search's), else in it ("what changed before checkout started failing?").
  // A question after statements ("We also had a frontend alert. Leaving that aside, when did media …?") is about what the question names first.
  const sentences = asking.split(/(?<=[.!])\s+(?=[a-z])/);
  const outside = [...new Set([...subjectWords(sentences[sentences.length - 1], routes, versions), ...subjectWords(asking, routes, versions)])];
  const named = outside.length || !reference ? outside : reference.words;
  // "pod=orders-6fb5cc5f8-rff78 … how many restarts for orders, both pods summed?": the workload's pods together, not the one pod a
  // pasted alert's labels named (a pod asked of itself beside them, "restarts on <pod>? and across all cart pods?", stays).
  const together = /\b(both|all|every) (of )?(the |its |their )?([a-z0-9-]+ )?pods\b|\b(summed|combined|together|added up)\b/.test(text);
  const words = together
    ? named.filter((w) => {
        const workload = workloadOfPod(w);
        return !(workload !== w && named.includes(workload) && new RegExp(`\\bpod=["']?${escape(w)}\\b`).test(text));
      })
    : named;
  // Requests, errors or latency asked pod by pod ("is it both pods or just one?", "which replica is slow?").
  // CPU or memory against the limits asked of each pod ("how many cores is each search pod using vs its limit?", "cpu vs limit for the
  // recommendations pods"): each pod's use with its limit.
  // ("How many cores is it burning" asks an amount, unless a limit is named beside it.)
  const againstLimit =
    (saturation || ASKS_LIMIT.test(text) || (NODE_OF.test(text) && !/\b(how much|cores?|bytes|[mg]ib)\b/.test(text))) &&
    !(/\bhow many (cores|vcpus|millicores)\b/.test(text) && !/\b(limits?|quotas?|max|requests?)\b/.test(text));
  const other = OTHER.test(text);
  // ("how many are waiting across both pods?", "restarts of all cart pods combined": the pods summed, not each on its own.)
  const summed = /\b(across|over) (both|all|every|the)\b[^?.!]*\b(pods?|replicas?|instances?)\b|\b(in total|summed|combined|added up)\b/.test(text);
  const byPod =
    !summed &&
    ((signals.some((x) => x === 'rate' || x === 'errors' || x === 'latency') && BY_POD.test(text)) ||
      (againstLimit && signals.some((x) => x === 'cpu' || x === 'memory') && (BY_POD.test(text) || /\b(each|pods)\b/.test(text))) ||
      // ("how many cores is each search pod using?": each pod's use, with its limit beside it.)
      (signals.some((x) => x === 'cpu' || x === 'memory') && BY_POD.test(text) && USES_AN_AMOUNT.test(text)) ||
      // ("how many are waiting for a connection on each pod?": a pool's count on one pod, not summed over them.)
      (signals.includes('connections') && pool !== 'share' && BY_POD.test(text)));
  // "payments-gateway", or a word that a kind of workload follows ("the thumbnailer service"): shaped as a name, whether or not the sources know it.
  const nameShaped = words.filter(
    (w) =>
      (/[-_]/.test(w) && w.split(/[-_]+/).every((part) => part.length >= 3 && !COMMON.has(part) && !/^\d+$/.test(part))) ||
      new RegExp(
        `\\b${w.replace(/[.]/g, '\\.')} (service|svc|microservice|deployment|daemonset|statefulset|cronjob|worker|one|cache|instance|cluster|database|db)\\b`,
      ).test(text) ||
      // (A word no dictionary holds that a relative clause says what it does: "the thumbnailer that processes uploads".)
      (!isEnglish(w) && new RegExp(`\\bthe ${escape(w)},? (that|which|who)\\b`).test(text)),
  );
  const percentile =
    /\bp(\d{2}(?:\.\d+)?)\b/.exec(text) ??
    /\b(\d{2}(?:\.\d+)?)(?:th)? percentile\b/.exec(text) ??
    (/\b(typical|typically|median)\b/.test(text) ? ['', '50'] : null);
  return {
    kind,
    signals: kind === 'signals' || kind === 'when' ? signals : [],
    percentile: percentile ? Number(percentile[1]) / 100 : null,
    listings,
    // "vs its limit", "against max_connections" is a share of a limit, not a comparison in time.
    compare: reference?.at
      ? false
      : (ASKS_COMPARE.test(compared) &&
          !/^[^?.!]*\b(vs\.?|versus|against)\s+(its |the |their )?(max\w*|limits?|capacity|quotas?|pool size)\b[^?.!]*$/.test(text)) ||
        versions.length > 0 ||
        (!!reference && countedSince === null) ||
        affected,
    // "only one of the pods?" splits by pod, not by route.
    // A disk's paths are mounts, not routes.
    byRoute:
      !(signals.length > 0 && signals.every((x) => x === 'disk')) &&
      ((ASKS_BY_ROUTE.test(text) && !byPod) || routes.length > 0 || (signals.length > 0 && /\broutes?\b/.test(text))),
    // The CPU or memory of the node a workload runs on is how much of the node's is in use, unless asked how much.
    againstLimit,
    rangeMinutes: countedSince ?? rangeOf(text),
    routes,
    versions,
    words,
    placedAsNames: words.filter((w) => namePlaced(text, w)),
    plainWords: plainWordsOf(text, words, nameShaped),
    nameShaped,
    query: null,
    compounds: compoundsOf(asking, words),
    refers: REFERS.test(text),
    // A probe from outside is not one of the kubelet's: the cluster's events do not tell it.
    asksCluster: ASKS_CLUSTER.test(probe ? text.replace(/\bprobes?\b/g, ' ') : text),
    onNode,
    also: ASKS_ALSO.test(text),
    // ("p99 per search pod and the node each one is on": the measure pod by pod, with where each runs.)
    refersNode: REFERS_NODE.test(text) && !byPod,
    nodeOf: NODE_OF.test(text),
    other,
    withOther: other && /\b(?:and|plus|with|vs\.?|versus|against|beside|next to) (?:the )?other\b/.test(text),
    nodeHealth: NODE_HEALTH.test(asking),
    reference: ownReference && {
      kind: ownReference.kind,
      signal: ownReference.signal,
      words: ownReference.words,
      at: ownReference.at,
      ...(ownReference.minutes !== undefined ? { minutes: ownReference.minutes } : {}),
      ...(ownReference.justBefore ? { justBefore: true } : {}),
      ...(ownReference.event ? { event: ownReference.event } : {}),
    },
    still: /\bstill\b/.test(text),
    status: affected,
    runtime: runtimeMeasure(text),
    valueFirst:
      /^\W*(what('?s| is| are)|whats|how (much|many|high|low|fast|slow|big|bad))\b/.test(sentences[sentences.length - 1]) &&
      !/\b(go(ne|es)? up|went up|go(ne|es)? down|went down|ris(e|en|ing)|rose|increas\w*|decreas\w*|drop\w*|chang\w*|compar\w*|differen\w*|higher|lower|worse|better|than|vs\.?|versus|before)\b/.test(
        text,
      ),
    // "cpu limit now vs before the rollout" compares the limit in time; "cpu vs its limit" is the use against it.
    // ("what memory limit were they hitting?" asks the limit.)
    limitValue:
      signals.some((x) => x === 'cpu' || x === 'memory') &&
      ASKS_LIMIT_VALUE.test(text) &&
      (/\bwhat(?:'s| is| was| were)? (?:the |its |their )?(cpu|memory|mem|ram) limits?\b/.test(text) ||
        !AGAINST_LIMIT.test(
          asking.replace(
            /\b(now )?(vs\.?|versus|compared (to|with)|than)\s+(the )?(before|earlier|then|yesterday|last|prior|old|older|previous|original|new|newer)\b|\bnow vs\.?\b|\bbefore (?:vs\.?|versus|and|or|compared to) after\b/g,
            ' ',
          ),
        )),
    count,
    failedPerSecond,
    callee,
    calleeRefers,
    asksWho: kind === 'changes' && /\bwho(m)?\b/.test(text),
    routeWords: [
      ...new Set([
        ...words.filter((w) => /^[a-z]{4,}$/.test(w)),
        ...[...asking.matchAll(/\b([a-z]{4,}) (?:route|routes|endpoint|endpoints|path|paths|handler|handlers|requests|calls)\b/g)].map((m) => m[1]),
      ]),
    ].filter((w) => !ROUTE_NOUNS.has(w)),
    // Reads or writes of a service, not the asker's own ("I'm not sure I'm reading it right", "writing the status update").
    // (Adding to a cart, placing an order, submitting or uploading something are writes too.)
    method:
      /\b(writes?|posts?|puts?|writing)\b|\badd(?:s|ing)?[- ](?:[a-z]+[- ]){0,2}?to\b|\bplac(?:e|es|ing)[- ](?:an?[- ]|the[- ]|their[- ]|my[- ])?orders?\b|\b(submit\w*|upload(?:s|ing)?)\b/.test(
        asking.replace(OWN_READING, ' '),
      )
        ? 'write'
        : /\b(reads?|gets|reading)\b/.test(asking.replace(OWN_READING, ' '))
          ? 'read'
          : null,
    before: /\b(before|prior to|until)\b/.test(compared),
    queue: /\b(oldest|stale|staleness|age|aged|ageing|aging|old|how long)\b/.test(text)
      ? 'age'
      : /\bconsumers?\b|\bconsum(e|es|ed|ing)\b|\b(works?|processe?s?|drains?|handles?|empties|empty) (off )?(the |that |this )?([a-z0-9_-]+ )?queue\b|\bpick(s|ing|ed)? (them |it |messages |jobs |orders |work |anything )?up\b|\b(reads?|reading|pulls?|pulling) (from |off )?(the |that |this )?([a-z0-9_-]+ )?queue\b|\bwhat (normally |usually )?(reads|consumes|processes|handles|works off)\b/.test(
            text,
          )
        ? 'consumers'
        : 'depth',
    pool,
    wentOut:
      /\b(go|goes|gone|went) (out|live)\b|\breplicasets?\b|\bscal(ed|ing) up\b|\bcame up\b|\broll(s|ed|ing)? out\b|\bship(ped|s)?\b|\b(deployed|rolled out|released|landed|land|start|started|begin|began)\b/.test(
        text,
      ),
    latest:
      kind === 'when' && /\b(latest|most recent|newest)\b|\blast (one|time|restart|crash|kill|oom\w*)\b|\blast (restart|crash|fail|die|di|oom)\w*\b/.test(text),
    // In the order the question names them ("is inventory up? checkout gets errors on calls to it": whether it is down first).
    mentioned: [...signals].sort((a, b) => firstMention(text, a) - firstMention(text, b)),
    trend:
      kind === 'when' &&
      /\b(climb\w*|grow\w*|creep\w*|leak\w*|ramp\w*|trend\w*|ris(e|es|ing)|increas\w*|go(ing|es)? up|went up|build(s|ing)? up|swell\w*)\b/.test(text),
    size: signals.includes('disk') && /\b(how big|how large|size|sized|capacity)\b/.test(text),
    mean: signals.includes('latency') && !percentile && /\b(average|mean)\b/.test(text),
    slowerThan,
    ...(signals.includes('cpu') && /\b(cores?|vcpus?|millicores?)\b/.test(text) ? { inCores: true } : {}),
    ...(signals.some((x) => x === 'cpu' || x === 'memory') && USES_AN_AMOUNT.test(text) ? { amount: true } : {}),
    ...(availability ? { shareOfCount: true, availability: true } : {}),
    soFar: signals.includes('restarts') && rangeOf(text) === null && (SO_FAR.test(text) ? !reference || /\bso far\b/.test(text) : false),
    // ("as % of max", "vs the max" name a limit, not the highest.)
    peak:
      signals.length > 0 &&
      !count &&
      /\b(peak|peaked|highest|worst|maximum|max|at (its|the) (worst|highest|peak))\b(?! (limit|size|allowed|connections|is|set))/.test(
        asking.replace(/\b(of|vs\.?|versus|against|near|to|at|over|out of|reach\w*|hit\w*) (the |its |their )?max(imum)?\b|\/\s*max\b/g, ' '),
      ),
    probe,
    free:
      signals.includes('disk') && /\b(free|left|available|remaining|room)\b/.test(asking) && !/%|\b(percent\w*|share|ratio|how full|fill\w*)\b/.test(asking)
        ? VOLUME_WORDS.test(asking)
          ? 'volumes'
          : 'disks'
        : null,
    byPod,
    ...(byPod && /\bnodes?\b/.test(text) ? { podNodes: true } : {}),
    ...(signals.includes('disk') && VOLUME_WORDS.test(asking) ? { volumes: true } : {}),
    // ("the fattest orders pod", "the busiest search container": any superlative of more, not of less.)
    largest:
      signals.some((x) => x === 'cpu' || x === 'memory') &&
      (/\b(largest|biggest|heaviest|hungriest|single|one) (\w+ )?(pod|container|replica|instance)\b|\b(pod|container|replica|instance) (that uses|using) the most\b/.test(
        asking,
      ) ||
        [...asking.matchAll(/\b([a-z]+est) (?:[a-z0-9-]+ )?(?:pod|container|replica|instance)\b/g)].some(
          (m) => superlative(m[1]) && !/^(least|small|low|lean|light|cool|quiet|idl|slim|thin|few|calm)/.test(m[1]),
        )),
    // (And "how many connections vs max_connections": how many are open of the most allowed, which the states' answer says.)
    connectionStates:
      signals.includes('connections') &&
      (/\b(states?|idle|doing)\b/.test(asking) ||
        /\bhow many (\w+ )?connections\b[^?.!]*\b(max_connections|max|allowed|limit)\b|\btotal connections\b/.test(asking)),
    alertNamed,
    aboutVersions: kind === 'changes' && /\b(versions?|images?|builds?|tags?)\b/.test(text),
    // (Of the sentence that asks: "catching up on the overnight page. when did this begin?" asks when it began.)
    fired:
      kind === 'when' &&
      !signals.length &&
      /\b(fire|fired|fires|page|paged|trigger|triggered|go off|gone off|went off|alerted)\b/.test(text.split(/[.!]\s+(?=\S)/).at(-1) ?? text),
    howFailing: signals.includes('errors') && HOW_FAILING.test(asking),
    rollout:
      kind === 'when' &&
      !signals.length &&
      // "when did the new pods come up?", "when were the pods replaced?": a rollout too.
      /\b(rollouts?|roll-outs?|deploys?|deployments?|releases?|upgrades?|roll(?:s|ed|ing)? out|deployed|released|shipped|went out|go out|went live|go live)\b|\b(did|does|has) (it|that|this|they|the version|the build) (roll|ship|land)\b|\bnew (pods?|replicas?|replicasets?|builds?|images?)\b|\b(pods?|replicas?) (were |got |was )?(replaced|recreated|rolled)\b/.test(
        text,
      ),
  };
}

/** Words of routes that name none: "the status route" names `status`. */
const ROUTE_NOUNS = new Set(
  'route routes endpoint endpoints path paths handler handlers requests calls error errors failing failed reads writes read write posts gets'.split(' '),
);

/** The verb of a change's start, as the measure it moved: "began failing" is errors, "started slowing" latency. */
const VERB_SIGNALS: Array<[RegExp, Signal]> = [
  [/^(fail|error)/, 'errors'],
  [/^slow/, 'latency'],
  [/^(crash|restart)/, 'restarts'],
  [/^down$/, 'down'],
];

/** Whether a measure is getting better or worse lately: now against this many minutes before. */
const RECENT_DIRECTION =
  /\b(getting (better|worse)|better or worse|worse or better|improv(e|es|ed|ing)|recovering|trending|stabili[sz]\w*|settling( down)?|calming down|easing( off)?)\b/;
const RECENT_MINUTES = 15;

/** The reference a question's text makes (see Reference), with the clause that makes it; null when none. */
function referenceOf(text: string): (Reference & { clause: string }) | null {
  const days = REFERENCE_DAYS.exec(text);
  if (days) return { kind: 'ago', minutes: /week/.test(days[0]) ? 7 * 1440 : 1440, signal: null, words: [], at: false, clause: days[0] };
  const ago = REFERENCE_AGO.exec(text);
  if (ago) {
    const count = ago[1] === 'half an' ? 0.5 : (NUMBER_WORDS[ago[1]] ?? Number(ago[1]));
    const unit = ago[2].replace(/s$/, '');
    // "what was the p99 two hours ago?" asks the value then; "now vs an hour ago", "what it was an hour ago, and now?" compare.
    // ("same but an hour ago", "what's normal? say an hour ago": the value then too.)
    const fragment = /^\W*(?:(?:ok|so|and|but|same|say|then|like|what about|how about)\W+)*$/.test(text.replace(ago[0], ' '));
    const at =
      (fragment || /\b(was|were|did|had|before|normal|usual|baseline|typical)\b/.test(text)) &&
      !/\b(now|right now|currently|compared|vs\.?|versus|than|since|today|still)\b/.test(text.replace(ago[0], ' '));
    return { kind: 'ago', minutes: Math.round(count * (UNIT_MINUTES[unit] ?? (unit === 'm' ? 1 : 60))), signal: null, words: [], at, clause: ago[0] };
  }
  const event = REFERENCE_BY_EVENT.exec(text);
  if (event) return { kind: 'change', signal: null, words: subjectWords(event[1], [], []), at: false, clause: event[0], event: `at what time ${event[1]}?` };
  const byVerb = REFERENCE_BY_VERB.exec(text);
  const byNoun = byVerb ? null : REFERENCE.exec(text);
  const arrival = byVerb || byNoun ? null : REFERENCE_BY_ARRIVAL.exec(text);
  if (arrival) return { kind: 'change', signal: null, words: subjectWords(arrival[1], [], []), at: false, clause: arrival[0] };
  const found = byVerb ?? byNoun;
  if (found) {
    const [clause, before, what] = found;
    const noun = what.toLowerCase();
    const own = SIGNALS.filter(([, re]) => re.test(before)).map(([s]) => s);
    const signal = own[0] ?? (TRAFFIC_NOUNS.test(noun) ? 'rate' : (VERB_SIGNALS.find(([re]) => re.test(noun))?.[1] ?? null));
    return {
      // ("since the latency change" is the change of a measure.)
      kind: byNoun && ROLLOUT_NOUNS.test(noun) && !(/change$/.test(noun) && own.length) ? 'rollout' : 'change',
      signal,
      words: subjectWords(before, [], []),
      at: false,
      clause,
    };
  }
  const found_ = THEN.exec(text);
  // A closing "then" that names no measure is a word of the conversation ("so what is it then?"), not a time.
  const then = found_ && /^\s*then\s*[?.!]*\s*$/.test(found_[0]) && !SIGNALS.some(([, re]) => re.test(text)) ? null : found_;
  return then
    ? {
        kind: 'then',
        signal: null,
        words: [],
        at: !COMPARED_THEN.test(text),
        clause: '',
        ...(/\b(just|right) before (that|it)\b/.test(text) ? { justBefore: true } : {}),
      }
    : null;
}

/** A share of what was just counted: "as a % of all frontend traffic in that time?", "what share of all requests is that?". */
const SHARE_OF_COUNT =
  /(?:%|\b(?:percent(?:age)?s?|share|fraction|proportion)\b)[^?.!]*\b(of (all|the total|total|everything|the)\b|(is|was|are|were) (that|this|those|it|they)\b|(in|over|during|for) (that|the|this)( same)? (time|window|period|range)\b)/;

/** Whether a question counts failed requests ("how many cart requests failed since …?"): what a share of all requests is asked of. */
function countsFailures(q: TypedQuestion): boolean {
  return q.count && q.signals.includes('errors');
}

/** The count `before` asked (of failed requests) as a share of all requests over its range; of the subject `asked` names, if it names one. */
function shareOf(before: TypedQuestion, asked: TypedQuestion, text = ''): TypedQuestion {
  const names = asked.words.length > 0;
  const shareOfAll = !asked.routes.length && /\b(all|total|every|everything|whole|overall)\b/.test(text);
  return {
    ...before,
    kind: 'signals',
    signals: ['errors'],
    count: true,
    shareOfCount: true,
    // ("what % of all media requests is that?" after a count of failed uploads: of all of media's requests, every route.)
    ...(shareOfAll ? { shareOfAll } : {}),
    words: names ? asked.words : before.words,
    placedAsNames: names ? asked.placedAsNames : before.placedAsNames,
    plainWords: names ? asked.plainWords : before.plainWords,
    nameShaped: names ? asked.nameShaped : before.nameShaped,
    refers: false,
    routes: asked.routes.length ? asked.routes : before.routes,
    // ("… of all ledger requests, reads included?": the reads are of the whole, not of the failed ones counted.)
    method: shareOfAll ? before.method : (asked.method ?? before.method),
    byRoute: false,
  };
}

/** A message that asks only how it is now: "and now?", "ok and rn?", "what about currently?". */
const ASKS_NOW =
  /^\W*(ok\W+|okay\W+|so\W+)?(and\s+)?(what about\s+|how about\s+|how is it\s+|how's it\s+)?(now|right now|currently|at the moment|at present|today|still)\W*$/;
/** A follow-up that asks the question before of another subject: "what about payments?", "same for cart", "and inventory?", "cart too?". */
const FOLLOW_UP =
  /^\W*(and|what about|how about|same (question |q |thing |check |query )?(for|with)|ditto for|likewise for|do the same for|repeat (that|this|it) for|also|now|ok and|and what about|and for|for)\b|\b(too|as well|instead)\W*$/;
/** A fragment that only says against what or over what to read the question before: "compared to …", "vs …", "since …", "over the last day". */
const FRAGMENT_START = /^\W*(compared|vs\.?|versus|since|before|after|over|during|in the|from)\b/;
/** The kinds of question a follow-up may repeat of another subject. */
const REPEATABLE = new Set<QuestionKind>(['signals', 'which', 'when', 'related', 'logs']);

/** "When exactly?", "what time was it?": when, of nothing the question names itself (no measure, subject, version or rollout). */
const asksOnlyWhen = (q: TypedQuestion): boolean => q.kind === 'when' && !q.signals.length && !q.words.length && !q.versions.length && !q.rollout;

/**
 * A message that names subjects and asks nothing the grammar reads ("what about payments?",
 * "same for cart", "and inventory?", or only a name) asks the latest earlier question the grammar
 * read of those subjects instead: that question with its subjects replaced (and its range, when the
 * message names one). Any other message is read as it is.
 */
export function followingUp(
  asked: TypedQuestion,
  message: string,
  earlier: string[],
  /** Whether the message is a later part of one that asked the earlier parts just before: it follows them whatever its length. */
  part = false,
): TypedQuestion {
  const text = corrected(message.slice(0, READ_CHARS).toLowerCase());
  // "and now?", "ok and rn?": the question before, read now.
  const now = asked.kind !== 'outside' && ASKS_NOW.test(text);
  // The earlier messages as the grammar reads them, the latest first: read once, for whichever form below needs them.
  let read: TypedQuestion[] | undefined;
  const latestFirst = (): TypedQuestion[] => (read ??= [...earlier].reverse().map((m) => parseQuestion(m)));
  // "what % of all payments requests in that window is that?" after a count of failed requests: their share of all requests.
  if (SHARE_OF_COUNT.test(text)) {
    const before = latestFirst()[0];
    if (before && countsFailures(before)) return shareOf(before, asked, text);
  }
  // "when did it hit 100%?", "when did it fill up?" after a question about a disk: when that disk filled.
  if (
    asked.kind === 'when' &&
    !asked.words.length &&
    /\b(?:hit|reach\w*|got to|get to|at)\s+100\s*%|\bfill(?:ed)?(?: up)?\b|\b(?:run|ran) out\b|\bfull\b/.test(text)
  ) {
    const before = latestFirst()[0];
    if (before?.signals.includes('disk'))
      return { ...before, kind: 'when', signals: ['disk'], size: false, free: null, refers: true, compare: false, reference: null };
  }
  // "what state are they stuck in?" after a question about connections: those connections, by state.
  if (asked.kind === 'unknown' && /\bstates?\b/.test(text)) {
    const before = latestFirst().find((q) => q.mentioned.includes('connections'));
    if (before) return { ...before, kind: 'signals', signals: ['connections'], connectionStates: true, refers: false, reference: null, compare: false };
  }
  // "which container is it on, is that cart?" after a message naming an alert: what that alert is about.
  if (!asked.alertNamed && !['signals', 'when', 'changes', 'actions', 'outside'].includes(asked.kind) && ASKS_ALERT_SUBJECT.test(text)) {
    const alertNamed = latestFirst()[0]?.alertNamed;
    if (alertNamed) return { ...asked, kind: 'which', listings: ['alerts'], alertNamed };
  }
  // "out of how many allowed?", "what's the max?" after a question of connections: the most allowed (a pool's size, a server's limit).
  if (
    asked.kind === 'unknown' &&
    !asked.signals.length &&
    /\b(out of how many|how many (are |is )?(allowed|permitted|possible)|max(imum)?|limit|ceiling|cap)\b/.test(text) &&
    !/\b(vs\.?|versus|against|near|close)\b/.test(text)
  ) {
    const before = latestFirst()[0];
    if (before?.signals.includes('connections'))
      return { ...before, kind: 'signals', signals: ['connections'], pool: 'size', refers: true, compare: false, reference: null };
  }
  // "what's the limit on those?" after a question of memory or CPU: that limit's value.
  if (asked.kind === 'unknown' && !asked.signals.length && /\b(limits?|quotas?)\b/.test(text) && !/\b(vs\.?|versus|against|near|close)\b/.test(text)) {
    const before = latestFirst().find((q) => q.signals.some((x) => x === 'cpu' || x === 'memory'));
    if (before)
      return {
        ...before,
        kind: 'signals',
        signals: before.signals.filter((x) => x === 'cpu' || x === 'memory'),
        limitValue: true,
        againstLimit: false,
        byPod: false,
        largest: false,
        refers: false,
        compare: false,
        reference: null,
        rangeMinutes: null,
        // ("and what was the limit before that rollout?": its value before, first.)
        before: asked.before,
      };
  }
  // "when exactly?", "when was that?" after a question naming a rollout or a version: when it went out.
  if (asksOnlyWhen(asked) && !asked.alertNamed) {
    const before = latestFirst()[0];
    if (
      before &&
      (before.versions.length || before.rollout || /\b(roll(ed|s)? out|rollout|deploy\w*|released?|shipped)\b/.test(earlier.at(-1)?.toLowerCase() ?? ''))
    )
      return {
        ...asked,
        words: before.words,
        placedAsNames: before.placedAsNames,
        plainWords: before.plainWords,
        versions: before.versions,
        rollout: !before.versions.length,
        wentOut: true,
      };
  }
  // "is it all search instances or just one of them?" after a question of requests, errors or latency: that measure, pod by pod.
  if (asked.kind === 'unknown' && !asked.signals.length && BY_POD.test(text)) {
    const before = latestFirst().find((q) => q.kind === 'signals' && q.signals.some((x) => x === 'rate' || x === 'errors' || x === 'latency'));
    if (before) return { ...before, byPod: true, refers: false, compare: false, reference: null };
  }
  // "and the other replica?": the question before, of the other pods of the workload it named a pod of.
  if (asked.other && !asked.words.length && !asked.signals.length) {
    const before = latestFirst().find((q) => REPEATABLE.has(q.kind) && q.words.length);
    if (before) return { ...before, other: true, refers: false };
  }
  // "same for emails? is that queue still draining": the question before, of what the leading follow-up names; the rest asks of the same subject.
  const lead = /^[^?]*\?/.exec(text)?.[0];
  if (lead && lead.length < text.trim().length && /^\W*(same|ditto|likewise|what about|how about)\b/.test(lead)) {
    const first = parseQuestion(lead);
    const followed = first.kind === 'unknown' && first.words.length ? followingUp(first, lead, earlier, part) : first;
    if (followed !== first) return { ...followed, still: followed.still || asked.still };
  }
  // A subject, a moment ("compared to before the rollout?"), a version ("and b4 3.3.0?") or a range ("and over the last day?") is what it may name.
  if (
    !now &&
    (asked.kind !== 'unknown' ||
      !(asked.words.length || asked.routes.length || asked.versions.length || asked.reference || asked.rangeMinutes !== null || asked.method || asked.byRoute))
  )
    return asked;
  // A longer message follows up when it refers back and only says how to read it again ("what was the p99 two hours ago?", "is it the whole of search or one route?").
  const modifies = asked.refers && (!!asked.reference || asked.rangeMinutes !== null || asked.byRoute || asked.versions.length > 0 || !!asked.method);
  if (!part && !FOLLOW_UP.test(text) && !FRAGMENT_START.test(text) && !modifies && text.split(/\s+/).filter(Boolean).length > 3) return asked;
  // A route, a method or a moment reads a measure again: the latest question of measures, before any other.
  const reads = asked.routes.length > 0 || asked.byRoute || !!asked.method || !!asked.reference;
  const repeatable = latestFirst().filter((q) => REPEATABLE.has(q.kind));
  const before = (reads ? repeatable.find((q) => q.kind === 'signals') : undefined) ?? repeatable[0];
  if (!before) return asked;
  if (now) return { ...before, refers: false, reference: null, compare: false, rangeMinutes: null, before: false, peak: false, still: true };
  // The words of its moment alone ("before the crawler showed up") name no subject of their own: the question before keeps its subjects.
  const own = asked.words.filter((w) => !(asked.reference?.words ?? []).includes(w));
  const words = own.length ? own : before.words;
  return {
    ...before,
    words,
    placedAsNames: own.length ? (modifies ? asked.placedAsNames.filter((w) => own.includes(w)) : own) : before.placedAsNames,
    plainWords: own.length ? asked.plainWords : before.plainWords,
    nameShaped: own.length ? asked.nameShaped : before.nameShaped,
    // "how much was free on it an hour ago?" after a question about a disk: its free space.
    ...(before.signals.includes('disk') && /\b(free|left|available|remaining)\b/.test(text)
      ? { free: before.free ?? (earlier.some((m) => VOLUME_WORDS.test(m.toLowerCase())) ? 'volumes' : 'disks'), size: asked.size }
      : {}),
    refers: false,
    // "median of its calls …" after a question of the p99: the median.
    percentile: asked.percentile ?? before.percentile,
    howFailing: asked.howFailing || before.howFailing,
    mean: asked.mean || before.mean,
    slowerThan: asked.slowerThan ?? before.slowerThan,
    peak: asked.peak || before.peak,
    // "… and total across all cart pods?" after a question of restarts: their counters.
    soFar: asked.soFar || before.soFar || (before.signals.includes('restarts') && SO_FAR.test(text)),
    rangeMinutes: asked.rangeMinutes ?? before.rangeMinutes,
    ...(asked.byRoute ? { byRoute: true } : {}),
    ...(asked.routes.length ? { routes: asked.routes, byRoute: true } : {}),
    // "reads too?" after a question about writes: the reads, of the routes they name anew.
    ...(asked.method ? { method: asked.method, routes: asked.routes, routeWords: [] } : {}),
    ...(asked.versions.length ? { versions: asked.versions, compare: true } : {}),
    reference: asked.reference ?? before.reference,
    // "reads too?", "cart as well?" asks whether it moved as the first did: compared.
    compare: asked.reference || asked.versions.length ? !asked.reference?.at : before.compare || asked.also,
    // A fragment asking before a moment ("and prior to the deploy?") asks how it was then: the answer leads with then.
    before: asked.before || before.before,
  };
}

/** What the asker reads or writes, not a service's reads or writes. */
const OWN_READING =
  /\b(i|i'm|im|we|we're|you|am|are|was|were|been|not|to|can't|cannot|don't)\s+(reading|read|writing|write|posting|post)\b|\b(read|reading|write|writing|post|posting|puts?)\s+(it|this|that|them|the|a|an|my|our|up)\b(?! (route|routes|path|paths|requests?|calls?|endpoints?|queries|traffic))/g;

/** How requests fail: "failing with what?", "and how?", "which status code?", "with which error?". */
const HOW_FAILING =
  /\bwhat(?:'s| is| are) the (errors?|codes?|status(es)?|outcomes?)\b(?! (ratio|rate|percent|share|count|budget|numbers?))|\bwhat (goes|went|is going|'s going) wrong\b|\bfail\w*,? (with|how)\b|\b(status|error|response|http|return) codes?\b|\b(what|which) (errors?|codes?|outcomes?|status(es)?|exceptions?)\b|\bwith (what|which)\b|\bhow (exactly |actually |precisely )?(do|does|are|is|did|were|was) (the |its |their )?([^\s,.;?]+ ){0,6}fail\w*\b|\b(timeouts?|timing out|timed out) or (refused|resets?|refusals?|5xx|errors?)\b|\b(refused|resets?) or (timeouts?|timing out|timed out)\b|\b(kind|type|sort)s? of (errors?|failures?)\b|\boutcomes?\b|\band how\b|\bhow\s*\?*\s*$/;

/** Words of the trade written as alert names are ("PostgreSQL", "ConfigMap"): no alert. */
const NOT_ALERTS = new Set(
  'postgresql mysql mariadb rabbitmq mongodb configmap configmaps replicaset replicasets statefulset statefulsets daemonset daemonsets crashloopbackoff oomkilled notready hikaricp imagepullbackoff errimagepull containercreating persistentvolumeclaim persistentvolume cronjob javascript typescript pagerduty opsgenie github gitlab'.split(
    ' ',
  ),
);

/** The first word of a message written as Prometheus alert names are, in CamelCase of two words or more ("CPUThrottlingHigh", "KubePodCrashLooping"). */
function alertNameIn(message: string): string | null {
  for (const m of message.matchAll(/\b[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*\b/g))
    if (m[0].length >= 8 && !NOT_ALERTS.has(m[0].toLowerCase()) && /[a-z]{2}/.test(m[0])) return m[0];
  return null;
}

/** Whether a message that names an alert asks what it is about: "which workload is it on?", "is that my cart containers?", "what is it firing for?". */
const ASKS_ALERT_SUBJECT =
  /\b(which|whose|what)( [a-z0-9_-]+){0,2} (workloads?|services?|pods?|containers?|namespaces?|deployments?|jobs?|apps?|nodes?|targets?)\b|\b(about|for|on) (which|what|whose)\b|\b(is|are) (it|that|this|they|those)( one)? (about|for|on|from|my|our|the|\w+'s)\b|\b(about|for|on) what\b|\bfiring (for|on|about)\s*(what|which|who)\b|\bwhat (is|does|'s) (it|that|this)( one)? (about|mean|cover|for)\b|\bwho (is|does) it\b/;

/** A part of a message that only acknowledges or hedges ("ok", "so", "got it", "thanks"): no question of its own. */
const FILLER =
  /^\W*(ok(ay)?|so|right|alright|cool|great|thanks?|thank you|got it|understood|sure|yes|yeah|no|nope|fine|hm+|and|also|then|quick one|one more)\W*$/i;

/** A clause that sets a condition for the question after it ("so if it's not memory, what's killing them?"): no question of its own. */
const CONDITION = /^\W*(?:(?:so|and|but|ok|okay)\W+)?(?:if|assuming|given that|unless|in case)\b/i;

/**
 * A part that is statements and a last sentence that asks nothing the grammar reads and names
 * nothing ("Customers report that transfers hang. Is that this incident"): context, no question.
 */
function onlyContext(part: string): boolean {
  const sentences = part.split(/(?<=[.!])\s+(?=\S)/).filter((s) => /[a-z]/i.test(s));
  if (sentences.length < 2) return false;
  // ("when inventory stopped answering. UTC pls": a question without its mark, then how to write the answer.)
  if (sentences.slice(0, -1).some((s) => OPENS_WITH_QUESTION_WORD.test(s))) return false;
  const last = parseText(sentences[sentences.length - 1]);
  return last.kind === 'unknown' && !last.words.length && !last.routes.length && !last.versions.length;
}

/**
 * A message whose quotations ask nothing of their own: what a customer or an error said ("they
 * write 'is checkout down?!'", "('upload failed: insufficient storage'?!)") is reported, so its
 * question and exclamation marks and its full stops end no sentence and no question of the
 * message. (An apostrophe within a word, "Contoso's", opens no quotation; a host name keeps its dots.)
 */
const QUOTATION = /(?<=^|[\s(:[])(?:'[^'\n]+?'|"[^"\n]+?"|“[^”\n]+?”|‘[^’\n]+?’)(?=$|[\s).,;:!?\]])/g;
function withQuotesAsStatements(message: string): string {
  return message.replace(QUOTATION, (q) => q.replace(/[?!;]|\.(?=\s|['"”’]$)/g, ','));
}

/** How exact the answer need be, said after the question ("ballpark is fine", "rough count ok", "plain seconds pls"): no question, and no name. */
const HEDGE =
  /^\W*(?:i'?m |i am |we'?re |we are |just )?trying to (?:size|estimate|gauge|scope|quantify|ballpark)\b|^\W*(?:(?:just|even|only|a|an|the)\s+)*(?:ballpark|rough(?:ly)?|approx\w*|estimates?|round(?:ed)?|plain|order of magnitude|best guess|guess|ish|number|figure|count|seconds|ms|percent(?:age)?)\b[^?]{0,40}?\b(?:fine|ok|okay|good|enough|works|please|pls|plz)\b\W*$/;
/**
 * A message without what it says after its last question ("… right now? Sorry, I'm still figuring
 * out the dashboards.", "… as a percentage? I don't remember what the max is set to."): an apology,
 * a hedge or context asks nothing, and its words name nothing. What follows a question and asks one
 * of its own, or only says how to read it again ("… ? payments too", "… ? and over the last hour"),
 * is kept.
 */
const STATEMENT_OPENER =
  /^\W*(sorry|apolog\w*|thanks|thank you|cheers|fyi|btw|i|i'm|im|i've|i'd|i'll|we|we're|we've|our|my|the|a|this|that|it|it's|there|customers?|someone|somebody|just|still|not sure|no rush|hope|need|needs|needed|want|wants|asking|trying|gotta)\b(?![^.!]*\b(what|which|when|where|how|why|who)\b[^.!]*$)/;
/**
 * What follows the last question mark and asks a question of its own, without one: a question word opens it ("… in the same group?
 * which workload is that even on"), or a request names what it wants ("… stuck on? need the thread dump").
 */
const ASKS_AFTER =
  /^\W*(?:what|what's|whats|which|when|where|how|why|who|whose)\b|^\W*(?:need|want|gimme|give me|show me|send me)\s+(?!(?:it|this|that|them|these|those|to|for|by|asap|quick\w*|soon|now)\b)\w/;
function withoutClosingStatement(message: string): string {
  const last = message.lastIndexOf('?');
  const tail = message.slice(last + 1);
  if (last < 0 || !/[a-z]/i.test(tail)) return message;
  const lower = tail.toLowerCase().trim();
  if (FOLLOW_UP.test(lower) || FRAGMENT_START.test(lower) || ASKS_AFTER.test(lower)) return message;
  const statement = STATEMENT_OPENER.test(lower) || HEDGE.test(lower) || (parseText(tail).kind === 'unknown' && lower.split(/\s+/).filter(Boolean).length > 3);
  return statement ? message.slice(0, last + 1) : message;
}

/**
 * "Did the frontend rollout start before or after search traffic jumped?", "was that before cart
 * started restarting or after?": two moments to set side by side, each asked when it was (the
 * second as "at what time search traffic jumped?").
 */
const BEFORE_OR_AFTER =
  /(?:\s*[,;:—–-]\s*|\s+(?:was|is|did|does) (?:that|it|this|they) (?:start(?:ed)? |happen(?:ed)? )?|\s+)(?:(?:before|after) or (?:before|after) ([^?.!;]+)|(?:before|after) ([^?.!;]+?) or (?:before|after))(?=\s*[?.!;]|\s*$)/g;
/** "what happened first, the ledger-reconcile cpu spike or the payments rollout?": when each did. */
const WHICH_FIRST =
  /\b(?:what|which)(?: one| of them| of the two)? (?:happened|came|started|began|was|went|hit|showed up)(?: first| earlier)\s*[,:—–-]?\s+([^?.!;]+?)\s+or\s+([^?.!;]+?)(?=\s*[?.!;]|\s*$)/gi;
function withBothTimes(message: string): string {
  const first = message.replace(WHICH_FIRST, (_, a: string, b: string) => `at what time ${a.trim()}? at what time ${b.trim()}`);
  if (first !== message) return first;
  const both = message.replace(BEFORE_OR_AFTER, (_, a: string | undefined, b: string | undefined) => `? at what time ${(a ?? b ?? '').trim()}?`);
  // ("did the frontend rollout start" before it is when the rollout started.)
  return both === message ? message : both.replace(/(^|[?.!]\s+)(did|was|were|does|do|has|had)\b(?=[^?]*\? at what time )/gi, '$1when $2');
}

/** One of the questions a message asks, with its own text. */
export interface QuestionPart {
  text: string;
  asked: TypedQuestion;
}

/**
 * Where a message asks a new question: after a question mark or a semicolon, or at an "and" (or
 * ", and") followed by a question's word ("which pods are hit and what's their p99?"); not at an
 * "and" inside one question ("which pods run 3.3.0 and on which nodes?").
 */
const PART_BREAK =
  /\s*(?:[?;]+(?![?!.\s]*\))|\s+and\s+(?=the time\b|at what (?:time|moment|point)\b)|,\s+and\s+(?=(?:the\s+)?(?:total|peak|max|maximum|highest|lowest|number|count|share|ratio|rate|percentage|failed|failures)\b|(?:its |their |the )?(?:cpu|memory|mem|ram) (?:limits?|requests?)\b)|,?\s+(?:vs\.?|versus|compared (?:to|with))\s+(?=(?:when|what|which|how)\b)|,\s+(?=(?:what|what's|which|when|where|how|who)\b)|(?<=(?:^|[?;]\s*)\W*(?:why|what|what's|whats|how|which|when|where|who|is|are|was|were|does|did|do|can|could)\b[^?;—–]*?)\s+[—–-]+\s+(?=(?:what|what's|whats|which|when|where|how|who)\b)|,?\s+(?:and|[&+])\s+(?:(?:roughly|approximately|also|then|just|exactly|if so,?)\s+)?(?=(?:what|what's|whats|wat|which|wich|when|wen|where|how|is|are|was|were|did|does|do|has|have|any|show|list|its|their|since|by who|who|starting when|from when)\b))\s*/;

/**
 * The questions of a message that asks several of different kinds ("which pods are affected and
 * what's their latency?": a listing and a signal), each read on its own, in order; none when it
 * asks one question (or several of one kind, which the grammar reads together), or when a part
 * is not understood alone.
 */
export function questionParts(whole: string, pasted = true): QuestionPart[] {
  // A PromQL expression given to evaluate is a part of its own, first; the message's own question about it ("… — how high did it get
  // vs the limit?") is read with the expression's measure in its place.
  const query = pasted ? runnableQuery(whole) : null;
  if (query) {
    const first = { text: query.expr, asked: query.asked };
    if (!query.rest) return [first];
    const rest = questionParts(query.rest, false);
    return [first, ...(rest.length ? rest : [{ text: query.rest, asked: parseQuestion(query.rest, false) }])];
  }
  // The pleasantries and the purpose clause that open a message ("for the timeline, …") are no part of their own.
  const message = withoutClosingStatement(withBothTimes(withQuotesAsStatements(whole.slice(0, READ_CHARS))));
  const asked = message.slice(message.length - withoutPreamble(message.toLowerCase()).length);
  const topic = topicOf(message);
  // What an alert is about is one question, whatever its sentences ("CPUThrottlingHigh fires too. Is that search? Which workload is it on?").
  if (parseText(message).listings.includes('alerts')) return [];
  // Whether a part was left out because a part after it answers it: the one left is the question, read alone.
  let answeredNext = false;
  const parts = asked
    .split(PART_BREAK)
    .map((t) => t.trim())
    .filter((t) => /[a-z]/i.test(t) && !FILLER.test(t) && !CONDITION.test(t) && !onlyContext(t))
    .map((text) => ({ text, asked: aboutTopic(parseQuestion(text, pasted), topic) }))
    // A later part that only says how to read the part before again ("…, and how much was free on it an hour ago?") asks that part again.
    .map((p, i, all) =>
      i > 0 && p.asked.kind === 'unknown'
        ? {
            ...p,
            asked: followingUp(
              p.asked,
              p.text,
              all.slice(0, i).map((x) => x.text),
              true,
            ),
          }
        : p,
    )
    // "…, and what % of cart traffic is that?" after a part that counted failed requests: their share of all requests.
    .map((p, i, all) =>
      i > 0 && SHARE_OF_COUNT.test(p.text.toLowerCase()) && countsFailures(all[i - 1].asked)
        ? { ...p, asked: shareOf(all[i - 1].asked, p.asked, p.text.toLowerCase()) }
        : p,
    )
    // "… and how full is it?" after a part about a disk: that disk's fill, not the saturation of a service.
    .map((p, i, all) =>
      i > 0 && /\b(how )?full\b|\bfill\w*\b/.test(p.text.toLowerCase()) && all[i - 1].asked.signals.includes('disk') && !p.asked.signals.includes('disk')
        ? // ("… and at what time did it hit full?": when that disk filled.)
          { ...p, asked: { ...all[i - 1].asked, size: false, free: null, refers: true, kind: p.asked.kind === 'when' ? 'when' : all[i - 1].asked.kind } }
        : p,
    )
    // "… and how old is the oldest one?" after a part about a queue: that queue's oldest message.
    .map((p, i, all) =>
      i > 0 &&
      (p.asked.kind === 'unknown' || (p.asked.kind === 'when' && !p.asked.signals.length && !p.asked.words.length)) &&
      all[i - 1].asked.signals.includes('queue') &&
      /\b(oldest|how old|age)\b/.test(p.text.toLowerCase())
        ? { ...p, asked: { ...all[i - 1].asked, queue: 'age' as const, refers: true } }
        : p,
    )
    // "…, and what's the limit per pod?" after a part about CPU, throttling or memory: that limit's value.
    .map((p, i, all) =>
      i > 0 &&
      p.asked.kind === 'which' &&
      !p.asked.signals.length &&
      /\blimits?\b/.test(p.text.toLowerCase()) &&
      !AGAINST_LIMIT.test(p.text.toLowerCase().replace(/\bper\b/g, ' ')) &&
      all[i - 1].asked.signals.some((x) => x === 'cpu' || x === 'memory' || x === 'throttling')
        ? {
            ...p,
            asked: {
              ...all[i - 1].asked,
              kind: 'signals' as const,
              signals: [all[i - 1].asked.signals.includes('memory') ? ('memory' as const) : ('cpu' as const)],
              limitValue: true,
              againstLimit: false,
              byPod: false,
              largest: false,
              compare: false,
              reference: null,
              refers: true,
            },
          }
        : p,
    )
    // "the first OOM kill after that, what time was it?": when the event the part before it names happened, asked of it (not "p99, and since when?").
    .flatMap((p, i, all) => {
      const bareWhen = (q?: QuestionPart): boolean => !!q && asksOnlyWhen(q.asked);
      const event = (q?: QuestionPart): boolean =>
        !!q && q.asked.kind === 'signals' && q.asked.signals.length > 0 && /\b(first|last|latest|earliest)\b/i.test(q.text);
      if (event(p) && bareWhen(all[i + 1])) return [];
      const before = all[i - 1];
      return i > 0 && bareWhen(p) && event(before)
        ? [{ text: `${before.text}, ${p.text}`, asked: { ...before.asked, kind: 'when' as const, compare: false } }]
        : [p];
    })
    // A later part that names no subject and no measure ("… and since what moment?") asks about what the part before it named.
    .map((p, i) => (i > 0 && !p.asked.words.length && !p.asked.signals.length ? { ...p, asked: { ...p.asked, refers: true } } : p))
    // "which configmap changed and when?": the changes are listed with their times, and "when" asks nothing more of them.
    .filter(
      (p, i, all) =>
        !(i > 0 && all[i - 1].asked.kind === 'changes' && /^(and )?(at )?(when|what time)( (was|did) (that|it|this)( happen)?)?\W*$/i.test(p.text)),
    )
    // "is ledger slow for billing? avg latency of billing's calls to ledger", "crashlooping cart pod, how many restarts so far":
    // the measure asked next of the same subject answers whether it is, of the subject either names.
    .flatMap((p, i, all) => {
      const next = all[i + 1];
      // (Of its last clause: "ip-10-0-3-41 is at 98% cpu — what's on it" asks what is on the node.)
      if (next && !OPENS_WITH_QUESTION_WORD.test(lastClause(p.text)) && ASKS_A_VALUE.test(next.text) && answeredBy(p.asked, next.asked)) {
        answeredNext = true;
        return [];
      }
      const before = all[i - 1];
      if (before && !OPENS_WITH_QUESTION_WORD.test(before.text) && ASKS_A_VALUE.test(p.text) && answeredBy(before.asked, p.asked) && !p.asked.words.length)
        return [
          {
            ...p,
            asked: {
              ...p.asked,
              words: before.asked.words,
              placedAsNames: before.asked.placedAsNames,
              plainWords: before.asked.plainWords,
              nameShaped: before.asked.nameShaped,
              // ("checkout -> inventory calls: connection refused? how many per second are failing that way": of those calls.)
              callee: p.asked.callee ?? before.asked.callee,
              refers: false,
            },
          },
        ];
      return [p];
    })
    // "is archive the cause or a victim? are its pods even up, and how are the calls failing?": the questions after it are the evidence
    // asked for; a yes/no question of the cause beside them is answered by them.
    // (What it names, a version or a service, is what "it" in the next part means.)
    .flatMap((p, i, all) => {
      const evidence = (j: number): boolean =>
        all[j].asked.kind === 'cause' &&
        /^\W*(is|was|are|were|did|does|do|could|can|has|have)\b/i.test(all[j].text) &&
        // (A challenge of a suspect, "really harmless?", "the cause or a victim?"; not "did something get deployed or is it something else?".)
        /\b(really|actually|truly|sure|victim|harmless|innocent|to blame)\b/i.test(all[j].text) &&
        all.some((q, k) => k > j && !['cause', 'unknown', 'outside', 'actions'].includes(q.asked.kind));
      if (evidence(i)) {
        answeredNext = true;
        return [];
      }
      const dropped = i > 0 && evidence(i - 1) ? all[i - 1].asked : null;
      // ("are you sure it's the certificate and not partner-bank? when did it expire, and how are payments' calls to them failing": the
      // calls to the service the challenge named.)
      const challenged = all.slice(0, i).findLast((_, j) => evidence(j))?.asked;
      const callee = challenged && [...challenged.nameShaped, ...challenged.placedAsNames].find((w) => !p.asked.words.includes(w));
      if (challenged && callee && p.asked.calleeRefers && !p.asked.callee)
        return [{ ...p, asked: { ...p.asked, callee, calleeRefers: false, words: [...p.asked.words, callee] } }];
      return dropped && p.asked.refers && !p.asked.words.length && !p.asked.versions.length
        ? [
            {
              ...p,
              asked: {
                ...p.asked,
                words: dropped.words,
                placedAsNames: dropped.placedAsNames,
                plainWords: dropped.plainWords,
                nameShaped: dropped.nameShaped,
                versions: dropped.versions,
                refers: false,
              },
            },
          ]
        : [p];
    })
    // "which backend service and which machine is the problem?": the cause, which names both; the bare "which service" is no listing of its own.
    .filter((p, i, all) => {
      const bare =
        p.asked.kind === 'which' &&
        all[i + 1]?.asked.kind === 'cause' &&
        /(?:^|[.!?]\s+)(?:which|what) (?:(?:backend|downstream|upstream) )?(?:services?|components?|systems?|backends?|dependenc\w+)\s*$/i.test(p.text);
      if (bare) answeredNext = true;
      return !bare;
    })
    // "why did that node die? hardware fault, kernel panic?": the why asks which of the mechanisms named after it, none of which the data holds.
    .filter((p, i, all) => {
      const options = all[i + 1];
      // (Or a short question of one: "why did the process hang, which thread?")
      // (Or of what inside the process it waits on: "what is it stuck on? which thread or lock is it waiting for?")
      const outside =
        p.asked.kind === 'cause' &&
        options?.asked.kind === 'outside' &&
        (!OPENS_WITH_QUESTION_WORD.test(options.text) ||
          options.text.trim().split(/\s+/).length <= 3 ||
          /\b(threads?|locks?|deadlock\w*|mutex\w*|goroutines?|stack|lines? of code|functions?|methods?)\b/i.test(options.text));
      if (outside) answeredNext = true;
      return !outside;
    })
    // A fragment that only says what the questions after it are of, when they all ask what no source records ("Of the extra
    // /api/search traffic, how much is the crawler and how much is real shoppers?"), asks nothing the data answers either.
    .filter(
      (p, i, all) =>
        !(
          all.length > 1 &&
          p.asked.kind !== 'outside' &&
          /^\W*(of|for|from|about|regarding|on|among|within) (the|its|their|our|all|this|that|those|these)\b/i.test(p.text) &&
          all.every((q, j) => j === i || q.asked.kind === 'outside')
        ),
    )
    // "was that a new build? what version is it on?": one listing, asked twice in other words.
    .filter(
      (p, i, all) =>
        !(
          i > 0 &&
          p.asked.kind === 'which' &&
          all[i - 1].asked.kind === 'which' &&
          p.asked.listings.join() === all[i - 1].asked.listings.join() &&
          !p.asked.words.length &&
          !p.asked.versions.length
        ),
    )
    // A part that asks nothing and names nothing ("could you give me both, please?") is no question of its own.
    .filter((p) => !(p.asked.kind === 'unknown' && !p.asked.words.length && !p.asked.routes.length && !p.asked.versions.length));
  // Several statistics of one latency ("average and p99", "p50, p95 and p99"): each its own part, in the order named.
  const statistics = parts.flatMap((p) =>
    p.asked.kind === 'signals' && p.asked.signals.length === 1 && p.asked.signals[0] === 'latency' && !p.asked.slowerThan
      ? statisticsOf(p.text).map((stat) => ({ ...p, asked: { ...p.asked, ...stat } }))
      : [p],
  );
  if (statistics.length > parts.length && !parts.some((p) => p.asked.kind === 'unknown')) return statistics;
  if (answeredNext && parts.length === 1 && parts[0].asked.kind !== 'unknown') return parts;
  if (parts.length < 2 || parts.some((p) => p.asked.kind === 'unknown')) return [];
  // Several times asked ("when did the rollout start, and when did inventory go down?"): each its own, when they ask of different things.
  const times = parts.every((p) => p.asked.kind === 'when');
  const asksOf = (q: TypedQuestion): string => JSON.stringify([q.words, q.signals, q.versions, q.rollout]);
  // A disk's size asked with its free space ("size of /var/lib/media, and how much is free on /?"): each its own.
  if (
    parts.every((p) => p.asked.kind === 'signals' && p.asked.signals.includes('disk')) &&
    new Set(parts.map((p) => `${p.asked.free}|${p.asked.size}`)).size === parts.length
  )
    return parts;
  const ownSubject = (q: TypedQuestion): boolean => q.words.length > 0 || q.signals.length > 0 || q.versions.length > 0 || q.rollout;
  if (times) return parts.every((p) => ownSubject(p.asked)) && new Set(parts.map((p) => asksOf(p.asked))).size === parts.length ? parts : [];
  // Measures of different subjects ("how much CPU is catalog-sync using, and how busy is that node?"): each of its own subject.
  const subjectOf = (q: TypedQuestion): string =>
    q.refersNode || q.nodeOf ? 'node' : [...(q.placedAsNames.length ? q.placedAsNames : q.words), ...q.routes].join(' ');
  if (
    parts.every((p) => p.asked.kind === 'signals' && (p.asked.words.length > 0 || p.asked.routes.length > 0 || p.asked.refersNode || p.asked.nodeOf)) &&
    new Set(parts.map((p) => subjectOf(p.asked))).size === parts.length &&
    new Set(parts.map((p) => `${subjectOf(p.asked) === 'node'}|${p.asked.signals.join(' ')}|${p.asked.callee ?? ''}`)).size === parts.length
  )
    return parts;
  // A queue's depth and its oldest message's age, each asked in words of its own ("how many are waiting, and how old is the oldest?"): each its own.
  if (
    parts.length === 2 &&
    parts.every((p) => p.asked.kind === 'signals' && p.asked.signals.length === 1 && p.asked.signals[0] === 'queue') &&
    new Set(parts.map((p) => p.asked.queue)).size === 2 &&
    parts.every((p) => p.asked.queue !== 'depth' || /\b(how many|depth|backlog|waiting|queued|size|count|number of)\b/i.test(p.text))
  )
    return parts;
  // A share and a count of one measure ("peak 5xx ratio, and total failed requests since the rollout"), its share of all requests,
  // or a use and a limit ("working set of that pod, and what's its mem limit"): each its own.
  // (Two parts of the same reading, "is it throttled? what fraction of its periods, and the limit?", are one: the later, which asks its value.)
  if (parts.every((p) => p.asked.kind === 'signals' && p.asked.signals.length)) {
    // (A pool's waiting callers and its size, "how many wait … and what's the pool max?", are two readings too.)
    const ofPools = parts.every((p) => p.asked.signals.length === 1 && p.asked.signals[0] === 'connections');
    const reading = (q: TypedQuestion): string => `${q.count}|${!!q.shareOfCount}|${q.limitValue}|${ofPools ? q.pool : ''}`;
    const last = new Map(parts.map((p) => [reading(p.asked), p]));
    if (last.size === parts.length || (last.size > 1 && parts.every((p) => p.asked.signals.join() === last.get(reading(p.asked))!.asked.signals.join())))
      return parts.filter((p) => last.get(reading(p.asked)) === p);
  }
  return new Set(parts.map((p) => p.asked.kind)).size > 1 ? parts : [];
}

/** The last clause of a part: what follows its last dash or colon ("the slow one — which node is it on"). */
const lastClause = (text: string): string => text.split(/\s[—–-]\s|:\s/).at(-1) ?? text;

/** A part that opens with a question word ("what …", "how …"): a question of its own, no mere mention. */
const OPENS_WITH_QUESTION_WORD = /^\W*(what|what's|whats|which|when|where|who|why|how)\b/i;
/** A part that asks a value ("what's …", "how many …", "show me …", "avg …"); a statement after a question answers nothing. */
const ASKS_A_VALUE = /^\W*(what|what's|whats|which|how|give|show|tell|avg|average|mean|median|p\d\d)\b/i;

/** Whether `by`, a part asking a measure, answers `q`, a part before or after it that only mentions the same measure of the same subject. */
function answeredBy(q: TypedQuestion, by: TypedQuestion): boolean {
  return (
    by.kind === 'signals' &&
    q.kind === 'signals' &&
    q.signals.join() === by.signals.join() &&
    // (A part that asks a value of its own, "peak 5xx ratio", "size of /var/lib/media", "rps now vs an hour ago", "calls failing
    // per sec", is no mere mention of the measure; nor is a limit or a size the same measure as a use.)
    !(
      q.count ||
      q.peak ||
      q.size ||
      q.free ||
      q.limitValue ||
      q.percentile !== null ||
      q.mean ||
      q.slowerThan ||
      q.shareOfCount ||
      q.failedPerSecond ||
      q.reference ||
      q.compare ||
      q.rangeMinutes !== null ||
      q.byPod ||
      q.byRoute ||
      q.routes.length
    ) &&
    !(by.limitValue || by.size || by.free) &&
    (q.words.every((w) => by.words.includes(w)) || by.words.every((w) => q.words.includes(w)))
  );
}

/** A latency's statistics as a question names them: a percentile ("p95", "90th percentile", "median") or the mean ("average", "avg"; not "average p99"). */
const STATISTICS =
  /\bp(\d{2}(?:\.\d+)?)\b|\b(\d{2}(?:\.\d+)?)(?:th)? percentile\b|\b(median)\b|\b(average|mean|avg)\b(?!\s+(?:p\d{2}|\d{2}(?:th)? percentile|median))/g;

/** The statistics of a latency a text names, each once, in the order named. */
function statisticsNamed(text: string): Array<Pick<TypedQuestion, 'percentile' | 'mean'>> {
  const named = new Map<string, Pick<TypedQuestion, 'percentile' | 'mean'>>();
  for (const m of text.toLowerCase().matchAll(STATISTICS)) {
    const stat = m[4] ? { percentile: null, mean: true } : { percentile: Number(m[1] ?? m[2] ?? 50) / 100, mean: false };
    named.set(`${stat.percentile}|${stat.mean}`, stat);
  }
  return [...named.values()];
}

/** The statistics of a latency a part asks side by side; none when it names fewer than two. */
const statisticsOf = (text: string): Array<Pick<TypedQuestion, 'percentile' | 'mean'>> => {
  const named = statisticsNamed(text);
  return named.length > 1 ? named : [];
};

/**
 * What a question of the cause names as its suspect ("is the release the problem?", "was it the
 * 2026.11.27-1 deploy?", "someone blamed ledger-reconcile, is it?"): a pattern of the versions and
 * names it gives, and of the words findings use for builds, rollouts and edits when it speaks of
 * one; null when it names none.
 */
export function suspectsOf(asked: TypedQuestion, message: string): RegExp | null {
  const text = message.toLowerCase();
  const names = [...asked.versions, ...asked.words.filter((w) => asked.placedAsNames.includes(w) || /[-_.\d]/.test(w))];
  const change =
    /\b(releases?|released|deploy\w*|rollouts?|roll(?:ed)? out|new (?:version|build|image|pods?)|versions?|builds?|images?|upgrade\w*|config\w*( change| edit)?|edit(?:ed)?)\b/.test(
      text,
    );
  const parts = [
    ...names.map((n) => `\\b${escape(n)}\\b`),
    ...(change ? ['\\bnew build\\b', '\\brolled out\\b', '\\brollout\\b', '\\bdeploy', '\\bversion=', '\\brelease', 'ConfigMap', '\\bconfiguration\\b'] : []),
  ];
  return parts.length ? new RegExp(parts.join('|'), 'i') : null;
}

/** Where a signal's words first appear in a question (its length when they do not). */
function firstMention(text: string, signal: Signal): number {
  const re = SIGNALS.find(([s]) => s === signal)?.[1];
  const at = re ? text.search(re) : -1;
  return at < 0 ? text.length : at;
}

/** "over the last hour" → 60, "in the past 30 minutes" → 30, "last 2h" → 120; null when none is said. */
function rangeOf(text: string): number | null {
  if (/\b(?:last|past|previous|recent)\s+half(?:\s+an|-an)?[\s-]+hour\b|\bhalf an hour\b/.test(text)) return 30;
  const m =
    /\b(?:last|past|previous|recent)\s+(?:(\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|ten|fifteen|twenty|thirty)\s*)?(minutes?|mins?|m|hours?|hrs?|h|days?|d)\b/.exec(
      text,
    );
  if (!m) return null;
  const count = m[1] === undefined ? 1 : (NUMBER_WORDS[m[1]] ?? Number(m[1]));
  const unit = m[2].replace(/s$/, '');
  return Math.round(count * (UNIT_MINUTES[unit] ?? 60));
}

/** Neighbouring words of `text` that may each name a subject (see subjectWords), joined by `-`. */
function compoundsOf(text: string, words: string[]): string[] {
  const tokens = text.split(/[^a-z0-9_.-]+/).filter(Boolean);
  return [
    ...new Set(
      tokens.slice(1).flatMap((t, i) =>
        // "the orders database", "the orders db": ordersdb, orders-db.
        words.includes(tokens[i]) && /^(db|database)$/.test(t)
          ? [`${tokens[i]}db`, `${tokens[i]}-db`]
          : words.includes(tokens[i]) && words.includes(t)
            ? [`${tokens[i]}-${t}`]
            : [],
      ),
    ),
  ];
}

/** Words after which a name stands: "the latency of billing", "does checkout call billing". */
const BEFORE_NAMES = new Set(
  'of for on in to from with about by between than vs versus and or call calls calling hit affect affects reach uses use'.split(' '),
);
/** Verbs after which a name stands when they open the question (or follow its question word): "is billing down?", "how is billing?", not "which pods are affected?". */
const OPENING_VERBS = new Set("is are was were does do did has have hows how's".split(' '));
const QUESTION_WORDS = new Set("what what's whats which who where how when why".split(' '));
/** Words a name stands before: "the billing service", "billing's latency", "the billing pods". */
const AFTER_NAMES = new Set(
  'service services svc pod pods app apps job jobs deployment deployments db database server servers queue queues worker workers api cluster namespace node host one cache broker instance'.split(
    ' ',
  ),
);

/**
 * Whether `word` stands where a name stands in `text` (first in it, after a word of BEFORE_NAMES
 * or a verb that opens the question, before one of AFTER_NAMES or with a possessive `'s`) or looks like a name (a digit, `-`, `_` or
 * `.` in it), at any of its occurrences. Verbs and adjectives of a question ("when did it start
 * rising?", "where are the errors originating?") stand elsewhere.
 */
function namePlaced(text: string, word: string): boolean {
  return placement(text, word) !== null;
}

/**
 * How firmly `word` stands where a name stands in `text`, at the firmest of its occurrences:
 * `firm` when it looks like a name, opens the question, follows its opening verb ("is billing
 * down?"), has a possessive `'s` or comes before a word of AFTER_NAMES ("the billing pods");
 * `loose` when it only follows a word of BEFORE_NAMES ("of people", "on the storefront"); null
 * when it stands nowhere a name stands.
 */
function placement(text: string, word: string): 'firm' | 'loose' | null {
  if (/[\d_.-]/.test(word)) return 'firm';
  const tokens = text.split(/[^a-z0-9_.:'-]+/).filter(Boolean);
  let found: 'loose' | null = null;
  for (const [i, t] of tokens.entries()) {
    const bare = t.replace(/^[.:'-]+|[.:'-]+$/g, '');
    if (bare.replace(/'s$/, '') !== word) continue;
    if (bare.endsWith("'s")) return 'firm';
    // A verb's form where a predicate or a statement's verb stands is no name: "is it fixed yet", "writing the status page…",
    // "what is eating cpu on it".
    if (verbForm(word)) {
      const next = tokens[i + 1]?.replace(/[?.!,;:'-]+$/, '');
      if (i > 0 && PRONOUNS.has(tokens[i - 1])) continue;
      if (i === 0 && next !== undefined && DETERMINERS.has(next)) continue;
      if (i >= 2 && /^(is|was|'s)$/.test(tokens[i - 1]) && /^(what|who|something|anything)$/.test(tokens[i - 2]) && next !== undefined && !verbForm(next))
        continue;
    }
    if (i === 0) {
      // ("photo uploads come back with 507", "stock lookups feel patchy": a word of the language before another that is no word of
      // the grammar qualifies it, and opens a statement no name; a known name is known whatever its place.)
      const next = tokens[1]?.replace(/[?.!,;:'-]+$/, '');
      const qualifies =
        !!next &&
        isEnglish(word) &&
        isEnglish(next) &&
        !COMMON.has(next) &&
        !AFTER_NAMES.has(next) &&
        !BEFORE_NAMES.has(next) &&
        !OPENING_VERBS.has(next) &&
        !/(ing|ed)$/.test(next);
      if (!qualifies) return 'firm';
      found = 'loose';
      continue;
    }
    // Skipping an article: "of the billing", "is the billing".
    const at = tokens[i - 1] === 'the' || tokens[i - 1] === 'a' ? i - 2 : i - 1;
    const before = tokens[at];
    // "is billing down?", "how is billing?", "how close is billing to its limit?"; not "which pods are affected?".
    const opens = before !== undefined && OPENING_VERBS.has(before) && (at === 0 || QUESTION_WORDS.has(tokens[at - 1]) || tokens[at - 2] === 'how');
    if (opens || (tokens[i + 1] !== undefined && AFTER_NAMES.has(tokens[i + 1].replace(/[?.!,;:]+$/, '')))) return 'firm';
    if (before !== undefined && BEFORE_NAMES.has(before)) found = 'loose';
  }
  return found;
}

const PRONOUNS = new Set('it that this they those these everything anything something'.split(' '));
const DETERMINERS = new Set('the a an my our your their its this that these those some'.split(' '));

/** Whether a word of the language is a verb's -ing or -ed form ("fixed", "writing", "eating"): its stem is a word too. */
function verbForm(word: string): boolean {
  const m = /^([a-z]+?)(ing|ed)$/.exec(word);
  if (!m || !isEnglish(word)) return false;
  const stem = m[1];
  return [stem, `${stem}e`, stem.replace(/(\w)\1$/, '$1'), stem.replace(/i$/, 'y')].some((s) => s.length >= 2 && isEnglish(s));
}

/** The people a product serves, by the words they are called: never the name of a system, whatever their place. */
const PEOPLE = new Set(
  'people person persons users user shoppers shopper buyers buyer sellers seller merchants merchant creators creator visitors visitor clients client members member subscribers subscriber players player readers reader viewers viewer guests guest patients patient drivers driver riders rider folks humans traders trader tenants tenant partners partner vendors vendor'.split(
    ' ',
  ),
);

/** The words of English (an-array-of-english-words, some 275,000), as a set made when first needed. */
let english: Set<string> | undefined;
export const isEnglish = (word: string): boolean => (english ??= new Set(ENGLISH_WORDS)).has(word);

/**
 * The words of `words` that stand where a name may stand yet are plainly words of the language, not
 * names: what a product's people are called ("shoppers", "creators"), and an English word that
 * only follows a preposition ("the share of people", "errors on the storefront"). One shaped as a
 * name ("the storefront service") is no plain word.
 */
function plainWordsOf(text: string, words: string[], nameShaped: string[]): string[] {
  return words.filter((w) => !nameShaped.includes(w) && (peopleOrSuperlative(w) || (placement(text, w) === 'loose' && isEnglish(w))));
}

/** Whether a question places as a name a word no dictionary holds (not shaped as a name either): perhaps a known name misspelt ("invntory status?"). */
export const placesAnUnknownWord = (asked: TypedQuestion): boolean => asked.placedAsNames.some((w) => !/[\d_.-]/.test(w) && !isEnglish(w));

/** Whether a word says who ("shoppers") or which ("the slowest"), never what: no name, and nothing to say was not found. */
export const peopleOrSuperlative = (word: string): boolean => PEOPLE.has(word) || superlative(word);

/** An adjective's superlative ("slowest", "worst", "biggest", "latest"): it says which one, never names one. */
function superlative(word: string): boolean {
  if (/^(worst|least|best|most)$/.test(word)) return true;
  if (!word.endsWith('est') || !isEnglish(word)) return false;
  const base = word.slice(0, -3);
  // slow-est, late-st, big-g-est, happi-est.
  const adjectives = [base, `${base}e`, base.replace(/(\w)\1$/, '$1'), base.replace(/i$/, 'y')];
  return adjectives.some((a) => a.length >= 2 && a !== word && isEnglish(a));
}

/** The words of a question that may name a subject: not the grammar's, not numbers, routes or versions. */
function subjectWords(text: string, routes: string[], versions: string[]): string[] {
  let rest = text;
  for (const r of routes) rest = rest.split(r.toLowerCase()).join(' ');
  for (const v of versions) rest = rest.split(v).join(' ');
  // A phrase written with hyphens ("add-to-cart", "out-of-memory") is its words, not a name.
  rest = rest.replace(/\b[a-z]+(?:-(?:to|of|and|or|in|on|for|the|a|an|at|by|from))+-[a-z]+\b/g, (m) => m.replace(/-/g, ' '));
  const words = rest
    .split(/[^a-z0-9_.:-]+/)
    .map((w) => w.replace(/^[.:-]+|[.:-]+$/g, '').replace(/'s$/, ''))
    // A metric's name ("redis_up i mean", "pg_stat_activity_count") names no subject.
    .filter(
      (w) =>
        w.length >= 3 &&
        !/^[\d:.-]+$/.test(w) &&
        !/-wise$/.test(w) &&
        !/^p\d{2}$/.test(w) &&
        !/^\d+(st|nd|rd|th|m|h|s)$/.test(w) &&
        // (Nor a quantity with its unit: "tops out around 320MiB", "a 150ms timeout", "30000ms".)
        !/^\d+(\.\d+)?(b|kb|kib|mb|mib|gb|gib|tb|tib|ms|sec|secs|min|mins|hr|hrs|x|rps|qps|cores?)$/.test(w) &&
        !/^[a-z][a-z0-9]*(_[a-z0-9]+)*_(up|total|bytes|seconds|count|bucket|sum|info|ratio)$/.test(w) &&
        !COMMON.has(w),
    );
  return [...new Set(words)];
}
