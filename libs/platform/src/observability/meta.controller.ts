import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Public } from '../access/access.decorators';
import { AppConfig } from '../config/app-config';
import { SERVICE_NAME, SERVICE_VERSION } from '../service-info';

class AuthenticationMethods {
  @ApiProperty() local!: boolean;
  @ApiProperty() oidc!: boolean;
}

export class Meta {
  @ApiProperty({ example: SERVICE_NAME }) service!: string;
  @ApiProperty({ example: SERVICE_VERSION }) version!: string;
  @ApiProperty({ example: '0.1.0' }) contractVersion!: string;
  @ApiProperty({ example: 'pre-release' }) release!: string;
  @ApiProperty({ type: AuthenticationMethods }) authentication!: AuthenticationMethods;
}

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
