import type { Timestamp } from '@svc/platform';

/** One alert phase to admit, as the payload parsers produce it (libs/alerts: NormalizedAlert). */
export interface AdmittedAlert {
  /** The payload's own fingerprint when it has a non-empty one, else a hash of the labels. */
  fingerprint: string;
  status: 'firing' | 'resolved';
  /** String values only; names and values kept exactly as sent (nothing trimmed). */
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: Timestamp;
  /** Null when absent, the zero time, or an "unknown" placeholder at or before the Unix epoch. */
  endsAt: Timestamp | null;
  /** Only absolute http(s) URLs are kept; anything else is null. */
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
