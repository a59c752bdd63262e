export * from './admission.types';
export * from './incident-admission.service';
export * from './incidents.module';
export * from './incidents.service';
export type { IncidentStatus } from './incident.entity';
export * from './incident-admission.repository';
export * from './incidents.repository';
export type { AlertPhaseRecord, IncidentAlertScope, IncidentHistory, IncidentRecord } from './incident-history';
export { SERVICE_LABELS } from './incident-triage';
