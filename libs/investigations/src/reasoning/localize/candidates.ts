import type { Entity } from '../discovery/entity';
import { isExporterTarget, namingLabelOf, Placements } from '../discovery/entity-model';
import { MarkedQuery, quote } from '../explainers/labels';
import type { CallPair } from '../graph/call-graph';
import { dependenciesOf, dependentsOf } from '../graph/lost-time';
import type { SeriesOut } from '../series-reading';
import type { Relation } from './suspects';

/** The most candidates whose series one localisation reads (the alerting entity first, then by relation). */
export const MAX_CANDIDATES = 20;

/** The candidates of a localisation: the alerting entity, what it calls, what shares its nodes, the nodes, or the entities of its metric family. */
export interface Candidates {
  /** Every candidate, the most closely related first, at most MAX_CANDIDATES. */
  names: string[];
  relations: Map<string, Relation>;
  /** What the alerting entity calls, directly or not, and what calls it. */
  dependencies: string[];
  dependents: string[];
  /** The nodes the alerting entity's pods run on. */
  nodes: string[];
  placements: Placements;
}

/** Labels that name the entities of a namespace, read when the alerting entity's dependencies are unknown. */
const NAMESPACE_NAMING = ['service', 'app', 'app_kubernetes_io_name', 'service_name', 'job'];

/**
 * The entities that share the alert's metric family, scrape job or namespace, by the label that
 * names the alert's entity (and, in a namespace, by every label that names services): where no
 * call graph tells what the entity depends on, every other entity its exporter or its namespace
 * lists (a cloud exporter's services, a Redis in the namespace) is a candidate.
 */
export function siblingsQueries(labels: Record<string, string>, metrics: string[], namespace?: string): MarkedQuery[] {
  const label = namingLabelOf(labels);
  const queries: MarkedQuery[] = [];
  if (label) {
    const families = metrics.length ? `{__name__=~${quote(metrics.join('|'))}, ${label}!=""}` : '';
    const job = labels.job ? `{job=${quote(labels.job)}, ${label}!=""}` : '';
    const selectors = [families, job].filter(Boolean);
    if (selectors.length) queries.push(new MarkedQuery('siblings', label, selectors.map((s) => `count by (${label}) (${s})`).join(' or ')));
  }
  if (namespace)
    for (const l of NAMESPACE_NAMING.filter((l) => l !== label))
      queries.push(new MarkedQuery('siblings', l, `count by (${l}) ({namespace=${quote(namespace)}, ${l}!=""})`));
  return queries;
}

/** The values of the siblings' labels in a read of siblingsQueries. */
export function siblingsIn(series: SeriesOut[], queries: MarkedQuery[]): string[] {
  const values = series.flatMap((s) => queries.filter((q) => q.holds(s.metric)).map((q) => s.metric[q.mark]));
  return [...new Set(values)].filter((v) => !!v && !isExporterTarget(v)).sort();
}

/**
 * The candidates, in order: the alerting entities; what they call directly; the workloads on
 * their nodes; the nodes; what they call further down; and, when nothing tells what they call, the
 * entities their metric family, job or namespace lists. What calls them is never a candidate: it waits on them.
 */
export function candidatesOf(entity: Entity, pairs: ReadonlyArray<CallPair>, nodes: string[], placements: Placements, siblings: string[]): Candidates {
  const relations = new Map<string, Relation>();
  // A name takes its closest relation: a callee that also shares a node is a callee.
  const closeness: Relation[] = ['alerting', 'callee', 'neighbour', 'node', 'sibling'];
  const add = (name: string, relation: Relation): void => {
    const held = relations.get(name);
    if (!name) return;
    if (!held) relations.set(name, relation);
    else if (closeness.indexOf(relation) < closeness.indexOf(held)) relations.set(name, relation);
  };
  for (const n of entity.names) add(n, 'alerting');
  const dependencies = dependenciesOf(pairs, entity.names);
  const dependents = dependentsOf(pairs, entity.names).filter((d) => !dependencies.includes(d));
  // Direct callees first, then those further down.
  const direct = new Set(pairs.filter((p) => entity.names.includes(p.caller)).map((p) => p.callee));
  for (const d of dependencies.filter((d) => direct.has(d))) add(d, 'callee');
  const alertingNodes = [...new Set([...nodes, ...entity.names.flatMap((n) => placements.nodesOf(n))])].sort();
  for (const w of alertingNodes.flatMap((n) => placements.onNode(n)).filter((w) => !dependents.includes(w))) add(w, 'neighbour');
  for (const n of alertingNodes) add(n, 'node');
  for (const d of dependencies.filter((d) => !direct.has(d))) add(d, 'callee');
  // What the alerting entity depends on is unknown: everything its exporter or namespace lists.
  if (!dependencies.length) for (const s of siblings) if (!dependents.includes(s)) add(s, 'sibling');
  const names = [...relations.keys()].slice(0, MAX_CANDIDATES);
  for (const name of [...relations.keys()]) if (!names.includes(name)) relations.delete(name);
  return { names, relations, dependencies, dependents, nodes: alertingNodes, placements };
}
