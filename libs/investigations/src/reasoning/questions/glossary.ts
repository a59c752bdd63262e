import type { Conclusion } from '../../conclusion.types';
import type { InvestigationSession } from '../reasoner';

/**
 * What the words of an incident mean, for the person who asks ("what is OOMKilled?", "what does
 * 'idle in transaction' mean?", "OOMKilled means it ran out of memory, right?"). A message may ask
 * what a word means beside a question of the data ("what's a liveness probe, and how many times
 * did cart restart?"): the words are defined after the answer, and the rest of the message is
 * answered as if they had not been asked. A definition states no measure of this incident, so it
 * cites no run (and holds no number, which every statement of a measure would have to cite).
 */

/** Each term as a question names it (the whole of what is asked about, without its article), and what it means. */
const TERMS: Array<[RegExp, string]> = [
  [
    /oom|oom ?kill(ed|s)?|oom-kill(ed|s)?|out of memory( kills?| killed)?|killed for (memory|oom)/,
    'OOMKilled: the kernel stopped a container because it used more memory than its limit allows; Kubernetes then starts it again, and the restart is counted.',
  ],
  [
    /crash ?loop ?back ?off|crash ?loop(s|ing)?|crash-loop(s|ing)?/,
    'CrashLoopBackOff: a container keeps exiting soon after it starts; Kubernetes starts it again each time, waiting longer between the tries.',
  ],
  [
    /(failing |a failing |failed )?liveness( probes?)?( failures?| checks?)?/,
    'A liveness probe: a check the kubelet runs against a container (an HTTP request, a command); when it fails several times in a row, the kubelet kills the container and starts it again.',
  ],
  [
    /(failing )?readiness( probes?)?( failures?| checks?)?/,
    "A readiness probe: a check that decides whether a pod receives traffic; a pod failing it is taken out of its Service's endpoints but not restarted.",
  ],
  [
    /(kubelet )?probes?/,
    'A probe: a check the kubelet runs against a container; liveness probes restart it when they fail, readiness probes take it out of traffic.',
  ],
  [
    /idle in transaction|idle-in-transaction|idle in txn/,
    'Idle in transaction: a database connection that began a transaction and now waits for its client; it holds its connection (and any locks) until the client commits or rolls back.',
  ],
  [
    /(db |database |connection |hikari ?|jdbc )?pool( exhaustion| exhausted| size)?|connection pools?|hikari(cp)?/,
    'A connection pool: the set of database connections a service keeps open and lends to its requests; when all are lent out, a request waits for one and fails when the wait times out.',
  ],
  [
    /max_?connections|max connections|connection limit/,
    "max_connections: the most connections the database server accepts at once; past it, a new connection is refused (PostgreSQL's 'too many clients').",
  ],
  [
    /(tls |ssl )?handshake( failures?| errors?| failed)?|(a )?tls (failure|error)s?/,
    'A TLS handshake failure: the client and the server could not set up an encrypted connection (an expired or untrusted certificate, no common protocol), so the request fails before it is sent.',
  ],
  [
    /(an )?(expired |expiring )?(tls |ssl )?cert(ificate)?s?( expiry| expiration| expired)?/,
    'A TLS certificate: what a server presents to prove who it is; after its expiry date, clients that check it refuse the connection.',
  ],
  [
    /(cpu |cfs )?throttl(ing|ed|e)|cfs/,
    'CPU throttling: a container that uses up its CPU limit within a scheduling period is paused until the next period, so it runs slower instead of using more CPU.',
  ],
  [
    /(a |the )?(cpu |memory )?limits?/,
    'A limit: the most CPU or memory a container may use; over its CPU limit it is throttled, over its memory limit it is OOM-killed.',
  ],
  [
    /(cpu |memory )?requests?/,
    'A request (of CPU or memory): what the scheduler reserves for a container on its node; it may use more, up to its limit, when the node has it to spare.',
  ],
  [
    /(the )?working set( memory)?|container_memory_working_set_bytes/,
    'The working set: the memory of a container the kernel counts against its limit (what it uses, less the page cache it can drop); it is what an OOM kill compares with the limit.',
  ],
  [
    /not ?ready|notready|(a )?node not ?ready/,
    'NotReady: a node that stopped reporting healthy to the control plane; its pods stop getting traffic and, after a while, are replaced on other nodes.',
  ],
  [
    /p\d{2}|(the )?\d{2}(th)? percentile|percentiles?|tail latency|median/,
    'A latency percentile: the time within which that share of the requests finished; the p-ninety-nine is the time that only one request in a hundred took longer than.',
  ],
  [
    /error (ratio|rate|percentage)|failure (ratio|rate)/,
    'The error ratio: the share of all requests that failed (answered with a server error), over a few minutes.',
  ],
  [
    /(req|reqs|requests)\/s|rps|qps|requests per second|throughput/,
    'Requests per second: how many requests the service answered each second, averaged over a few minutes.',
  ],
  [
    /5xx|server errors?/,
    'A server error (a five-hundred status): the service, or a proxy in front of it, failed to handle a request that may well have been valid.',
  ],
  [
    /502|bad gateway/,
    'Bad Gateway: a proxy or load balancer got no valid answer from the service behind it (it refused the connection, reset it, or crashed).',
  ],
  [
    /503|service unavailable/,
    'Service Unavailable: the service (or the proxy before it) could not take the request now: no ready backend, or it is overloaded.',
  ],
  [/504|gateway timeout/, 'Gateway Timeout: a proxy or load balancer gave up waiting for the service behind it to answer.'],
  [
    /config ?maps?/,
    "A ConfigMap: a Kubernetes object holding a workload's configuration; pods read it as files or environment variables, so an edit can change how they start.",
  ],
  [
    /pvcs?|persistent ?volume( claim)?s?|(a )?volume claims?/,
    'A PersistentVolumeClaim: storage a pod asks for that outlives the pod; when it fills up, writes to it fail.',
  ],
  [
    /replica ?sets?|replicas?/,
    'Replicas: the copies of a pod a Deployment keeps running (through its ReplicaSet); a new version rolls out as a new ReplicaSet replacing the old.',
  ],
  [/(a )?pods?/, 'A pod: one running copy of a workload (its containers, scheduled together on one node).'],
  [/(a )?(worker )?nodes?/, 'A node: one machine (a virtual machine here) of the cluster, which runs pods.'],
  [/evict(ion|ions|ed)/, 'An eviction: the kubelet removing pods from a node that runs short of memory or disk, so that they are started elsewhere.'],
  [/back ?-?off/, 'A back-off: the growing wait Kubernetes puts between tries (to restart a container, to pull an image).'],
  [/saturat(ion|ed)/, 'Saturation: how close a resource (CPU, memory, connections, a disk) is to its limit; near it, work queues and slows down.'],
  [
    /noisy neighbou?rs?/,
    "A noisy neighbour: another workload on the same node that uses so much of the node's CPU (or disk, or network) that the pods beside it slow down.",
  ],
  [
    /(a )?rollouts?|(a )?rollbacks?/,
    'A rollout: a Deployment replacing its pods with ones of a new version or configuration; a rollback is a rollout back to the previous one.',
  ],
  [/canar(y|ies)/, 'A canary: a new version rolled out to a few pods first, so that a fault shows on a small share of the traffic.'],
  [/headroom/, 'Headroom: how much more a resource can take before it reaches its limit.'],
  [
    /(queue )?(depth|backlog)|consumer lag/,
    'A backlog (queue depth): the messages waiting in a queue for a consumer; it grows when consumers are slower than producers or gone.',
  ],
  [/restarts?|restart count/, 'A restart: the kubelet starting a container again after it exited or was killed; the count grows with each one.'],
];

