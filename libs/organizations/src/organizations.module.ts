import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ScopedRepositoryModule } from '@svc/platform';
import { Membership } from './membership.entity';
import { Organization } from './organization.entity';
import { OrganizationsController } from './organizations.controller';
import { OrganizationsService } from './organizations.service';
import { PolicyController } from './policy/policy.controller';
import { Policy } from './policy/policy.entity';
import { PolicyService } from './policy/policy.service';

/** The entities this library owns, for a DataSource built outside Nest (tests, tools). */
export const ORGANIZATIONS_ENTITIES = [Organization, Membership, Policy];

@Module({
  imports: [TypeOrmModule.forFeature([Organization, Policy]), ScopedRepositoryModule.forFeature([Membership])],
  controllers: [OrganizationsController, PolicyController],
  providers: [OrganizationsService, PolicyService],
  exports: [OrganizationsService, PolicyService],
})
export class OrganizationsModule {}
