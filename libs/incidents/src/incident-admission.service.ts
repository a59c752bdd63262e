import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { newId, Timestamp } from '@svc/platform';
import { AdmissionInput, AdmissionResult, AdmittedAlert } from './admission.types';
import { AlertState, AlertStatus, BatchAlert, Delta, IncidentAdmissionRepository } from './incident-admission.repository';

interface Group {
  key: string;
  labels: Record<string, string>;
}

/** One alert of one delivery, with what admission derives from it. */
interface PlannedAlert {
  delivery: number;
  organizationId: string;
  integrationId: string;
  alert: AdmittedAlert;
  group: Group;
  phaseAt: Timestamp;
}

export interface AdmissionRequest {
  organizationId: string;
  input: AdmissionInput;
}

const MAX_GROUP_KEY = 1024;

/** Group keys are indexed: a longer one (a sender's) is replaced by its SHA-256, which groups the same. */
function storableGroupKey(key: string): string {
  return key.length <= MAX_GROUP_KEY ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** `{alertname="X",service="Y"}`: the group of an alert by the integration's grouping labels. */
function groupOf(labels: Record<string, string>, groupingLabels: string[]): Group {
  const picked = Object.fromEntries(groupingLabels.filter((name) => labels[name] !== undefined).map((name) => [name, labels[name]]));
  return {
    key: `{${Object.entries(picked)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(',')}}`,
    labels: picked,
  };
}

function titleOf(alert: AdmittedAlert, groupLabels: Record<string, string>): string {
  const summary = alert.annotations.summary ?? alert.annotations.title;
  const name = alert.labels.alertname ?? 'Alert';
  const scope = Object.entries(groupLabels)
    .filter(([k]) => k !== 'alertname')
    .map(([, v]) => v)
    .join(', ');
  return (summary ?? (scope ? `${name} (${scope})` : name)).slice(0, 1024);
}

/** The delivery's alerts with their group and phase time, in group key order (the order incidents are locked in). */
function plan(delivery: number, organizationId: string, input: AdmissionInput): PlannedAlert[] {
  return input.alerts
    .map((alert) => {
      const byLabels = groupOf(alert.labels, input.groupingLabels);
      const group = { key: storableGroupKey(input.groupKey ?? byLabels.key), labels: byLabels.labels };
      const phaseAt = alert.status === 'firing' ? alert.startsAt : (alert.endsAt ?? input.receivedAt);
      return { delivery, organizationId, integrationId: input.integrationId, alert, group, phaseAt };
    })
    .sort((a, b) => (a.group.key < b.group.key ? -1 : a.group.key > b.group.key ? 1 : 0));
}

/**
 * Moves an alert's state forward if this phase is its latest (a later phase, or a resolution at
 * the same instant), recording the change in the incident's counts. Returns the new state, or
 * null when nothing changes.
 */
function advance(current: AlertState | undefined, status: AlertStatus, phaseAt: Timestamp, delta: Delta): AlertState | null {
  if (status === 'resolved' && (!delta.lastResolution || phaseAt.isAfter(delta.lastResolution))) delta.lastResolution = phaseAt;
  if (!current) {
    delta.alerts += 1;
    if (status === 'firing') delta.firing += 1;
    return { status, phaseAt };
  }
  const later = phaseAt.isAfter(current.phaseAt) || (phaseAt.epochMicros === current.phaseAt.epochMicros && status === 'resolved');
  if (!later || (current.status === status && phaseAt.epochMicros === current.phaseAt.epochMicros)) return null;
  if (current.status === 'firing' && status === 'resolved') delta.firing -= 1;
  if (current.status === 'resolved' && status === 'firing') delta.firing += 1;
  return { status, phaseAt };
}

const emptyDelta = (): Delta => ({ alerts: 0, firing: 0, lastResolution: null });

/**
 * Admission of alert phases into incidents, inside the caller's transaction: each new lifecycle
 * phase becomes an alert event in the open incident of its group (opened when there is none); an
 * exact retry of a phase is a duplicate; an incident whose alerts are all resolved becomes
 * resolved. Every incident an admission changes is locked first, so concurrent admissions and
 * merges change an incident's state one at a time.
 */
@Injectable()
export class IncidentAdmissionService {
  constructor(private readonly repository: IncidentAdmissionRepository) {}

  /**
   * The alert phases of several deliveries as one `admit_alert_batch` batch (see
   * alertBatchArguments), each with the (0-based) request it came from, in plan order: by
   * request, and within one by group key, the order its incidents are locked in.
   */
  planBatch(requests: AdmissionRequest[]): { alerts: BatchAlert[]; requestOf: number[] } {
    const planned = requests.flatMap((r, i) => plan(i, r.organizationId, r.input));
    return {
      requestOf: planned.map((p) => p.delivery),
      alerts: planned.map((p) => {
        const input = requests[p.delivery].input;
        return {
          organizationId: p.organizationId,
          id: newId(),
          integrationId: p.integrationId,
          deliveryId: input.deliveryId,
          fingerprint: p.alert.fingerprint,
          status: p.alert.status,
          labels: p.alert.labels,
          annotations: p.alert.annotations,
          startsAt: p.alert.startsAt,
          endsAt: p.alert.endsAt,
          phaseAt: p.phaseAt,
          generatorUrl: p.alert.generatorUrl,
          receivedAt: input.receivedAt,
          groupKey: p.group.key,
          groupLabels: p.group.labels,
          title: p.alert.status === 'firing' ? titleOf(p.alert, p.group.labels) : null,
          openedId: newId(),
        };
      }),
    };
  }

  /**
   * Admits one delivery, alert by alert. Handles everything the batch (`planBatch`, `admit_alert_batch`) leaves to it: a
   * resolution goes to the group's open incident, else to the latest incident that saw this
   * alert, else (a resolution for an alert never seen firing) to a new incident, resolved at
   * once, so that nothing accepted is dropped. Groups are handled in key order, so concurrent
   * deliveries lock incidents in the same order.
   */
  async admit(manager: EntityManager, organizationId: string, input: AdmissionInput): Promise<AdmissionResult> {
    const result: AdmissionResult = { accepted: 0, duplicates: 0, incidentIds: [] };
    const touched = new Map<string, Delta>();
    for (const { alert, group, phaseAt } of plan(0, organizationId, input)) {
      const existing = await this.repository.storedPhase(
        organizationId,
        { integrationId: input.integrationId, fingerprint: alert.fingerprint, status: alert.status, phaseAt },
        manager,
      );
      if (existing) {
        result.duplicates += 1;
        if (!result.incidentIds.includes(existing)) result.incidentIds.push(existing);
        continue;
      }
      const incidentId =
        alert.status === 'firing'
          ? await this.openIncident(manager, organizationId, input, group, alert, phaseAt)
          : await this.incidentForResolution(manager, organizationId, input, group, alert, phaseAt);
      const inserted = await this.repository.insertEvent(
        organizationId,
        {
          id: newId(),
          incidentId,
          integrationId: input.integrationId,
          deliveryId: input.deliveryId,
          fingerprint: alert.fingerprint,
          status: alert.status,
          labels: alert.labels,
          annotations: alert.annotations,
          startsAt: alert.startsAt,
          endsAt: alert.endsAt,
          phaseAt,
          generatorUrl: alert.generatorUrl,
          receivedAt: input.receivedAt,
        },
        manager,
      );
      if (!inserted) {
        result.duplicates += 1;
      } else {
        result.accepted += 1;
        const delta = touched.get(incidentId) ?? emptyDelta();
        touched.set(incidentId, delta);
        const next = advance(await this.repository.alertState(organizationId, incidentId, alert.fingerprint, manager), alert.status, phaseAt, delta);
        if (next) await this.repository.upsertAlertState(organizationId, incidentId, alert.fingerprint, next, manager);
      }
      if (!result.incidentIds.includes(incidentId)) result.incidentIds.push(incidentId);
    }
    if (touched.size > 0) {
      await this.repository.applyDeltas(
        organizationId,
        [...touched.entries()].map(([incidentId, delta]) => ({ incidentId, delta })),
        manager,
      );
    }
    return result;
  }

  /** The group's open incident, locked; opened now if there is none (the partial unique index decides races). */
  private async openIncident(
    manager: EntityManager,
    organizationId: string,
    input: AdmissionInput,
    group: Group,
    alert: AdmittedAlert,
    phaseAt: Timestamp,
  ): Promise<string> {
    await this.repository.openIncident(
      organizationId,
      {
        id: newId(),
        integrationId: input.integrationId,
        groupKey: group.key,
        title: titleOf(alert, group.labels),
        labels: group.labels,
        openedAt: phaseAt,
      },
      manager,
    );
    const id = await this.repository.lockOpenIncident(organizationId, input.integrationId, group.key, manager);
    // Resolved by a concurrent admission between the insert and the lock: the sender retries.
    if (!id) throw new Error(`The open incident of group ${group.key} was resolved concurrently`);
    return id;
  }

  /**
   * A resolution goes to the group's open incident, else to the latest incident that saw this
   * alert, else (a resolution for an alert never seen firing) to a new incident, resolved at once.
   */
  private async incidentForResolution(
    manager: EntityManager,
    organizationId: string,
    input: AdmissionInput,
    group: Group,
    alert: AdmittedAlert,
    phaseAt: Timestamp,
  ): Promise<string> {
    const open = await this.repository.lockOpenIncident(organizationId, input.integrationId, group.key, manager);
    if (open) return open;
    const seen = await this.repository.lockLatestIncidentOfAlert(organizationId, input.integrationId, alert.fingerprint, manager);
    if (seen) return seen;
    const id = newId();
    await this.repository.insertResolvedIncident(
      organizationId,
      {
        id,
        integrationId: input.integrationId,
        groupKey: group.key,
        title: titleOf(alert, group.labels),
        labels: group.labels,
        openedAt: alert.startsAt,
        resolvedAt: phaseAt,
      },
      manager,
    );
    return id;
  }
}