/**
 * The terms that name a state or a mechanism, not a measure: "what is OOMKilled?" or "what's the CrashLoopBackOff?" asks what it
 * means, where "what is the throttling?" asks a value of the incident.
 */
const STATES =
  /^(?:oom(?:[ -]?kill(?:ed|s)?)?|out of memory(?: kills?| killed)?|crash ?loop ?back ?off|crash-?loop(?:s|ing)?|(?:failing |failed )?(?:liveness|readiness)(?: probes?)?(?: failures?)?|idle[ -]in[ -](?:transaction|txn)|(?:tls |ssl )?handshake(?: failures?| errors?)?|(?:node )?not ?ready|evict(?:ion|ions|ed)|back ?-?off|noisy neighbou?rs?|canar(?:y|ies)|cfs)$/;

/** The terms that name a measure: "what is p99?", "what's throughput?" ask its value (only "what is a p99?" or "what does p99 mean?" asks a meaning). */
const MEASURES =
  /^(?:(?:cpu |memory )?(?:limits?|requests?)|p\d{2}|\d{2}(?:th)? percentile|percentiles?|median|tail latency|error (?:ratio|rate|percentage)|failure (?:ratio|rate)|(?:req|reqs|requests)\/s|rps|qps|requests per second|throughput|(?:the )?working set(?: memory)?|restarts?|restart count|(?:queue )?(?:depth|backlog)|consumer lag|replicas?|pods?|(?:worker )?nodes?|headroom|saturat(?:ion|ed)|5xx|server errors?)$/;

/** A message that says it asks as a beginner ("newbie q:"): what it asks is a meaning, whatever the term. */
const BEGINNER = /^\W*(?:newbie|noob|dumb|stupid|basic|beginner) (?:q|question)\b/i;

