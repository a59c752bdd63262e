import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ActivityEnvelope } from '../activity.service';
import type { ActionItem, EvidenceRef, FindingItem, HypothesisItem, Impact, LimitationItem } from '../conclusion.types';
import type { ActivityType } from '../investigation-activity.entity';
import type { InvestigationSource } from '../investigation-source.entity';
import type { Investigation, InvestigationStatus } from '../investigation.entity';
import type { ToolRun } from '../tool-run.entity';

const STATUSES: InvestigationStatus[] = ['queued', 'investigating', 'needs_input', 'partial', 'concluded', 'cancelled', 'failed'];

export class EvidenceRefView implements EvidenceRef {
  @ApiProperty({ format: 'uuid' }) investigationId!: string;
  @ApiProperty({ type: 'integer' }) toolRunOrdinal!: number;
}

export class ImpactView implements Impact {
  @ApiProperty() summary!: string;
  @ApiProperty({ type: 'integer', isArray: true, description: 'Ordinals of the tool runs it rests on' }) runRefs!: number[];
}

export class FindingView implements FindingItem {
  @ApiProperty() statement!: string;
  @ApiProperty({ enum: ['cause', 'symptom', 'context', 'ruled_out'] }) kind!: FindingItem['kind'];
  @ApiProperty() mechanism!: string;
  @ApiProperty({ type: 'integer', isArray: true }) runRefs!: number[];
  @ApiProperty({ type: [EvidenceRefView] }) evidenceRefs!: EvidenceRefView[];
  @ApiPropertyOptional({ description: 'The hypothesis the finding confirms, when it does' }) hypothesisId?: string;
}

export class HypothesisView implements HypothesisItem {
  @ApiProperty() id!: string;
  @ApiProperty() statement!: string;
  @ApiProperty({ enum: ['untested', 'supported', 'refuted', 'inconclusive'] }) status!: HypothesisItem['status'];
  @ApiProperty({ description: 'How it is tested' }) test!: string;
  @ApiProperty({ type: 'integer', isArray: true }) runRefs!: number[];
}

export class ActionView implements ActionItem {
  @ApiProperty() title!: string;
  @ApiProperty() rationale!: string;
  @ApiProperty() verification!: string;
  @ApiProperty({ type: 'integer', isArray: true }) runRefs!: number[];
}

export class LimitationView implements LimitationItem {
  @ApiProperty({ enum: ['missing_telemetry', 'tool_failure', 'budget', 'scope'] }) type!: LimitationItem['type'];
  @ApiProperty() statement!: string;
  @ApiProperty({ type: 'integer', isArray: true }) runRefs!: number[];
  @ApiProperty({ type: 'integer', isArray: true }) messageSequences!: number[];
}

export class UsageView {
  @ApiProperty({ type: 'integer' }) inputTokens!: number;
  @ApiProperty({ type: 'integer' }) outputTokens!: number;
}

/** One numbered tool run of an investigation. */
export class ToolRunView {
  @ApiProperty({ type: 'integer' }) ordinal!: number;
  @ApiProperty() tool!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) windowFrom!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) windowUntil!: string | null;
  @ApiProperty() outcome!: string;
  @ApiProperty({ type: String, format: 'date-time' }) startedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) integrationId!: string | null;
  @ApiProperty() purpose!: string;
  @ApiProperty({ type: String, nullable: true }) hypothesisId!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) arguments!: Record<string, unknown>;
  @ApiProperty() truncated!: boolean;
  @ApiProperty({ type: String, nullable: true }) summary!: string | null;
  @ApiProperty({ type: [String] }) sources!: string[];
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
}

class PlotSymptomView {
  @ApiProperty({ type: 'integer', description: "The run that read the alert's expression without its comparison, else its condition" }) runOrdinal!: number;
  @ApiProperty({ type: String, nullable: true, enum: ['>', '>=', '<', '<=', '==', '!='] }) comparison!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The number the symptom is compared with' }) threshold!: number | null;
}

class PlotCauseView {
  @ApiProperty({ type: 'integer', description: "The run that shows the cause's own series" }) runOrdinal!: number;
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
}

