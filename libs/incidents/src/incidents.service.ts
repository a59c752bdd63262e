import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, Repository } from 'typeorm';
import { AuditContext, AuditService } from '@svc/audit';
import { byTimeThenId, ConflictError, CursorCodec, InvalidInputError, keysetPage, newId, NotFoundError, Page, PageRequest, ScopedRepository, Timestamp } from '@svc/platform';
import { AdmissionInput, AdmissionResult, AdmittedAlert } from './admission.types';
import { AlertEvent } from './alert-event.entity';
import { Incident, IncidentStatus } from './incident.entity';

interface Delta {
  alerts: number;
  firing: number;
  lastResolution: Timestamp | null;
}

const NEWEST_FIRST = byTimeThenId<Incident>('i', 'opened_at', (i) => i.openedAt, 'DESC');
const EVENTS_OLDEST_FIRST = byTimeThenId<AlertEvent>('e', 'received_at', (e) => e.receivedAt, 'ASC');

const MAX_GROUP_KEY = 1024;

/** Group keys are indexed: a longer one (a sender's) is replaced by its SHA-256, which groups the same. */
function storableGroupKey(key: string): string {
  return key.length <= MAX_GROUP_KEY ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** `{alertname="X",service="Y"}`: the group of an alert by the integration's grouping labels. */
function groupOf(labels: Record<string, string>, groupingLabels: string[]): { key: string; labels: Record<string, string> } {
  const picked = Object.fromEntries(groupingLabels.filter((name) => labels[name] !== undefined).map((name) => [name, labels[name]]));
  return { key: `{${Object.entries(picked).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}}`, labels: picked };
}

function titleOf(alert: AdmittedAlert, groupLabels: Record<string, string>): string {
  const summary = alert.annotations.summary ?? alert.annotations.title;
  const name = alert.labels.alertname ?? 'Alert';
  const scope = Object.entries(groupLabels).filter(([k]) => k !== 'alertname').map(([, v]) => v).join(', ');
  return (summary ?? (scope ? `${name} (${scope})` : name)).slice(0, 1024);
}

@Injectable()
export class IncidentsService {
  private readonly incidents: ScopedRepository<Incident>;
  private readonly events: ScopedRepository<AlertEvent>;

  constructor(
    @InjectRepository(Incident) incidents: Repository<Incident>,
    @InjectRepository(AlertEvent) events: Repository<AlertEvent>,
    private readonly cursors: CursorCodec,
    private readonly audit: AuditService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.incidents = new ScopedRepository(incidents);
    this.events = new ScopedRepository(events);
  }

  /**
   * Admits a delivery's alerts inside the caller's transaction: each new lifecycle phase becomes an
   * alert event in the open incident of its group (opened when there is none); an exact retry of a
   * phase is a duplicate; an incident whose alerts are all resolved becomes resolved. Groups are
   * handled in key order, so concurrent deliveries lock incidents in the same order.
   */
  async admit(manager: EntityManager, organizationId: string, input: AdmissionInput): Promise<AdmissionResult> {
    const plan = input.alerts.map((alert) => {
      const byLabels = groupOf(alert.labels, input.groupingLabels);
      const group = { key: storableGroupKey(input.groupKey ?? byLabels.key), labels: byLabels.labels };
      const phaseAt = alert.status === 'firing' ? alert.startsAt : alert.endsAt ?? input.receivedAt;
      return { alert, group, phaseAt };
    }).sort((a, b) => (a.group.key < b.group.key ? -1 : a.group.key > b.group.key ? 1 : 0));

    const result: AdmissionResult = { accepted: 0, duplicates: 0, incidentIds: [] };
    const touched = new Map<string, Delta>();
    for (const { alert, group, phaseAt } of plan) {
      const existing = await this.existingPhase(manager, organizationId, input.integrationId, alert, phaseAt);
      if (existing) {
        result.duplicates += 1;
        if (!result.incidentIds.includes(existing)) result.incidentIds.push(existing);
        continue;
      }
      const incident = alert.status === 'firing'
        ? await this.openIncident(manager, organizationId, input, group, alert, phaseAt)
        : await this.incidentForResolution(manager, organizationId, input, group, alert, phaseAt);
      const inserted = await manager.query(
        `INSERT INTO alert_events (organization_id, id, incident_id, integration_id, delivery_id, fingerprint, status, labels, annotations, starts_at, ends_at, phase_at, generator_url, received_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, $12, $13, $14)
         ON CONFLICT (organization_id, integration_id, fingerprint, status, phase_at) DO NOTHING RETURNING incident_id`,
        [organizationId, newId(), incident.id, input.integrationId, input.deliveryId, alert.fingerprint, alert.status, JSON.stringify(alert.labels),
          JSON.stringify(alert.annotations), alert.startsAt, alert.endsAt, phaseAt, alert.generatorUrl, input.receivedAt],
      ) as unknown[];
      if (inserted.length === 0) {
        result.duplicates += 1;
      } else {
        result.accepted += 1;
        const delta = touched.get(incident.id) ?? { alerts: 0, firing: 0, lastResolution: null };
        await this.applyPhase(manager, organizationId, incident.id, alert, phaseAt, delta);
        touched.set(incident.id, delta);
      }
      if (!result.incidentIds.includes(incident.id)) result.incidentIds.push(incident.id);
    }
    for (const [incidentId, delta] of touched) await this.applyDelta(manager, organizationId, incidentId, delta);
    return result;
  }

  /**
   * Moves one alert's state forward if this phase is its latest (a later phase, or a resolution at
   * the same instant), and records the change in the incident's running counts. The incident row is
   * locked by the caller, so nothing else changes this incident's state meanwhile.
   */
  private async applyPhase(manager: EntityManager, organizationId: string, incidentId: string, alert: AdmittedAlert, phaseAt: Timestamp, delta: Delta): Promise<void> {
    const [current] = await manager.query(
      'SELECT status, phase_at FROM incident_alerts WHERE organization_id = $1 AND incident_id = $2 AND fingerprint = $3',
      [organizationId, incidentId, alert.fingerprint],
    ) as { status: 'firing' | 'resolved'; phase_at: Timestamp }[];
    if (alert.status === 'resolved' && (!delta.lastResolution || phaseAt.isAfter(delta.lastResolution))) delta.lastResolution = phaseAt;
    if (!current) {
      await manager.query('INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at) VALUES ($1, $2, $3, $4, $5)',
        [organizationId, incidentId, alert.fingerprint, alert.status, phaseAt]);
      delta.alerts += 1;
      if (alert.status === 'firing') delta.firing += 1;
      return;
    }
    const later = phaseAt.isAfter(current.phase_at) || (phaseAt.epochMicros === current.phase_at.epochMicros && alert.status === 'resolved');
    if (!later || current.status === alert.status && phaseAt.epochMicros === current.phase_at.epochMicros) return;
    await manager.query('UPDATE incident_alerts SET status = $4, phase_at = $5 WHERE organization_id = $1 AND incident_id = $2 AND fingerprint = $3',
      [organizationId, incidentId, alert.fingerprint, alert.status, phaseAt]);
    if (current.status === 'firing' && alert.status === 'resolved') delta.firing -= 1;
    if (current.status === 'resolved' && alert.status === 'firing') delta.firing += 1;
  }

  /** Adds an admission's changes to the incident's counts; an open incident with nothing firing resolves. */
  private async applyDelta(manager: EntityManager, organizationId: string, incidentId: string, delta: Delta): Promise<void> {
    await manager.query(
      `UPDATE incidents SET
         alert_count = alert_count + $3,
         firing_count = firing_count + $4,
         last_resolution_at = GREATEST(last_resolution_at, $5::timestamptz),
         status = CASE WHEN status = 'open' AND firing_count + $4 = 0 AND alert_count + $3 > 0 THEN 'resolved' ELSE status END,
         resolved_at = CASE WHEN status = 'open' AND firing_count + $4 = 0 AND alert_count + $3 > 0
                            THEN COALESCE(GREATEST(last_resolution_at, $5::timestamptz), clock_timestamp()) ELSE resolved_at END,
         updated_at = clock_timestamp()
       WHERE organization_id = $1 AND id = $2`,
      [organizationId, incidentId, delta.alerts, delta.firing, delta.lastResolution],
    );
  }

  private async existingPhase(manager: EntityManager, organizationId: string, integrationId: string, alert: AdmittedAlert, phaseAt: Timestamp): Promise<string | undefined> {
    const rows = await manager.query(
      'SELECT incident_id FROM alert_events WHERE organization_id = $1 AND integration_id = $2 AND fingerprint = $3 AND status = $4 AND phase_at = $5',
      [organizationId, integrationId, alert.fingerprint, alert.status, phaseAt],
    ) as { incident_id: string }[];
    return rows[0]?.incident_id;
  }

  /** The group's open incident, locked; opened now if there is none (the partial unique index decides races). */
  private async openIncident(manager: EntityManager, organizationId: string, input: AdmissionInput, group: { key: string; labels: Record<string, string> }, alert: AdmittedAlert, phaseAt: Timestamp): Promise<Incident> {
    await manager.query(
      `INSERT INTO incidents (organization_id, id, integration_id, group_key, status, title, labels, opened_at)
       VALUES ($1, $2, $3, $4, 'open', $5, $6::jsonb, $7)
       ON CONFLICT (organization_id, integration_id, group_key) WHERE status = 'open' DO NOTHING`,
      [organizationId, newId(), input.integrationId, group.key, titleOf(alert, group.labels), JSON.stringify(group.labels), phaseAt],
    );
    const open = await this.incidents.withManager(manager).query(organizationId, 'i')
      .andWhere('i.integration_id = :integrationId AND i.group_key = :key AND i.status = :open', { integrationId: input.integrationId, key: group.key, open: 'open' })
      .setLock('pessimistic_write').getOne();
    return open!;
  }

  /**
   * A resolution goes to the group's open incident, else to the latest incident that saw this
   * alert, else (a resolution for an alert never seen firing) to a new incident, resolved at once,
   * so that nothing accepted is dropped.
   */
  private async incidentForResolution(manager: EntityManager, organizationId: string, input: AdmissionInput, group: { key: string; labels: Record<string, string> }, alert: AdmittedAlert, phaseAt: Timestamp): Promise<Incident> {
    const repo = this.incidents.withManager(manager);
    const open = await repo.query(organizationId, 'i')
      .andWhere('i.integration_id = :integrationId AND i.group_key = :key AND i.status = :open', { integrationId: input.integrationId, key: group.key, open: 'open' })
      .setLock('pessimistic_write').getOne();
    if (open) return open;
    const seen = await manager.query(
      `SELECT incident_id FROM alert_events WHERE organization_id = $1 AND integration_id = $2 AND fingerprint = $3 ORDER BY received_at DESC LIMIT 1`,
      [organizationId, input.integrationId, alert.fingerprint],
    ) as { incident_id: string }[];
    if (seen[0]) {
      const incident = await repo.query(organizationId, 'i').andWhere('i.id = :id', { id: seen[0].incident_id }).setLock('pessimistic_write').getOne();
      if (incident) return incident;
    }
    const id = newId();
    await repo.insert(organizationId, {
      id, integrationId: input.integrationId, groupKey: group.key, status: 'resolved', title: titleOf(alert, group.labels), labels: group.labels,
      openedAt: alert.startsAt, resolvedAt: phaseAt, mergedInto: null, alertCount: 0,
    });
    return (await repo.findById(organizationId, id))!;
  }

  /**
   * Moves the alert events of other incidents into the target and marks them merged into it. The
   * target's state follows its alerts: it is open while any of them fires (reopened if needed,
   * unless its group already has another open incident: 409), resolved otherwise.
   */
  async merge(organizationId: string, targetId: string, sourceIds: string[], context: AuditContext): Promise<Incident> {
    const sources = [...new Set(sourceIds)];
    if (sources.includes(targetId)) throw new InvalidInputError('Invalid input: incidentIds must not include the target incident');
    return this.dataSource.transaction(async (manager) => {
      const repo = this.incidents.withManager(manager);
      // Locked in id order, like every other multi-incident change, so merges cannot deadlock each other.
      const locked = await repo.query(organizationId, 'i').andWhere('i.id IN (:...ids)', { ids: [targetId, ...sources] })
        .orderBy('i.id', 'ASC').setLock('pessimistic_write').getMany();
      const target = locked.find((i) => i.id === targetId);
      if (!target) throw new NotFoundError('Incident');
      const missing = sources.filter((id) => !locked.some((i) => i.id === id));
      if (missing.length > 0) throw new NotFoundError(`Incident ${missing[0]}`);
      if (target.status === 'merged') throw new ConflictError('The target incident was itself merged; merge into the incident it was merged into');
      const already = locked.filter((i) => sources.includes(i.id) && i.status === 'merged');
      if (already.length > 0) throw new ConflictError(`Incident ${already[0].id} is already merged`);
      await manager.query('UPDATE alert_events SET incident_id = $3 WHERE organization_id = $1 AND incident_id = ANY($2)', [organizationId, sources, targetId]);
      await manager.query(`UPDATE incidents SET status = 'merged', merged_into = $3, updated_at = clock_timestamp() WHERE organization_id = $1 AND id = ANY($2)`, [organizationId, sources, targetId]);
      await this.recompute(manager, organizationId, targetId, sources);
      await this.audit.record(manager, organizationId, context, { action: 'incident.merge', targetKind: 'incident', targetId, detail: { merged: sources } });
      return (await repo.findById(organizationId, targetId))!;
    });
  }

  /**
   * Rebuilds an incident's alert state from its events (after a merge, which is rare): the latest
   * phase of each alert, the counts, and the status, reopening a resolved incident whose alerts
   * fire again unless its group already has another open incident (409).
   */
  private async recompute(manager: EntityManager, organizationId: string, incidentId: string, mergedIds: string[]): Promise<void> {
    await manager.query('DELETE FROM incident_alerts WHERE organization_id = $1 AND incident_id = ANY($2)', [organizationId, [incidentId, ...mergedIds]]);
    await manager.query(
      `INSERT INTO incident_alerts (organization_id, incident_id, fingerprint, status, phase_at)
       SELECT DISTINCT ON (fingerprint) organization_id, incident_id, fingerprint, status, phase_at FROM alert_events
        WHERE organization_id = $1 AND incident_id = $2
        ORDER BY fingerprint, phase_at DESC, (status = 'resolved') DESC`,
      [organizationId, incidentId],
    );
    const [state] = await manager.query(
      `SELECT count(*)::int AS alerts, count(*) FILTER (WHERE status = 'firing')::int AS firing,
              (SELECT max(phase_at) FROM alert_events WHERE organization_id = $1 AND incident_id = $2 AND status = 'resolved') AS last_resolution
         FROM incident_alerts WHERE organization_id = $1 AND incident_id = $2`,
      [organizationId, incidentId],
    ) as { alerts: number; firing: number; last_resolution: Timestamp | null }[];
    const repo = this.incidents.withManager(manager);
    const incident = (await repo.findById(organizationId, incidentId))!;
    const patch: Partial<Incident> = { alertCount: state.alerts, firingCount: state.firing, lastResolutionAt: state.last_resolution, updatedAt: Timestamp.now() };
    if (incident.status === 'open' && state.firing === 0 && state.alerts > 0) {
      patch.status = 'resolved';
      patch.resolvedAt = state.last_resolution ?? Timestamp.now();
    }
    if (incident.status === 'resolved' && state.firing > 0) {
      const other = await repo.query(organizationId, 'i')
        .andWhere('i.integration_id = :integrationId AND i.group_key = :groupKey AND i.status = :open AND i.id <> :id', { integrationId: incident.integrationId, groupKey: incident.groupKey, open: 'open', id: incidentId })
        .getOne();
      if (other) throw new ConflictError(`Firing alerts would reopen this incident, but its group already has open incident ${other.id}: merge into that one instead`);
      patch.status = 'open';
      patch.resolvedAt = null;
    }
    await repo.update(organizationId, { id: incidentId }, patch);
  }

  async list(organizationId: string, filters: { status?: IncidentStatus; from?: string; until?: string }, page: PageRequest): Promise<Page<Incident>> {
    const query = this.incidents.query(organizationId, 'i').andWhere(new Brackets((qb) => {
      qb.where('TRUE');
      if (filters.status) qb.andWhere('i.status = :status', { status: filters.status });
      if (filters.from) qb.andWhere('i.opened_at >= :from', { from: Timestamp.parse(filters.from) });
      if (filters.until) qb.andWhere('i.opened_at < :until', { until: Timestamp.parse(filters.until) });
    }));
    return keysetPage(query, this.cursors, { scope: organizationId, collection: `incidents?${filters.status ?? ''}&${filters.from ?? ''}&${filters.until ?? ''}` }, NEWEST_FIRST, page);
  }

  async get(organizationId: string, id: string): Promise<Incident> {
    const incident = await this.incidents.findById(organizationId, id);
    if (!incident) throw new NotFoundError('Incident');
    return incident;
  }

  async alertEvents(organizationId: string, incidentId: string, page: PageRequest): Promise<Page<AlertEvent>> {
    await this.get(organizationId, incidentId);
    const query = this.events.query(organizationId, 'e').andWhere('e.incident_id = :incidentId', { incidentId });
    return keysetPage(query, this.cursors, { scope: organizationId, collection: `incidents/${incidentId}/alert-events` }, EVENTS_OLDEST_FIRST, page);
  }
}
