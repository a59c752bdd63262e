import { ApiProperty } from '@nestjs/swagger';
import { Permission, PERMISSIONS, Role, ROLES } from '@svc/platform';

export class PermissionsView {
  @ApiProperty({ enum: ROLES }) role!: Role;
  @ApiProperty({ type: [String], enum: Object.keys(PERMISSIONS) }) permissions!: Permission[];
}
