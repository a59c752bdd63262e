import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Timestamp } from '../time/timestamp';

/** Deployment-wide values the service generates once and keeps (never Organization data). */
@Entity('platform_settings')
export class PlatformSetting {
  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  value!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Timestamp;
}
