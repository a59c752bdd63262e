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

/** What the Kubernetes API showed of an incident's pods and workloads when it opened. */
export class KubernetesSnapshotView {
  @ApiProperty({ format: 'uuid' }) incidentId!: string;
  @ApiProperty({ enum: ['taking', 'taken'], description: 'taking: a worker is reading the cluster' }) status!: 'taking' | 'taken';
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) takenAt!: string | null;
  @ApiProperty({ type: [SnapshotRunView] }) runs!: SnapshotRunView[];
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
  };
}
