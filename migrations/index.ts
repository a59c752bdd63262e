import { ChangeEvents1796000000000 } from './1796000000000-ChangeEvents';
import { ChangeRetention1796100000000 } from './1796100000000-ChangeRetention';
import { ObservedChanges1796200000000 } from './1796200000000-ObservedChanges';
import { ServiceCalls1796300000000 } from './1796300000000-ServiceCalls';
import { RelayJobRecords1796400000000 } from './1796400000000-RelayJobRecords';
import { IncidentKubernetesSnapshots1796500000000 } from './1796500000000-IncidentKubernetesSnapshots';
import { RelayJobsPending1795900000000 } from './1795900000000-RelayJobsPending';
import { InvestigationPlot1795800000000 } from './1795800000000-InvestigationPlot';
import { ReferenceKeys1795700000000 } from './1795700000000-ReferenceKeys';
import { AdmitAlertBatchByKey1795600000000 } from './1795600000000-AdmitAlertBatchByKey';
import { AdmitAlertBatch1795500000000 } from './1795500000000-AdmitAlertBatch';
import { ChatThreads1795431799122 } from './1795431799122-ChatThreads';
import { Postmortems1795417162688 } from './1795417162688-Postmortems';
import { Conversations1795417283933 } from './1795417283933-Conversations';
import { Relays1795419082068 } from './1795419082068-Relays';
import { IntegrationChangeNotify1795400000000 } from './1795400000000-IntegrationChangeNotify';
import { Investigations1795326288817 } from './1795326288817-Investigations';
import { IncidentAlertState1795323349443 } from './1795323349443-IncidentAlertState';
import { AlertIngestion1795322299178 } from './1795322299178-AlertIngestion';
import { Integrations1795321911753 } from './1795321911753-Integrations';
import { ApiTokens1795321471686 } from './1795321471686-ApiTokens';
import { OidcIdentities1795320300000 } from './1795320300000-OidcIdentities';
import { Policies1795320231379 } from './1795320231379-Policies';
import { AuditEvents1795320009959 } from './1795320009959-AuditEvents';
import { Initial1795318424791 } from './1795318424791-Initial';
/** Every migration, in order. New ones are generated with `npm run migration:generate -- <Name>`. */
export const MIGRATIONS: Function[] = [
  Initial1795318424791,
  AuditEvents1795320009959,
  Policies1795320231379,
  OidcIdentities1795320300000,
  ApiTokens1795321471686,
  Integrations1795321911753,
  AlertIngestion1795322299178,
  IncidentAlertState1795323349443,
  Investigations1795326288817,
  IntegrationChangeNotify1795400000000,
  Postmortems1795417162688,
  Conversations1795417283933,
  Relays1795419082068,
  ChatThreads1795431799122,
  AdmitAlertBatch1795500000000,
  AdmitAlertBatchByKey1795600000000,
  ReferenceKeys1795700000000,
  InvestigationPlot1795800000000,
  RelayJobsPending1795900000000,
  ChangeEvents1796000000000,
  ChangeRetention1796100000000,
  ObservedChanges1796200000000,
  ServiceCalls1796300000000,
  RelayJobRecords1796400000000,
  IncidentKubernetesSnapshots1796500000000,
];
