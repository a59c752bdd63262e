import { answerClientErrors } from './client-errors';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { Express, NextFunction, Request, Response } from 'express';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { createHttpLogger } from '../observability/http-logger';
import { Metrics } from '../observability/metrics';
import { ROOT_LOGGER } from '../observability/root-logger';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { JSON_TYPES, requireJsonBody } from './content-type';
import { toErrorResponse } from './error-body';
import { forwardedForHygiene, parseTrustedProxies } from './trusted-proxies';
import { inputHygiene } from './input-hygiene.middleware';
import { InputShapeGuard } from './input-shape.guard';
import { LeanRoutes, PipelineStep } from './lean-routes';
import { noStore } from './no-store';
import { organizationAliasMiddleware } from './organization-alias';
import { mountOpenApi } from './openapi';
import { requestIdMiddleware } from './request-id';
import { securityHeaders } from './security-headers';
import { sendError } from './send-error';
import { createValidationPipe } from './validation';

/**
 * The request pipeline, in order: lean routes (see LeanRoutes, which run the common steps below
 * themselves), security headers (nosniff), X-Forwarded-For hygiene (see trusted-proxies.ts), request
 * id, access log, metrics, no-store, JSON-only bodies
 * under a size limit (checked from Content-Length before reading; not for /webhooks, which
 * authenticate first and read their own bodies), input hygiene on the parsed body and query, then Nest's guards, validation and handlers. main.ts and the e2e tests both call this, so tests run the real pipeline.
 * The app must be created with `bodyParser: false`.
 */
export function configureHttpApp(app: NestExpressApplication): void {
  const config = app.get(AppConfig);
  const logger = app.get<Logger>(ROOT_LOGGER);
  const metrics = app.get(Metrics);

  app.disable('x-powered-by');
  app.set('etag', false);
  // Only a peer in SVC_TRUSTED_PROXIES (the supplied nginx) may name the client in X-Forwarded-For,
  // and only with valid addresses: otherwise the client could choose its audit address and
  // rotate past the per-address sign-in limit.
  app.set('trust proxy', parseTrustedProxies(config.SVC_TRUSTED_PROXIES));

  const common = (access: PipelineStep): PipelineStep[] => [securityHeaders, forwardedForHygiene, requestIdMiddleware, access, metrics.middleware()];
  for (const step of common(createHttpLogger(logger))) app.use(step);
  app.use(['/api', '/webhooks'], noStore);
  // Hot public routes with their own authentication (alert webhooks) answer ahead of Express and
  // Nest, after the same common steps (their paths are all under /webhooks, hence no-store).
  app
    .get(LeanRoutes)
    .attach(app.getHttpServer() as Server, app.getHttpAdapter().getInstance() as Express, [
      ...common(createHttpLogger(logger, { childLogger: false })),
      noStore,
    ]);
  // What the HTTP parser refuses before routing is answered in the Error shape too.
  answerClientErrors(app.getHttpServer() as Server);
  app.use(organizationAliasMiddleware);
  // Webhook routes authenticate from the headers before they read a body, and read it themselves.
  const json = express.json({ limit: config.SVC_JSON_BODY_LIMIT, type: JSON_TYPES, strict: true });
  app.use((req: Request, res: Response, next: NextFunction) =>
    req.path.startsWith('/webhooks/')
      ? next()
      : requireJsonBody(req, res, () => json(req, res, (error?: unknown) => (error ? next(error) : inputHygiene(req, res, next)))),
  );
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => sendError(res, toErrorResponse(error)));

  app.useGlobalFilters(new AllExceptionsFilter());
  app.useGlobalPipes(createValidationPipe());
  // After the access guard (an APP_GUARD, registered when the application was created).
  app.useGlobalGuards(new InputShapeGuard());
  app.enableShutdownHooks();

  mountOpenApi(app);
}
