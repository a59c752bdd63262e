import { maxHeaderSize } from 'node:http';
import { applyDecorators, type INestApplication, type Type } from '@nestjs/common';
import { ApiExtension, ApiExtraModels, DocumentBuilder, getSchemaPath, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  OperationObject,
  ParameterObject,
  PathItemObject,
  ReferenceObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { SERVICE_VERSION } from '../service-info';
import { ORGANIZATION_ID_PATTERN } from '../organization-id';
import { ErrorBodyView } from './api-errors';
import { ALIASED_RESOURCES } from './organization-alias';
import { SESSION_COOKIE } from './session-cookie';

const ALIAS_RESPONSE_EXTENSION = 'x-svc-alias-ok';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const ERROR_REF = { $ref: '#/components/schemas/Error' };

/**
 * The 200 body of a listing on its alias path (`/organizations/{organization}/...`) when it
 * differs from the flat path's (decisions §1: alias listings are `{items, next}`).
 */
export function ApiAliasOkResponse(type: Type<unknown>): MethodDecorator {
  return applyDecorators(ApiExtraModels(type), ApiExtension(ALIAS_RESPONSE_EXTENSION, { $ref: getSchemaPath(type) }));
}

/**
 * The OpenAPI document of the whole API, generated from the controllers and DTOs, then completed
 * with what the request pipeline does on every route (see completeDocument).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Incident Investigation Service')
    .setDescription(
      'Multi-tenant control plane for incident response. Contract version 0.1.0 (pre-release). See docs/api.md. ' +
        'Every error response has the Error body. Resources under /api/v1/organizations/{organization}/ are the alias paths of the flat ones.',
    )
    .setVersion(SERVICE_VERSION)
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session cookie set by sign-in' }, 'session')
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      description: 'An opaque Organization API token (svc_pat_…), or the bootstrap credential on bootstrap',
    })
    .addSecurity('webhookToken', { type: 'apiKey', in: 'header', name: 'X-Svc-Token', description: "The integration's webhook secret" })
    .addSecurity('webhookBearer', {
      type: 'http',
      scheme: 'bearer',
      description: "The integration's webhook secret, for senders that can only set Authorization",
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [ErrorBodyView],
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  return completeDocument(document);
}

const errorResponse = (description: string, retryAfter = false): ResponseObject => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
  ...(retryAfter ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } } } } : {}),
});

/**
 * What every route answers whatever its controller says, added to each operation:
 *  - 400: unknown query parameters (and body properties) and the input hygiene checks;
 *  - 413 and 415 on operations that take a body (and every unsafe method, which may send `{}`);
 *  - 503 with `Retry-After`: PostgreSQL or Redis not answering (see unavailableDependency), which
 *    any operation may meet;
 *  - 431: a request line and headers over Node's `maxHeaderSize` (see answerClientErrors);
 * and the alias paths of the Organization resources (decisions §1), with their own operation ids
 * and the `organization` path parameter.
 */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const responses = operation.responses as Record<string, ResponseObject | ReferenceObject>;
      // Errors are JSON whatever the operation's success media type (a report, a stream, an export).
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) >= 400 && 'content' in response && response.content) {
          response.content = { 'application/json': { schema: ERROR_REF } };
        }
      }
      responses['400'] ??= errorResponse('Invalid input (the field is named), an unknown query parameter or body property');
      if (operation.requestBody || method !== 'get') {
        responses['413'] ??= errorResponse('Request body too large');
        responses['415'] ??= errorResponse('Unsupported media type: send application/json');
      }
      responses['503'] ??= errorResponse('Temporarily unavailable (the database is not answering); `Retry-After` says when to try again', true);
      responses['431'] ??= errorResponse(`Request header fields too large: the request line and headers must fit in ${maxHeaderSize} bytes`);
    }
  }
  const aliases: Record<string, PathItemObject> = {};
  const flat = new RegExp(`^/api/v1/(${ALIASED_RESOURCES.join('|')})(?=/|$)`);
  for (const [path, item] of Object.entries(document.paths)) {
    const match = flat.exec(path);
    if (match) aliases[path.replace('/api/v1/', '/api/v1/organizations/{organization}/')] = aliasOf(item);
    for (const method of METHODS) delete (item[method] as Record<string, unknown> | undefined)?.[ALIAS_RESPONSE_EXTENSION];
  }
  Object.assign(document.paths, aliases);
  return document;
}

const ORGANIZATION_PARAMETER: ParameterObject = {
  name: 'organization',
  in: 'path',
  required: true,
  description: 'The Organization of the request (an alias path: the same operation as the flat path)',
  schema: { type: 'string', pattern: ORGANIZATION_ID_PATTERN, minLength: 1, maxLength: 63 },
};

function aliasOf(item: PathItemObject): PathItemObject {
  const alias: PathItemObject = {};
  for (const method of METHODS) {
    const original = item[method];
    if (!original) continue;
    const operation = structuredClone(original) as OperationObject & Record<string, unknown>;
    operation.operationId = `${original.operationId}_byOrganizationPath`;
    operation.parameters = [ORGANIZATION_PARAMETER, ...(operation.parameters ?? [])];
    const ok = operation[ALIAS_RESPONSE_EXTENSION] as ReferenceObject | undefined;
    if (ok) {
      const response = operation.responses['200'] as ResponseObject;
      response.content = { 'application/json': { schema: ok } };
      delete operation[ALIAS_RESPONSE_EXTENSION];
    }
    alias[method] = operation;
  }
  return alias;
}

export function mountOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/v1/docs', app, document, {
    jsonDocumentUrl: 'api/v1/openapi.json',
    yamlDocumentUrl: 'api/v1/openapi.yaml',
    customSiteTitle: 'Incident Investigation Service API',
  });
}
