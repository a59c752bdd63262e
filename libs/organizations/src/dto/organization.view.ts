import { ApiProperty } from '@nestjs/swagger';
import { ROLES, Role } from '@svc/platform';

export class MembershipView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
}

/** The Organization list item of the contract. */
export class OrganizationView {
  @ApiProperty({ pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$' }) id!: string;
  @ApiProperty() displayName!: string;
  @ApiProperty({ type: MembershipView }) membership!: MembershipView;
}

export class OrganizationList {
  @ApiProperty({ type: [OrganizationView] }) organizations!: OrganizationView[];
}
