import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import type { DocumentField, PostmortemDocument, PostmortemStatus, RevisionKind } from './postmortem.types';

/**
 * The postmortem of an incident (at most one): the current revision of its document, the fields
 * a person set (kept when the rest is regenerated), and its review. Every revision's document is
 * also kept in postmortem_revisions.
 */
@Entity('postmortems')
@Index('postmortems_incident', ['organizationId', 'incidentId'], { unique: true })
export class Postmortem extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  incidentId!: string;

  @Column({ type: 'text' })
  status!: PostmortemStatus;

  @Column({ type: 'integer' })
  revision!: number;

  @Column({ type: 'jsonb' })
  document!: PostmortemDocument;

  /** The names of the fields a person set, in document order. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  correctedFields!: DocumentField[];

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;

  @TimestampColumn({ nullable: true })
  reviewedAt!: Timestamp | null;

  @Column({ type: 'uuid', nullable: true })
  reviewedByUserId!: string | null;

  // Incidents belong to the incidents library; the foreign key names the entity to keep the libraries apart.
  @ManyToOne('Incident', { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'incident_id', referencedColumnName: 'id' },
  ])
  incident?: object;

  // Users are deployment-wide: a key on the id alone. The review stays if the user is ever deleted.
  @ManyToOne('User', { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'reviewed_by_user_id', foreignKeyConstraintName: 'postmortems_reviewer_fk' })
  reviewer?: object;
}

/** One revision of a postmortem's document, as it was: why it was made and by whom. */
@Entity('postmortem_revisions')
@Index('postmortem_revisions_revision', ['organizationId', 'postmortemId', 'revision'], { unique: true })
export class PostmortemRevision extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  postmortemId!: string;

  @Column({ type: 'integer' })
  revision!: number;

  @Column({ type: 'text' })
  kind!: RevisionKind;

  @Column({ type: 'jsonb' })
  document!: PostmortemDocument;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  correctedFields!: DocumentField[];

  /** Who made it: a user id, `token:<id>`, or `system` for the narrative job. */
  @Column({ type: 'text' })
  createdBy!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @ManyToOne(() => Postmortem, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'postmortem_id', referencedColumnName: 'id' },
  ])
  postmortem?: Postmortem;
}
