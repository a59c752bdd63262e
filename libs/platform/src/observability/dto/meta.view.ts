import { ApiProperty } from '@nestjs/swagger';
import { SERVICE_NAME, SERVICE_VERSION } from '../../service-info';

export class AuthenticationMethods {
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
