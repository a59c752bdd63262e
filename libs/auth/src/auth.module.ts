import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '@svc/organizations';
import { ScopedRepositoryModule } from '@svc/platform';
import { AccessGuard } from './access.guard';
import { ApiToken } from './api-token.entity';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokensService } from './api-tokens.service';
import { BootstrapCredential } from './bootstrap-credential';
import { LocalAuthController } from './local-auth.controller';
import { LocalAuthService } from './local-auth.service';
import { LocalUsersController } from './local-users.controller';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { Passwords } from './passwords';
import { PermissionsController } from './permissions.controller';
import { Session } from './session.entity';
import { SessionController } from './session.controller';
import { SessionStrategy } from './session.strategy';
import { SessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { RequestRateLimit } from './request-rate-limit';
import { SignInLocksRepository } from './sign-in-locks.repository';
import { SignInThrottle } from './sign-in-throttle';
import { User } from './user.entity';

/** The entities this library owns (OIDC identities are the OIDC module's), for a DataSource built outside Nest. */
export const AUTH_ENTITIES = [User, Session, ApiToken];

/** Sign-in, sessions, and the global access guard every route passes. */
@Module({
  imports: [TypeOrmModule.forFeature([User, Session]), ScopedRepositoryModule.forFeature([ApiToken]), PassportModule, OrganizationsModule],
  controllers: [
    LocalAuthController,
    SessionController,
    PermissionsController,
    MembersController,
    LocalUsersController,
    SessionsController,
    ApiTokensController,
  ],
  providers: [
    Passwords,
    SessionsService,
    SessionStrategy,
    LocalAuthService,
    BootstrapCredential,
    MembersService,
    SignInThrottle,
    ApiTokensService,
    RequestRateLimit,
    SignInLocksRepository,
    AccessGuard,
    { provide: APP_GUARD, useExisting: AccessGuard },
  ],
  exports: [SessionsService, Passwords, SignInLocksRepository],
})
export class AuthModule {}
