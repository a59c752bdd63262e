import { ApiProperty } from '@nestjs/swagger';

export const RELAY_STATES = ['connected', 'offline', 'conflict'] as const;
export type RelayState = (typeof RELAY_STATES)[number];

export class RelayCapabilityView {
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty({ example: 'prometheus.query' }) capabilityId!: string;
  @ApiProperty({ example: 1 }) capabilityVersion!: number;
}

export class RelayView {
  @ApiProperty({ format: 'uuid', description: 'The registration id' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({
    enum: RELAY_STATES,
    description: 'conflict while a session conflict is open; else connected while a session is heard from; else offline',
  })
  state!: RelayState;
  @ApiProperty({ type: String, nullable: true, description: "The relay's software version, as it last said" }) version!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSeenAt!: string | null;
  @ApiProperty({ type: [RelayCapabilityView], description: 'What the relay advertised in its current or last session' })
  capabilities!: RelayCapabilityView[];
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
}

export class RelayPage {
  @ApiProperty({ type: [RelayView] }) items!: RelayView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class RelaySummaryView {
  @ApiProperty() total!: number;
  @ApiProperty() connected!: number;
  @ApiProperty() offline!: number;
  @ApiProperty() conflict!: number;
}

export class CreatedBootstrapTokenView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The token itself: shown this once, never again; one registration' }) token!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expiresAt!: string;
}

export class RelayIntegrationCapabilityView {
  @ApiProperty({ example: 'prometheus.query' }) capabilityId!: string;
  @ApiProperty({ example: 1 }) capabilityVersion!: number;
}

export class RelayIntegrationView {
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty({ type: [RelayIntegrationCapabilityView] }) capabilities!: RelayIntegrationCapabilityView[];
}

export class RelayIntegrationPage {
  @ApiProperty({ type: [RelayIntegrationView] }) items!: RelayIntegrationView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class SessionConflictView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'The first refused connection' }) occurredAt!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'The latest refused connection' }) lastAttemptAt!: string;
  @ApiProperty({ description: 'Refused connections counted on this conflict' }) attempts!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Where the latest refused connection came from' }) address!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) clearedAt!: string | null;
}

export class SessionConflictPage {
  @ApiProperty({ type: [SessionConflictView] }) items!: SessionConflictView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class RelayFailureView {
  @ApiProperty({ format: 'uuid' }) jobId!: string;
  @ApiProperty() capabilityId!: string;
  @ApiProperty() capabilityVersion!: number;
  @ApiProperty({ format: 'uuid' }) integrationId!: string;
  @ApiProperty({ enum: ['failed', 'timed_out'] }) outcome!: 'failed' | 'timed_out';
  @ApiProperty({ type: String, format: 'date-time' }) at!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why it failed (never an upstream body)' }) error!: string | null;
}

export class RelayFailurePage {
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
  @ApiProperty() total!: number;
  @ApiProperty({ type: [RelayFailureView] }) items!: RelayFailureView[];
}
