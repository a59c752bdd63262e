import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn, Timestamp } from '@svc/platform';

/** A tenant. Its id is a short slug chosen at creation (`acme`, `acme-eu`). */
@Entity('organizations')
export class Organization {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'text' })
  displayName!: string;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  createdAt!: Timestamp;

  @TimestampColumn({ default: () => 'clock_timestamp()' })
  updatedAt!: Timestamp;
}
