// The worker's engine (reasoners, model SDKs) is its own entry, `@svc/investigations/engine`, so the API does not load it.
export * from './activity.service';
export * from './conclusion.types';
export { TERMINAL_STATUSES } from './investigation.entity';
export type { InvestigationStatus } from './investigation.entity';
export * from './investigations.module';
export * from './investigations.service';
export * from './reasoning/reasoner';
export * from './tools';
export * from './investigations.repository';
export * from './tool-runs.repository';
export * from './turn.types';
export type { CitedChange, InvestigationRecord } from './investigation-record';
