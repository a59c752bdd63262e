import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { IncidentsService } from '@svc/incidents';
import { NotFoundError, PageRequest, Timestamp } from '@svc/platform';
import { ChangeFilter, ChangesRepository, RecordedChange } from './changes.repository';
import { ChangePage, changeView, ChangeView, IncidentChangePage } from './dto/change.view';
import { ServiceCallsRepository, ServicePair } from './service-calls.repository';
import type { ChangeKind, ChangeSource, NormalizedChange, ObservedChangeSource } from './formats/normalized-change';

/** How far before an incident's first alert its changes are read: the changes that could have caused it. */
export const CHANGES_BEFORE_INCIDENT_SECONDS = 3600;
/** An incident's changes are counted up to this many: a timeline says how many it leaves out. */
export const INCIDENT_CHANGES_COUNTED = 10_000;

/** Changes: recorded as their deliveries are admitted, read by time and service, and around an incident. */
@Injectable()
export class ChangesService {
  constructor(
    private readonly repository: ChangesRepository,
    private readonly calls: ServiceCallsRepository,
    private readonly incidents: IncidentsService,
  ) {}

  /**
   * Records the changes of an admitted delivery in the caller's transaction (the one that records
   * the delivery): those the integration already brought are duplicates.
   */
  record(
    manager: EntityManager,
    organizationId: string,
    delivery: { integrationId: string; deliveryId: string },
    source: ChangeSource,
    changes: NormalizedChange[],
  ): Promise<RecordedChange[]> {
    return this.repository.record(organizationId, { ...delivery, investigationId: null }, source, changes, manager);
  }

  /**
   * Records a rollout an investigation saw in the metrics read through a Prometheus integration,
   * so that the incident's timeline holds it beside the reported changes. Seen again (by another
   * investigation, or again by this one), it is the same change: the external id names the
   * program and its version.
   */
  async recordObserved(
    organizationId: string,
    observation: { integrationId: string; investigationId: string; source: ObservedChangeSource },
    change: NormalizedChange,
  ): Promise<RecordedChange> {
    const [recorded] = await this.repository.record(
      organizationId,
      { integrationId: observation.integrationId, deliveryId: null, investigationId: observation.investigationId },
      observation.source,
      [change],
    );
    return recorded;
  }

  async list(
    organizationId: string,
    filter: { from?: string; until?: string; service?: string; kind?: ChangeKind; integrationId?: string },
    page: PageRequest,
  ): Promise<ChangePage> {
    const parsed: ChangeFilter = {
      ...filter,
      from: filter.from ? (Timestamp.parse(filter.from) ?? undefined) : undefined,
      until: filter.until ? (Timestamp.parse(filter.until) ?? undefined) : undefined,
    };
    const found = await this.repository.page(organizationId, parsed, page);
    return { items: found.items.map(changeView), next: found.next };
  }

  async get(organizationId: string, id: string): Promise<ChangeView> {
    const change = await this.repository.findById(organizationId, id);
    if (!change) throw new NotFoundError('Change');
    return changeView(change);
  }

  /**
   * Records calls between services that an investigation saw in the series of a Prometheus
   * integration: what an alerting service calls is where its incident's changes may also lie.
   */
  recordCalls(organizationId: string, origin: { integrationId: string; investigationId: string }, pairs: ReadonlyArray<ServicePair>): Promise<void> {
    return this.calls.record(organizationId, origin, pairs);
  }

  /** What the services call, directly or not, as investigations saw it (see ServiceCallsRepository.dependenciesOf). */
  dependenciesOf(organizationId: string, services: string[]): Promise<string[]> {
    return this.calls.dependenciesOf(organizationId, services);
  }

  /**
   * The changes of a window, oldest first, on the given services (case aside) and those that name
   * no service, at most `limit`: what an investigation reads around an onset. With no services,
   * every change of the window.
   */
  async near(organizationId: string, window: { from: Timestamp; until: Timestamp }, services: string[], limit: number): Promise<ChangeView[]> {
    const found = await this.repository.pageAround(organizationId, window, services, { limit });
    return found.items.map(changeView);
  }

  /**
   * The incident's changes, oldest first: from an hour before its first alert began until it
   * resolved (still open: until now and on), on the services its alerts name and what they call
   * as investigations saw it, and those that name no service.
   */
  async aroundIncident(organizationId: string, incidentId: string, page: PageRequest): Promise<IncidentChangePage> {
    const scope = await this.incidents.alertScope(organizationId, incidentId);
    const dependencies = await this.calls.dependenciesOf(organizationId, scope.services);
    const window = { from: scope.firstAlertAt.plusSeconds(-CHANGES_BEFORE_INCIDENT_SECONDS), until: scope.incident.resolvedAt };
    const services = [...scope.services, ...dependencies];
    const [found, total] = await Promise.all([
      this.repository.pageAround(organizationId, window, services, page),
      this.repository.countAround(organizationId, window, services, INCIDENT_CHANGES_COUNTED),
    ]);
    return {
      items: found.items.map(changeView),
      next: found.next,
      total: Math.min(total, INCIDENT_CHANGES_COUNTED),
      totalCapped: total > INCIDENT_CHANGES_COUNTED,
      window: { from: window.from.toISOString(), until: window.until?.toISOString() ?? null },
      services: scope.services,
      dependencies,
    };
  }
}
