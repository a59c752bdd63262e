import { ApiProperty } from '@nestjs/swagger';
import { ROLES, Role } from '@svc/platform';

export class ApiTokenView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ format: 'uuid' }) createdBy!: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt!: string | null;
}

export class CreatedApiTokenView extends ApiTokenView {
  @ApiProperty({ description: 'The token itself: shown this once, never again' }) token!: string;
}

export class ApiTokenPage {
  @ApiProperty({ type: [ApiTokenView] }) items!: ApiTokenView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}
