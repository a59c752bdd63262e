import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import type { ActionItem, ConclusionStatus, EvidencePlot, FindingItem, HypothesisItem, Impact, LimitationItem, StoppedBy } from './conclusion.types';
import type { ConversationContext, EndJob } from './turn.types';

export type InvestigationStatus = 'queued' | 'investigating' | 'needs_input' | 'partial' | 'concluded' | 'cancelled' | 'failed';

export const TERMINAL_STATUSES: readonly InvestigationStatus[] = ['needs_input', 'partial', 'concluded', 'cancelled', 'failed'];

/**
 * An investigation of an incident, or a conversation turn (with or without an incident): queued
 * by a person, worked by the worker as numbered tool runs, ended with a conclusion (or an error,
 * or a cancellation). `lastSequence` numbers its activity.
 */
@Entity('investigations')
@Index('investigations_created', ['organizationId', 'createdAt', 'id'])
@Index('investigations_incident', ['organizationId', 'incidentId', 'createdAt'])
export class Investigation extends OrganizationOwnedEntity {
  /** Null for a conversation turn without an incident. */
  @Column({ type: 'uuid', nullable: true })
  incidentId!: string | null;

  @Column({ type: 'text' })
  status!: InvestigationStatus;

  @Column({ type: 'text' })
  subject!: string;

  @TimestampColumn()
  windowFrom!: Timestamp;

  @TimestampColumn()
  windowUntil!: Timestamp;

  /** Who opened it: a user id, or `token:<id>` for an API token. */
  @Column({ type: 'text' })
  openedBy!: string;

  /** The reasoner that works it: `built-in`, or the language model provider and model. */
  @Column({ type: 'text', nullable: true })
  reasoner!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  impact!: Impact | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  findings!: FindingItem[];

  /** The latest running snapshot while investigating; the final hypotheses once concluded. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  hypotheses!: HypothesisItem[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  actions!: ActionItem[];

  @Column({ type: 'jsonb', default: () => `'[]'` })
  limitations!: LimitationItem[];

  @Column({ type: 'text', nullable: true })
  conclusionStatus!: ConclusionStatus | null;

  @Column({ type: 'text', nullable: true })
  summary!: string | null;

  @Column({ type: 'text', nullable: true })
  stoppedBy!: StoppedBy | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'integer', default: 0 })
  inputTokens!: number;

  @Column({ type: 'integer', default: 0 })
  outputTokens!: number;

  @Column({ type: 'integer', default: 0 })
  lastSequence!: number;

  /** What the evidence plot shows first (set with the conclusion). */
  @Column({ type: 'jsonb', nullable: true })
  plot!: EvidencePlot | null;

  /** For a conversation turn: the conversation as its reasoner sees it, fixed when the turn starts. */
  @Column({ type: 'jsonb', nullable: true })
  conversation!: ConversationContext | null;

  /** A job written to the outbox in the same transaction as the investigation's end (its opener's hook). */
  @Column({ type: 'jsonb', nullable: true })
  endJob!: EndJob | null;

  /** The current worker attempt's claim: only the attempt holding it writes (a restarted job takes it over). */
  @Column({ type: 'uuid', nullable: true })
  claim!: string | null;

  /** How many times a worker took it up (more than one after a worker died mid-way). */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  startedAt!: Timestamp | null;

  @TimestampColumn({ nullable: true })
  concludedAt!: Timestamp | null;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;

  // Incidents belong to the incidents library; the foreign key names the entity to keep the libraries apart.
  @ManyToOne('Incident', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'incident_id', referencedColumnName: 'id' },
  ])
  incident?: object;

  // The key to the incident holds the Organization only while incidentId is set.
  @ManyToOne('Organization', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'investigations_organization_fk' })
  organization?: object;
}
