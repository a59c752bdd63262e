import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TimestampColumn, Timestamp } from '@svc/platform';
import { Incident } from './incident.entity';

/**
 * The latest lifecycle phase of each alert of an incident. Admission updates one row per alert,
 * so deciding whether the incident still fires never rereads its whole history.
 */
@Entity('incident_alerts')
export class IncidentAlert {
  @PrimaryColumn({ type: 'text' })
  organizationId!: string;

  @PrimaryColumn({ type: 'uuid' })
  incidentId!: string;

  @PrimaryColumn({ type: 'text' })
  fingerprint!: string;

  @Column({ type: 'text' })
  status!: 'firing' | 'resolved';

  @TimestampColumn()
  phaseAt!: Timestamp;

  @ManyToOne(() => Incident, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'organization_id', referencedColumnName: 'organizationId' },
    { name: 'incident_id', referencedColumnName: 'id' },
  ])
  incident?: Incident;
}
