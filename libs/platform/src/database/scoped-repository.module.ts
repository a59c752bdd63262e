import { DynamicModule, Inject, Module, Provider } from '@nestjs/common';
import { getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OrganizationOwnedEntity } from './organization-owned.entity';
import { ScopedRepository } from './scoped-repository';

type OwnedEntityClass = new (...args: never[]) => OrganizationOwnedEntity;

const tokens = new WeakMap<OwnedEntityClass, symbol>();

/** The injection token of an entity's ScopedRepository (one per entity class, whatever its name). */
export function getScopedRepositoryToken(entity: OwnedEntityClass): symbol {
  let token = tokens.get(entity);
  if (!token) {
    token = Symbol(`ScopedRepository<${entity.name}>`);
    tokens.set(entity, token);
  }
  return token;
}

/** Injects the ScopedRepository of an entity registered with `ScopedRepositoryModule.forFeature`. */
export const InjectScopedRepository = (entity: OwnedEntityClass): ParameterDecorator & PropertyDecorator => Inject(getScopedRepositoryToken(entity));

/**
 * How a library gets the scoped repositories of its Organization-owned entities: list them in
 * `forFeature` and inject each with `@InjectScopedRepository(Entity)`. Services never build one
 * by hand, so every read and write of an Organization's rows goes through the one fail-closed door.
 * The module also registers (and exports) the plain TypeORM repositories of those entities.
 */
@Module({})
export class ScopedRepositoryModule {
  static forFeature(entities: OwnedEntityClass[]): DynamicModule {
    const typeOrm = TypeOrmModule.forFeature(entities);
    const providers: Provider[] = entities.map((entity) => ({
      provide: getScopedRepositoryToken(entity),
      inject: [getRepositoryToken(entity)],
      useFactory: (repository: Repository<OrganizationOwnedEntity>) => new ScopedRepository(repository),
    }));
    return { module: ScopedRepositoryModule, imports: [typeOrm], providers, exports: [...providers, typeOrm] };
  }
}
