import { Controller, Get, OnModuleInit } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { AppConfig } from '../config/app-config';
import { LeanRoutes } from '../http/lean-routes';
import { SERVICE_NAME, SERVICE_VERSION } from '../service-info';
import { Meta } from './dto/meta.view';

/**
 * What the service is, for clients before they sign in. The document is fixed for the process's
 * life, so it is written once and answered as a lean route (ahead of Express's and Nest's
 * routers, after the common steps: security headers, request id, access log, metrics); a request
 * with a query string falls through to this controller, which refuses unknown parameters.
 */
@ApiTags('meta')
@Controller('api/v1/meta')
export class MetaController implements OnModuleInit {
  private readonly meta: Meta;
  private readonly body: string;

  constructor(
    config: AppConfig,
    private readonly leanRoutes: LeanRoutes,
  ) {
    this.meta = {
      service: SERVICE_NAME,
      version: SERVICE_VERSION,
      contractVersion: '0.1.0',
      release: 'pre-release',
      authentication: { local: true, oidc: config.oidcConfigured },
    };
    this.body = JSON.stringify(this.meta);
  }

  onModuleInit(): void {
    this.leanRoutes.register({
      method: 'GET',
      pattern: /^\/api\/v1\/meta$/,
      template: '/api/v1/meta',
      bodiless: true,
      handle: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(this.body) });
        res.end(this.body);
        return Promise.resolve();
      },
    });
  }

  @Public()
  @Get()
  @ApiOkResponse({ type: Meta })
  get(): Meta {
    return this.meta;
  }
}
