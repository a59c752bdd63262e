import type { Timestamp } from '@svc/platform';
import type { IncidentStatus } from './incident.entity';

/** An incident as other libraries read it (a plain record, not the entity). */
export interface IncidentRecord {
  id: string;
  status: IncidentStatus;
  title: string;
  labels: Record<string, string>;
  openedAt: Timestamp;
  resolvedAt: Timestamp | null;
  mergedInto: string | null;
  alertCount: number;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One lifecycle phase of one alert: it fired at `phaseAt`, or resolved at `phaseAt`. */
export interface AlertPhaseRecord {
  id: string;
  incidentId: string;
  fingerprint: string;
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: Timestamp;
  endsAt: Timestamp | null;
  phaseAt: Timestamp;
  generatorUrl: string | null;
  receivedAt: Timestamp;
}

/** What an incident's alerts name (IncidentsService.alertScope). */
export interface IncidentAlertScope {
  incident: IncidentRecord;
  /** When its earliest alert began firing (its opening when none did). */
  firstAlertAt: Timestamp;
  /** Every value of a service-naming label (service, app, job, deployment, container…) among its alerts. */
  services: string[];
}

/** What happened to an incident, as recorded: its alert phases in time order and the incidents merged into it. */
export interface IncidentHistory {
  incident: IncidentRecord;
  /** The earliest `limit` phases by phaseAt (then by arrival). */
  alertEvents: AlertPhaseRecord[];
  /** How many phases the incident has in all. */
  alertEventTotal: number;
  /** Incidents merged into this one; `updatedAt` is when they were merged. */
  merged: IncidentRecord[];
}

export function incidentRecord(i: IncidentRecord): IncidentRecord {
  return {
    id: i.id,
    status: i.status,
    title: i.title,
    labels: i.labels,
    openedAt: i.openedAt,
    resolvedAt: i.resolvedAt,
    mergedInto: i.mergedInto,
    alertCount: i.alertCount,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

export function alertPhaseRecord(e: AlertPhaseRecord): AlertPhaseRecord {
  return {
    id: e.id,
    incidentId: e.incidentId,
    fingerprint: e.fingerprint,
    status: e.status,
    labels: e.labels,
    annotations: e.annotations,
    startsAt: e.startsAt,
    endsAt: e.endsAt,
    phaseAt: e.phaseAt,
    generatorUrl: e.generatorUrl,
    receivedAt: e.receivedAt,
  };
}