class PlotChangeView {
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty() summary!: string;
  @ApiProperty({ type: 'integer' }) runOrdinal!: number;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'The recorded change it is (GET /changes/{change}): a reported change, or a rollout recorded from the metrics; null for one only the metrics show',
  })
  changeId!: string | null;
}

/** What the evidence plot shows first. */
export class EvidencePlotView {
  @ApiProperty({ type: PlotSymptomView, nullable: true }) symptom!: PlotSymptomView | null;
  @ApiProperty({ type: PlotCauseView, nullable: true }) cause!: PlotCauseView | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the condition began, as the conclusion states it' }) onsetAt!:
    string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the first investigated alert began' }) alertStartsAt!: string | null;
  @ApiProperty({ type: [PlotChangeView], description: 'Changes near the onset examined as causes' }) changes!: PlotChangeView[];
}

export class InvestigationView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: STATUSES }) status!: InvestigationStatus;
  @ApiProperty() subject!: string;
  @ApiProperty({ type: String, format: 'date-time' }) windowFrom!: string;
  @ApiProperty({ type: String, format: 'date-time' }) windowUntil!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null for a conversation turn without an incident' }) incidentId!: string | null;
  @ApiProperty({ type: ImpactView, nullable: true }) impact!: ImpactView | null;
  @ApiProperty({ type: [FindingView] }) findings!: FindingView[];
  @ApiProperty({ type: [HypothesisView] }) hypotheses!: HypothesisView[];
  @ApiProperty({ type: [ActionView] }) actions!: ActionView[];
  @ApiProperty({ type: [LimitationView] }) limitations!: LimitationView[];
  @ApiProperty({ type: UsageView }) usage!: UsageView;
  @ApiProperty({ type: String, nullable: true, enum: ['verified_cause', 'supported_explanation', 'inconclusive', 'answer_only'] }) conclusionStatus!:
    string | null;
  @ApiProperty({ type: String, nullable: true }) summary!: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['tool_runs', 'reasoner_turns', 'wall_clock', 'context'] }) stoppedBy!: string | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: String, nullable: true }) reasoner!: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) concludedAt!: string | null;
  @ApiProperty({ description: 'There are actions, and a person must confirm them' }) humanConfirmationRequired!: boolean;
  @ApiProperty({
    type: EvidencePlotView,
    nullable: true,
    description: 'What the evidence plot shows first; null until concluded, or when nothing dates the conclusion',
  })
  plot!: EvidencePlotView | null;
  @ApiPropertyOptional({ type: [ToolRunView], description: 'Present on the single read' }) runs?: ToolRunView[];
}

export class InvestigationPage {
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ type: [InvestigationView] }) items!: InvestigationView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class InvestigationSourceView {
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty({ type: 'integer' }) rank!: number;
  @ApiProperty() reason!: string;
  @ApiProperty({ type: String, format: 'date-time' }) selectedAt!: string;
}

export class InvestigationSourcesView {
  @ApiProperty({ format: 'uuid' }) investigationId!: string;
  @ApiProperty({ type: [InvestigationSourceView] }) sources!: InvestigationSourceView[];
  @ApiProperty({ type: [ToolRunView] }) runs!: ToolRunView[];
}

/** One entry of the activity (the same envelope the event stream sends). */
export class ActivityEnvelopeView implements ActivityEnvelope {
  @ApiProperty({ type: 'integer' }) sequence!: number;
  @ApiProperty({ enum: ['started', 'progress', 'tool.started', 'tool.completed', 'hypothesis.updated', 'concluded', 'failed', 'cancelled'] })
  type!: ActivityType;
  @ApiProperty({ format: 'uuid' }) investigationId!: string;
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
}

