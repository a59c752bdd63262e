import { Module } from '@nestjs/common';
import { ChangesModule } from '@svc/changes';
import { IncidentsModule } from '@svc/incidents';
import { IntegrationsModule } from '@svc/integrations';
import { OutboundClient, OutboundModule } from '@svc/platform';
import { OrganizationsModule } from '@svc/organizations';
import { RelayJobsService, RelaysModule } from '@svc/relays';
import { InvestigationsModule } from '../investigations.module';
import { KubernetesSnapshotter } from '../snapshots/kubernetes-snapshotter';
import { ToolCatalog } from '../tools/tool-catalog';
import { InvestigationEngine } from './investigation-engine';
import { InvestigationProcessor } from './investigation.processor';
import { ReasonerFactory } from './reasoner-factory';

/** The worker's side of investigations: the processor, the engine, the reasoners and the tools, and the Kubernetes snapshots of new incidents. */
@Module({
  imports: [InvestigationsModule, IncidentsModule, ChangesModule, IntegrationsModule, OrganizationsModule, OutboundModule, RelaysModule],
  providers: [
    InvestigationEngine,
    InvestigationProcessor,
    ReasonerFactory,
    KubernetesSnapshotter,
    {
      provide: ToolCatalog,
      useFactory: (outbound: OutboundClient, relay: RelayJobsService) => new ToolCatalog(undefined, { outbound, relay }),
      inject: [OutboundClient, RelayJobsService],
    },
  ],
})
export class InvestigationEngineModule {}
