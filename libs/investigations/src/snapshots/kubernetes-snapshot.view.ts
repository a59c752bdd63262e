import { ApiProperty } from '@nestjs/swagger';
import type { SnapshotRecord } from './kubernetes-snapshots.repository';

/** One read of the snapshot: the tool, what it read and what it found (its output stays stored, for the investigations that cite it). */
export class SnapshotRunView {
  @ApiProperty({ type: 'integer', description: 'Its place in the snapshot, from 1' }) sequence!: number;
  @ApiProperty({ enum: ['kubernetes.pod_status', 'kubernetes.events'] }) tool!: string;
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) arguments!: Record<string, unknown>;
  @ApiProperty() purpose!: string;
  @ApiProperty({ enum: ['succeeded', 'failed'] }) outcome!: string;
  @ApiProperty({ type: String, nullable: true }) summary!: string | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty() truncated!: boolean;
  @ApiProperty({ type: [String] }) sources!: string[];
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty({ format: 'date-time' }) finishedAt!: string;
}

/** An event the snapshot read (for the incident's timeline). */
export class SnapshotEventView {
  @ApiProperty({ type: String, nullable: true, description: 'Normal or Warning' }) type!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'e.g. BackOff, OOMKilling, Unhealthy, FailedScheduling, ScalingReplicaSet' }) reason!:
    string | null;
  @ApiProperty({ type: String, nullable: true }) message!: string | null;
  @ApiProperty({ description: 'The object it is about, e.g. Pod/checkout-5b6c4d-x7k2p' }) object!: string;
  @ApiProperty({ type: 'integer', description: 'How many times it occurred' }) count!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) firstTime!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastTime!: string | null;
  @ApiProperty({ format: 'uuid', description: 'The Kubernetes integration that read it' }) integrationId!: string;
}

/** What the Kubernetes API showed of an incident's pods and workloads when it opened. */
export class KubernetesSnapshotView {
  @ApiProperty({ format: 'uuid' }) incidentId!: string;
  @ApiProperty({ enum: ['taking', 'taken'], description: 'taking: a worker is reading the cluster' }) status!: 'taking' | 'taken';
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) takenAt!: string | null;
  @ApiProperty({ type: [SnapshotRunView] }) runs!: SnapshotRunView[];
  @ApiProperty({ type: [SnapshotEventView], description: 'The events its reads found, each once, the earliest first' }) events!: SnapshotEventView[];
}

interface StoredEvent {
  type?: unknown;
  reason?: unknown;
  message?: unknown;
  object?: unknown;
  count?: unknown;
  firstTime?: unknown;
  lastTime?: unknown;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** The events of the snapshot's event reads, each once (by object, reason and first time), the earliest first. */
function eventsOf(s: SnapshotRecord): SnapshotEventView[] {
  const events = new Map<string, SnapshotEventView>();
  for (const r of s.runs) {
    if (r.tool !== 'kubernetes.events' || r.outcome !== 'succeeded') continue;
    for (const e of ((r.output as { events?: StoredEvent[] } | null)?.events ?? []) as StoredEvent[]) {
      const object = text(e.object);
      if (!object) continue;
      const view: SnapshotEventView = {
        type: text(e.type),
        reason: text(e.reason),
        message: text(e.message),
        object,
        count: typeof e.count === 'number' ? e.count : 1,
        firstTime: text(e.firstTime),
        lastTime: text(e.lastTime),
        integrationId: r.integrationId,
      };
      events.set(`${object}\u0000${view.reason}\u0000${view.firstTime ?? view.lastTime}`, view);
    }
  }
  const at = (e: SnapshotEventView) => Date.parse(e.firstTime ?? e.lastTime ?? '') || 0;
  return [...events.values()].sort((a, b) => at(a) - at(b));
}

export function kubernetesSnapshotView(s: SnapshotRecord): KubernetesSnapshotView {
  return {
    incidentId: s.incidentId,
    status: s.takenAt ? 'taken' : 'taking',
    takenAt: s.takenAt?.toISOString() ?? null,
    runs: s.runs.map((r, i) => ({
      sequence: i + 1,
      tool: r.tool,
      integrationId: r.integrationId,
      arguments: r.arguments,
      purpose: r.purpose,
      outcome: r.outcome,
      summary: r.summary,
      error: r.error,
      truncated: r.truncated,
      sources: r.sources,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
    })),
    events: eventsOf(s),
  };
}
