import { ApiProperty } from '@nestjs/swagger';
import { MembershipView } from '@svc/organizations';
import { ROLES, Role } from '@svc/platform';

export class MemberView {
  @ApiProperty({ format: 'uuid', description: 'The membership id' }) id!: string;
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ description: 'The account has a local password' }) local!: boolean;
  @ApiProperty() disabled!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt!: string;
}

export class MemberPage {
  @ApiProperty({ type: [MemberView] }) items!: MemberView[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export class LocalUserView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: MembershipView }) membership!: MembershipView;
}
