import { ApiProperty } from '@nestjs/swagger';
import { OrganizationView } from '@svc/organizations';
import type { Timestamp } from '@svc/platform';

export class UserView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
}

/** What bootstrap and sign-in return, beside the session cookie. */
export class SignedInView {
  @ApiProperty({ type: UserView }) user!: UserView;
  @ApiProperty({ type: [OrganizationView] }) organizations!: OrganizationView[];
}

export class SessionInfo {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, format: 'date-time' }) issuedAt!: Timestamp;
  @ApiProperty({ type: String, format: 'date-time', description: 'Absolute end of the session' }) expiresAt!: Timestamp;
  @ApiProperty({ type: String, format: 'date-time' }) lastSeenAt!: Timestamp;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the session ends unless used before' }) idleExpiresAt!: Timestamp;
}

export class CurrentSessionView {
  @ApiProperty({ type: SessionInfo }) session!: SessionInfo;
  @ApiProperty({ type: UserView }) user!: UserView;
  @ApiProperty({ type: OrganizationView, nullable: true, description: "The active Organization and the caller's role in it" })
  organization!: OrganizationView | null;
}