export class ActivityPage {
  @ApiProperty({ type: [ActivityEnvelopeView] }) items!: ActivityEnvelopeView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class HypothesesView {
  @ApiProperty({ format: 'uuid' }) investigationId!: string;
  @ApiProperty({ enum: STATUSES }) status!: string;
  @ApiProperty({ description: 'The investigation has ended: these are its final hypotheses' }) final!: boolean;
  @ApiProperty({ type: [HypothesisView] }) items!: HypothesisView[];
}

export function toolRunView(r: ToolRun): ToolRunView {
  return {
    ordinal: r.ordinal,
    tool: r.tool,
    windowFrom: r.windowFrom?.toISOString() ?? null,
    windowUntil: r.windowUntil?.toISOString() ?? null,
    outcome: r.outcome,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    integrationId: r.integrationId,
    purpose: r.purpose,
    hypothesisId: r.hypothesisId,
    arguments: r.arguments,
    truncated: r.truncated,
    summary: r.summary,
    sources: r.sources,
    error: r.error,
  };
}

export function investigationView(i: Investigation, runs?: ToolRun[]): InvestigationView {
  return {
    id: i.id,
    status: i.status,
    subject: i.subject,
    windowFrom: i.windowFrom.toISOString(),
    windowUntil: i.windowUntil.toISOString(),
    incidentId: i.incidentId,
    impact: i.impact,
    findings: i.findings.map(({ verification: _stored, ...finding }) => finding),
    hypotheses: i.hypotheses,
    actions: i.actions,
    limitations: i.limitations,
    usage: { inputTokens: i.inputTokens, outputTokens: i.outputTokens },
    conclusionStatus: i.conclusionStatus,
    summary: i.summary,
    stoppedBy: i.stoppedBy,
    error: i.error,
    reasoner: i.reasoner,
    createdAt: i.createdAt.toISOString(),
    startedAt: i.startedAt?.toISOString() ?? null,
    concludedAt: i.concludedAt?.toISOString() ?? null,
    humanConfirmationRequired: i.actions.length > 0,
    // Plots stored before changes named their recorded change have none.
    plot: i.plot ? { ...i.plot, changes: i.plot.changes.map((c) => ({ ...c, changeId: c.changeId ?? null })) } : null,
    ...(runs ? { runs: runs.map(toolRunView) } : {}),
  };
}

export function sourcesView(investigationId: string, sources: InvestigationSource[], runs: ToolRun[]): InvestigationSourcesView {
  return {
    investigationId,
    sources: sources.map((s) => ({ integrationId: s.integrationId, rank: s.rank, reason: s.reason, selectedAt: s.selectedAt.toISOString() })),
    runs: runs.map(toolRunView),
  };
}

export function hypothesesView(i: Investigation): HypothesesView {
  return { investigationId: i.id, status: i.status, final: !['queued', 'investigating'].includes(i.status), items: i.hypotheses };
}

/** One series a run read, as columns: the sample times and their values. */
export class RunSeriesItemView {
  @ApiProperty({ description: 'The series as PromQL names it, e.g. app_build_info{version="1.1.0"}' }) name!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } }) metric!: Record<string, string>;
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'date-time' } }) times!: string[];
  @ApiProperty({
    type: 'array',
    items: { type: 'number', nullable: true },
    description: 'The value at each time; null where Prometheus gave NaN, an infinity or a native histogram',
  })
  values!: Array<number | null>;
}

/** The time series a tool run read (a Prometheus range query's), for plotting; other runs have none. */
export class RunSeriesView {
  @ApiProperty({ format: 'uuid' }) investigationId!: string;
  @ApiProperty({ type: 'integer' }) ordinal!: number;
  @ApiProperty() tool!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The expression the run evaluated' }) query!: string | null;
  @ApiProperty({ description: 'The stored output was cut to its size cap, so some series or samples are missing' }) truncated!: boolean;
  @ApiProperty({ type: [RunSeriesItemView] }) series!: RunSeriesItemView[];
}

const seriesLabel = (metric: Record<string, string>): string => {
  const { __name__: name = '', ...labels } = metric;
  return `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(', ')}}`;
};

/** The range series of a run's stored output (`series[].values`); instant results and other tools give none. */
export function runSeriesView(investigationId: string, run: ToolRun): RunSeriesView {
  const output = (run.output ?? {}) as { series?: Array<{ metric?: Record<string, string>; values?: Array<[string, unknown]> }> };
  const series = (Array.isArray(output.series) ? output.series : [])
    .filter((s) => Array.isArray(s.values))
    .map((s) => {
      const metric = s.metric ?? {};
      const samples = s.values!.filter((v) => Array.isArray(v) && typeof v[0] === 'string');
      return {
        name: seriesLabel(metric),
        metric,
        times: samples.map(([at]) => at),
        values: samples.map(([, value]) => {
          const n = typeof value === 'string' ? Number(value) : NaN;
          return Number.isFinite(n) ? n : null;
        }),
      };
    });
  const query = (run.arguments as { query?: unknown } | null)?.query;
  return { investigationId, ordinal: run.ordinal, tool: run.tool, query: typeof query === 'string' ? query : null, truncated: run.truncated, series };
}

