export * from './admission.types';
export * from './incident-admission.service';
export * from './incidents.module';
export * from './incidents.service';
export type { IncidentStatus } from './incident.entity';
