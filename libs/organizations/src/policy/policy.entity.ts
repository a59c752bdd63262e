import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { Role, TimestampColumn, Timestamp } from '@svc/platform';
import { Organization } from '../organization.entity';

/** An Organization's settings. No row means every default applies. */
@Entity('policies')
export class Policy {
  @PrimaryColumn({ type: 'text' })
  organizationId!: string;

  @Column({ type: 'integer' })
  sessionIdleSeconds!: number;

  @Column({ type: 'integer' })
  sessionAbsoluteSeconds!: number;

  @Column({ type: 'boolean' })
  apiTokensAllowed!: boolean;

  @Column({ type: 'text', nullable: true })
  oidcAutoProvisionRole!: Role | null;

  @Column({ type: 'integer' })
  investigationToolRuns!: number;

  @Column({ type: 'integer' })
  investigationReasonerTurns!: number;

  @Column({ type: 'integer' })
  investigationWallClockSeconds!: number;

  @Column({ type: 'integer' })
  investigationStagnationTurns!: number;

  @Column({ type: 'integer' })
  investigationContextTokens!: number;

  @Column({ type: 'integer', default: 90 })
  changeRetentionDays!: number;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;

  @Column({ type: 'uuid', nullable: true })
  updatedBy!: string | null;

  @OneToOne(() => Organization, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'policies_organization_fk' })
  organization?: Organization;
}
