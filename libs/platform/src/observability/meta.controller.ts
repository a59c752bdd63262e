import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { AppConfig } from '../config/app-config';
import { SERVICE_NAME, SERVICE_VERSION } from '../service-info';
import { Meta } from './dto/meta.view';

@ApiTags('meta')
@Controller('api/v1/meta')
export class MetaController {
  constructor(private readonly config: AppConfig) {}

  @Public()
  @Get()
  @ApiOkResponse({ type: Meta })
  get(): Meta {
    return {
      service: SERVICE_NAME,
      version: SERVICE_VERSION,
      contractVersion: '0.1.0',
      release: 'pre-release',
      authentication: { local: true, oidc: this.config.oidcConfigured },
    };
  }
}
