import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { newId, Timestamp } from '@svc/platform';
import { AdmissionInput, AdmissionResult, AdmittedAlert } from './admission.types';
import { AlertKey, AlertState, AlertStatus, Delta, IncidentAdmissionRepository, IncidentDelta } from './incident-admission.repository';

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

/** A group of one integration of one Organization, as a map key. */
const groupId = (p: PlannedAlert): string => JSON.stringify([p.organizationId, p.integrationId, p.group.key]);

type AdmittedEvent = PlannedAlert & { id: string; incidentId: string };

/** What a batch admission tells each delivery: its accepted and duplicate phases and its incidents. */
class BatchResults {
  readonly list: AdmissionResult[];

  constructor(deliveries: number) {
    this.list = Array.from({ length: deliveries }, () => ({ accepted: 0, duplicates: 0, incidentIds: [] }));
  }

  accepted(delivery: number, incidentId: string): void {
    this.noteIncident(delivery, incidentId);
    this.list[delivery].accepted += 1;
  }

  duplicate(delivery: number, incidentId: string): void {
    this.noteIncident(delivery, incidentId);
    this.list[delivery].duplicates += 1;
  }

  private noteIncident(delivery: number, incidentId: string): void {
    const ids = this.list[delivery].incidentIds;
    if (!ids.includes(incidentId)) ids.push(incidentId);
  }
}

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
   * Admits several deliveries with a fixed number of statements, whatever their count. Incidents
   * are locked in id order, like every other multi-incident change. Returns null, having changed
   * nothing the caller must keep, when a resolution in the batch has no open incident to go to (a
   * late resolution, or one never seen firing): the caller rolls back and admits each delivery
   * with `admit`, which handles that.
   */
  async admitTogether(manager: EntityManager, requests: AdmissionRequest[]): Promise<AdmissionResult[] | null> {
    const planned = requests.flatMap((r, i) => plan(i, r.organizationId, r.input));
    const results = new BatchResults(requests.length);
    const fresh = await this.setAsideRetries(manager, planned, results);
    const openIncident = await this.openAndLockIncidentsOf(manager, fresh);
    if (!openIncident) return null;
    const { admitted, states } = await this.insertEvents(manager, requests, fresh, openIncident, results);
    if (admitted.length > 0) await this.advanceAlertStates(manager, admitted, states);
    return results.list;
  }

  /** Exact retries of phases already stored count as duplicates; returns the phases still to admit. */
  private async setAsideRetries(manager: EntityManager, planned: PlannedAlert[], results: BatchResults): Promise<PlannedAlert[]> {
    const stored = await this.repository.storedPhasesAcrossOrganizations(
      planned.map((p) => ({
        organizationId: p.organizationId,
        integrationId: p.integrationId,
        fingerprint: p.alert.fingerprint,
        status: p.alert.status,
        phaseAt: p.phaseAt,
      })),
      manager,
    );
    return planned.filter((p, i) => {
      const incidentId = stored.get(i);
      if (incidentId === undefined) return true;
      results.duplicate(p.delivery, incidentId);
      return false;
    });
  }

  /**
   * Each group with a firing alert gets an open incident when it has none (the partial unique
   * index decides races), opened at its earliest firing phase; then the open incident of every
   * group is locked, in id order. Returns them by group id; null when a group has none now: a
   * resolution with nowhere obvious to go, or an incident opened or resolved by another admission
   * meanwhile. The one-by-one path decides those.
   */
  private async openAndLockIncidentsOf(manager: EntityManager, fresh: PlannedAlert[]): Promise<Map<string, string> | null> {
    const groups = [...new Map(fresh.map((p) => [groupId(p), p])).values()];
    if (groups.length === 0) return new Map();
    const openers = new Map<string, PlannedAlert>();
    for (const p of fresh) {
      const current = openers.get(groupId(p));
      if (p.alert.status === 'firing' && (!current || current.phaseAt.isAfter(p.phaseAt))) openers.set(groupId(p), p);
    }
    const open = await this.repository.openAndLockIncidentsAcrossOrganizations(
      [...openers.values()].map((p) => ({
        organizationId: p.organizationId,
        id: newId(),
        integrationId: p.integrationId,
        groupKey: p.group.key,
        title: titleOf(p.alert, p.group.labels),
        labels: p.group.labels,
        openedAt: p.phaseAt,
      })),
      groups.map((p) => ({ organizationId: p.organizationId, integrationId: p.integrationId, groupKey: p.group.key })),
      manager,
    );
    const openIncident = new Map(open.map((i) => [JSON.stringify([i.organizationId, i.integrationId, i.groupKey]), i.id]));
    return groups.some((p) => !openIncident.has(groupId(p))) ? null : openIncident;
  }

  /**
   * Stores each phase in its group's open incident; returns those stored (not retried
   * concurrently) and the stored states of their alerts, read by the same statement.
   */
  private async insertEvents(
    manager: EntityManager,
    requests: AdmissionRequest[],
    fresh: PlannedAlert[],
    openIncident: Map<string, string>,
    results: BatchResults,
  ): Promise<{ admitted: AdmittedEvent[]; states: Array<AlertKey & { state: AlertState }> }> {
    const events = fresh.map((p) => ({ ...p, id: newId(), incidentId: openIncident.get(groupId(p))! }));
    const { inserted, states } = await this.repository.insertEventsReadingStatesAcrossOrganizations(
      events.map((e) => ({
        organizationId: e.organizationId,
        id: e.id,
        incidentId: e.incidentId,
        integrationId: e.integrationId,
        deliveryId: requests[e.delivery].input.deliveryId,
        fingerprint: e.alert.fingerprint,
        status: e.alert.status,
        labels: e.alert.labels,
        annotations: e.alert.annotations,
        startsAt: e.alert.startsAt,
        endsAt: e.alert.endsAt,
        phaseAt: e.phaseAt,
        generatorUrl: e.alert.generatorUrl,
        receivedAt: requests[e.delivery].input.receivedAt,
      })),
      manager,
    );
    const admitted = events.filter((e) => {
      if (inserted.has(e.id)) results.accepted(e.delivery, e.incidentId);
      else results.duplicate(e.delivery, e.incidentId);
      return inserted.has(e.id);
    });
    return { admitted, states };
  }

  /**
   * Alert state and counts: advances the current state of every alert touched in memory, then
   * writes back what changed and adds each incident's delta to its counts.
   */
  private async advanceAlertStates(manager: EntityManager, admitted: AdmittedEvent[], current: Array<AlertKey & { state: AlertState }>): Promise<void> {
    const stateKey = (k: AlertKey): string => JSON.stringify([k.organizationId, k.incidentId, k.fingerprint]);
    const keyOf = (e: AdmittedEvent): AlertKey => ({ organizationId: e.organizationId, incidentId: e.incidentId, fingerprint: e.alert.fingerprint });
    const states = new Map<string, AlertState>(current.map((s) => [stateKey(s), s.state]));
    const changed = new Map<string, AlertKey>();
    const deltas = new Map<string, IncidentDelta>();
    for (const e of admitted) {
      const key = stateKey(keyOf(e));
      const incidentKey = JSON.stringify([e.organizationId, e.incidentId]);
      const entry = deltas.get(incidentKey) ?? { organizationId: e.organizationId, incidentId: e.incidentId, delta: emptyDelta() };
      deltas.set(incidentKey, entry);
      const next = advance(states.get(key), e.alert.status, e.phaseAt, entry.delta);
      if (next) {
        states.set(key, next);
        changed.set(key, keyOf(e));
      }
    }
    await this.repository.writeStatesAndDeltasAcrossOrganizations(
      [...changed.entries()].map(([key, row]) => ({ ...row, state: states.get(key)! })),
      [...deltas.values()],
      manager,
    );
  }

  /**
   * Admits one delivery, alert by alert. Handles everything `admitTogether` leaves to it: a
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
