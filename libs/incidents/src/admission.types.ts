import type { Timestamp } from '@svc/platform';

/** One alert phase to admit, as the payload parsers produce it. */
export interface AdmittedAlert {
  fingerprint: string;
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: Timestamp;
  endsAt: Timestamp | null;
  generatorUrl: string | null;
}

export interface AdmissionInput {
  integrationId: string;
  /** Labels that group alerts when the sender gives no group key. */
  groupingLabels: string[];
  /** The sender's group key (Alertmanager's groupKey), if any. */
  groupKey: string | null;
  deliveryId: string;
  receivedAt: Timestamp;
  alerts: AdmittedAlert[];
}

export interface AdmissionResult {
  accepted: number;
  duplicates: number;
  incidentIds: string[];
}

export const DEFAULT_GROUPING_LABELS = ['alertname', 'service'];
