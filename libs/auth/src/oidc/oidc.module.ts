import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '@svc/organizations';
import { AuthModule } from '../auth.module';
import { OidcController } from './oidc.controller';
import { OidcIdentity } from './oidc-identity.entity';
import { OidcIssuer } from './oidc-issuer';
import { OidcSignInService } from './oidc-sign-in.service';

/** Generic OpenID Connect sign-in (decisions §2), beside local sign-in; sessions come from AuthModule. */
@Module({
  imports: [TypeOrmModule.forFeature([OidcIdentity]), AuthModule, OrganizationsModule],
  controllers: [OidcController],
  providers: [OidcIssuer, OidcSignInService],
})
export class OidcModule {}
