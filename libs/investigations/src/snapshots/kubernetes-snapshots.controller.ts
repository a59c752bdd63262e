import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { IncidentsService } from '@svc/incidents';
import { ApiErrors, CurrentOrganization, NotFoundError, OrganizationContext, RequirePermission, UuidParam } from '@svc/platform';
import { KubernetesSnapshotView, kubernetesSnapshotView } from './kubernetes-snapshot.view';
import { KubernetesSnapshotsRepository } from './kubernetes-snapshots.repository';

@ApiTags('incidents')
@Controller('api/v1/incidents')
export class KubernetesSnapshotsController {
  constructor(
    private readonly incidents: IncidentsService,
    private readonly snapshots: KubernetesSnapshotsRepository,
  ) {}

  /** What the Kubernetes API showed of the incident's pods and workloads when it opened (taken by the worker with a Kubernetes integration). */
  @RequirePermission('incidents:read')
  @Get(':incident/kubernetes-snapshot')
  @ApiOkResponse({ type: KubernetesSnapshotView })
  @ApiErrors({ status: 404, description: 'Unknown incident, another Organization’s, or no snapshot taken of it' })
  async get(@UuidParam('incident') id: string, @CurrentOrganization() organization: OrganizationContext): Promise<KubernetesSnapshotView> {
    await this.incidents.get(organization.id, id);
    const snapshot = await this.snapshots.find(organization.id, id);
    if (!snapshot) throw new NotFoundError('Kubernetes snapshot');
    return kubernetesSnapshotView(snapshot);
  }
}