const OPENING = String.raw`^(?:(?:newbie|noob|dumb|quick|stupid|basic|beginner) (?:q|question)\b:?\s*|sorry,? |ok,? |okay,? |so,? |and,? |also,? )*`;

/** "what is X", "what's an X", "explain X" (group 1 the article, 2 the term); "what does X mean" and "X means …, right?" (2 the term). */
const ASKS_MEANING: RegExp[] = [
  new RegExp(
    `${OPENING}(?:what(?:'s|’s| is| are| r)|whats|wats|explain|define)\\s+(?:(an?|the) )?["'\`‘“]?([^?"'\`’”]{2,40}?)["'\`’”]?\\s*(?:exactly|actually|again|here)?\\s*[?.!]*$`,
    'i',
  ),
  new RegExp(
    `${OPENING}what (?:does|do|did) ()(?:an? |the )?["'\`‘“]?([^?"'\`’”]{2,40}?)["'\`’”]? (?:mean|stand for)\\b(?: here| exactly| actually| again)?\\s*[?.!]*$`,
    'i',
  ),
  /^(?:so,? |ok,? |and,? )?()["'`‘“]?([^?"'`’”]{2,40}?)["'`’”]? means?\b[^?]*\b(?:right|correct|yes)\s*[?.!]*$/i,
];

/** The term a piece of a message asks the meaning of, and that meaning; null when it asks no meaning. */
function meaningAsked(piece: string): { term: string; meaning: string } | null {
  for (const [form, ask] of ASKS_MEANING.entries()) {
    const m = ask.exec(piece.trim());
    if (!m) continue;
    const term = m[2].toLowerCase().trim();
    // "what is the p99?", "what's the limit?", "what is throughput?" ask a value; "what is a limit?", "what is OOMKilled?", "what is CPU
    // throttling?" a meaning.
    const article = (m[1] ?? '').toLowerCase();
    const meaning = BEGINNER.test(piece) || /^an?$/.test(article) || STATES.test(term) || (!article && !MEASURES.test(term));
    if (form === 0 && !meaning) continue;
    const known = TERMS.find(([re]) => new RegExp(`^(?:${re.source})$`).test(term));
    if (known) return { term, meaning: known[1] };
  }
  return null;
}

/** Where a message breaks into pieces that may each ask a meaning: after a question mark, before ", and …" or "and how/what/when …". */
const PIECES =
  /(?<=\?)\s*|\s*[,;]\s*(?=(?:and|also|then|plus)?\s*(?:how|what|whats|what's|when|which|where|since|is|are|did|does|do|can|could)\b)|\s+and\s+(?=(?:how|what|whats|what's|when|which|where|since)\b)/i;

/**
 * The meanings a message asks about, and the rest of the message without those pieces ("" when it
 * asks nothing else).
 */
export function meaningsAsked(message: string): { meanings: string[]; rest: string } {
  const pieces = message.split(PIECES).filter((p) => p.trim());
  const meanings: string[] = [];
  const terms: string[] = [];
  const rest: string[] = [];
  for (const piece of pieces) {
    const asked = meaningAsked(piece);
    if (asked && !meanings.includes(asked.meaning)) {
      meanings.push(asked.meaning);
      terms.push(asked.term);
    } else if (!asked) rest.push(piece.trim());
  }
  if (!meanings.length) return { meanings, rest: message };
  // ("…, and how many times …": the question left no longer follows one before it.)
  const left = rest
    .join(' ')
    .replace(/^\W*(?:and|also|then|plus|so)\b[\s,]*/i, '')
    .trim();
  if (!/[a-z]/i.test(left)) return { meanings, rest: '' };
  // "what's a connection pool? when did it run dry": "it" is what was defined.
  // (The word the pronoun stands for is put in its place: "when did the connection pool run dry".)
  const term = terms.join(' and ');
  if (!REFERS_BACK.test(left)) return { meanings, rest: left };
  const replaced = left.replace(/\b(it|they|them|this|that|those|these)\b/i, `the ${term}`);
  return { meanings, rest: replaced === left ? `${term} ${left}` : replaced };
}

/** A question that refers to what the message named before it ("when did it run dry?", "since when?", "when did those pile up?"). */
const REFERS_BACK = /\b(it|they|them|those|these|that|this)\b|^\W*since when\W*$|^\W*(and )?when\W*$/i;

/** The answer to a message that only asks what words mean: their meanings, which state nothing of the incident's data. */
export function meaningsOnly(session: InvestigationSession, meanings: string[]): Conclusion {
  return {
    conclusionStatus: 'answer_only',
    summary: meanings.join('\n').slice(0, 4096),
    impact: { summary: session.incident ? `Asked about incident "${session.incident.title}"` : 'Not assessed', runRefs: [] },
    findings: [],
    hypotheses: [],
    actions: [],
    limitations: [],
  };
}
