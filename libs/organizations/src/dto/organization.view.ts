import { ApiProperty } from '@nestjs/swagger';
import { ORGANIZATION_ID_PATTERN, ROLES, Role } from '@svc/platform';

export class MembershipView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
}

/** The Organization list item of the contract. */
export class OrganizationView {
  @ApiProperty({ pattern: ORGANIZATION_ID_PATTERN }) id!: string;
  @ApiProperty() displayName!: string;
  @ApiProperty({ type: MembershipView }) membership!: MembershipView;
}

export class OrganizationList {
  @ApiProperty({ type: [OrganizationView] }) organizations!: OrganizationView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}
