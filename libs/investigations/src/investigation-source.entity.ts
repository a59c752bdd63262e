import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { OrganizationOwnedEntity, TimestampColumn, Timestamp } from '@svc/platform';
import { Investigation } from './investigation.entity';

/** An integration selected to speak to the investigation's incident, with its rank and why. */
@Entity('investigation_sources')
@Index('investigation_sources_rank', ['organizationId', 'investigationId', 'integrationId'], { unique: true })
export class InvestigationSource extends OrganizationOwnedEntity {
  @Column({ type: 'uuid' })
  investigationId!: string;

  @Column({ type: 'uuid' })
  integrationId!: string;

  @Column({ type: 'integer' })
  rank!: number;

  @Column({ type: 'text' })
  reason!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  selectedAt!: Timestamp;

  @ManyToOne(() => Investigation, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'investigation_id', referencedColumnName: 'id' },
  ])
  investigation?: Investigation;
}