/** One template of a run's log lines (loki.log_patterns), with its counts before and after the onset. */
export class RunTemplateItemView {
  @ApiProperty({ description: 'The lines with what varies masked (`<num>`, `<uuid>`, `<ip>`, …) and what differs between them as `<*>`' }) template!: string;
  @ApiProperty({ enum: ['new', 'more', 'fewer', 'gone', 'steady'], description: 'How it changed at the onset: new (began with it), more, fewer, gone, steady' })
  status!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'With `by`: the stream label whose lines made it, e.g. {"service_name": "checkout"}; else {}',
  })
  labels!: Record<string, string>;
  @ApiProperty({ format: 'date-time' }) firstSeen!: string;
  @ApiProperty({ format: 'date-time' }) lastSeen!: string;
  @ApiProperty({ type: 'integer', description: 'Lines before the onset' }) before!: number;
  @ApiProperty({ type: 'integer', description: 'Lines from the onset' }) after!: number;
  @ApiProperty({ type: Number, nullable: true }) beforePerMinute!: number | null;
  @ApiProperty({ type: Number, nullable: true }) afterPerMinute!: number | null;
  @ApiProperty({
    type: 'array',
    items: { type: 'integer' },
    description: "Lines per minute from `perMinuteAroundOnsetFrom`: the 10 minutes before the onset's minute, it, and the 10 after",
  })
  perMinuteAroundOnset!: number[];
  @ApiProperty({ type: String, nullable: true, description: 'Its first line (bounded)' }) example!: string | null;
}

/** The log templates a run mined (loki.log_patterns), for a table; other runs have none. */
export class RunTemplatesView {
  @ApiProperty({ format: 'uuid' }) investigationId!: string;
  @ApiProperty({ type: 'integer' }) ordinal!: number;
  @ApiProperty() tool!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The stream selector and line filter read' }) query!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) onset!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'The start of the first minute of perMinuteAroundOnset' })
  perMinuteAroundOnsetFrom!: string | null;
  @ApiProperty({ type: 'integer', description: 'Templates beyond those listed (the run lists 30 at most, new ones first)' }) more!: number;
  @ApiProperty({ description: 'The stored output was cut to its size cap, so some templates are missing' }) truncated!: boolean;
  @ApiProperty({ type: [RunTemplateItemView] }) templates!: RunTemplateItemView[];
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const rate = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The templates of a log_patterns run's stored output; other tools' runs give none. */
export function runTemplatesView(investigationId: string, run: ToolRun): RunTemplatesView {
  const output = (run.tool === 'loki.log_patterns' && run.output ? run.output : {}) as Record<string, unknown>;
  const args = (run.arguments ?? {}) as { selector?: unknown; filter?: unknown };
  const listed = (Array.isArray(output.templates) ? output.templates : []) as Array<Record<string, unknown>>;
  const templates = listed
    .filter((t) => typeof t.template === 'string')
    .map((t) => ({
      template: t.template as string,
      status: text(t.status) ?? 'steady',
      labels: t.labels && typeof t.labels === 'object' ? (t.labels as Record<string, string>) : {},
      firstSeen: text(t.firstSeen) ?? '',
      lastSeen: text(t.lastSeen) ?? '',
      before: count(t.before),
      after: count(t.after),
      beforePerMinute: rate(t.beforePerMinute),
      afterPerMinute: rate(t.afterPerMinute),
      perMinuteAroundOnset: Array.isArray(t.perMinuteAroundOnset) ? t.perMinuteAroundOnset.map(count) : [],
      example: text(t.example),
    }));
  const query = run.tool === 'loki.log_patterns' && typeof args.selector === 'string' ? [args.selector, text(args.filter)].filter(Boolean).join(' ') : null;
  return {
    investigationId,
    ordinal: run.ordinal,
    tool: run.tool,
    query,
    onset: text(output.onset),
    perMinuteAroundOnsetFrom: text(output.perMinuteAroundOnsetFrom),
    more: count(output.more),
    truncated: run.truncated,
    templates,
  };
}
