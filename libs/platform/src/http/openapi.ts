import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SERVICE_VERSION } from '../service-info';
import { ORGANIZATION_ID_PATTERN } from '../organization-id';
import { SESSION_COOKIE } from './session-cookie';

/** The OpenAPI document of the whole API, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Incident Investigation Service')
    .setDescription('Multi-tenant control plane for incident response. Contract version 0.1.0 (pre-release). See docs/api.md.')
    .setVersion(SERVICE_VERSION)
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, 'session')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Organization API token, or the bootstrap credential on bootstrap' }, 'bearer')
    .addGlobalParameters({ name: 'X-Svc-Organization', in: 'header', required: false, schema: { type: 'string', pattern: ORGANIZATION_ID_PATTERN } })
    .build();
  return SwaggerModule.createDocument(app, config, { operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}` });
}

export function mountOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/v1/docs', app, document, {
    jsonDocumentUrl: 'api/v1/openapi.json',
    yamlDocumentUrl: 'api/v1/openapi.yaml',
    customSiteTitle: 'Incident Investigation Service API',
  });
}
