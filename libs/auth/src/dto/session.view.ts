import { ApiProperty } from '@nestjs/swagger';
import type { Session } from '../session.entity';

export class SessionItem {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty({ type: String, format: 'date-time' }) issuedAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: String, format: 'date-time' }) lastSeenAt!: string;
  @ApiProperty({ type: String, nullable: true }) userAgent!: string | null;
  @ApiProperty({ type: String, nullable: true }) address!: string | null;
  @ApiProperty({ description: 'This is the session making the request' }) current!: boolean;
}

export class SessionPage {
  @ApiProperty({ type: [SessionItem] }) sessions!: SessionItem[];
  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}

export function sessionItem(s: Session, currentId: string): SessionItem {
  return {
    id: s.id,
    userId: s.userId,
    issuedAt: s.issuedAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    userAgent: s.userAgent,
    address: s.address,
    current: s.id === currentId,
  };
}
