import { EntityManager, EntityTarget, FindOptionsOrder, FindOptionsWhere, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { OrganizationOwnedEntity } from './organization-owned.entity';
import { isOrganizationId } from '../organization-id';

export class MissingOrganizationError extends Error {
  constructor(operation: string) {
    super(`Organization-scoped ${operation} called without an Organization`);
  }
}

function requireOrganization(organizationId: unknown, operation: string): string {
  if (!isOrganizationId(organizationId)) {
    throw new MissingOrganizationError(operation);
  }
  return organizationId;
}

type Where<T> = FindOptionsWhere<T> | FindOptionsWhere<T>[];
/** Column values as the entity declares them (jsonb columns included); the Organization comes from the scope. */
type Values<T> = Omit<Partial<T>, 'organizationId'>;

/**
 * The only door to an Organization's rows. Every method takes the Organization first and adds it
 * to the query itself; there is no method without one, a missing or malformed Organization throws,
 * and a caller cannot widen the scope (setting organizationId in a condition throws, and the query
 * builder refuses `where`/`orWhere`, which would replace or escape the Organization condition).
 */
export class ScopedRepository<T extends OrganizationOwnedEntity> {
  constructor(private readonly repository: Repository<T>) {}

  static of<E extends OrganizationOwnedEntity>(manager: EntityManager, target: EntityTarget<E>): ScopedRepository<E> {
    return new ScopedRepository(manager.getRepository(target));
  }

  /** The same repository bound to a transaction's manager. */
  withManager(manager: EntityManager): ScopedRepository<T> {
    return new ScopedRepository(manager.getRepository(this.repository.target));
  }

  async find(organizationId: string, options: { where?: Where<T>; order?: FindOptionsOrder<T>; take?: number } = {}): Promise<T[]> {
    const org = requireOrganization(organizationId, 'find');
    return this.repository.find({ where: this.scope(org, options.where), order: options.order, take: options.take });
  }

  async findOne(organizationId: string, where: Where<T>): Promise<T | null> {
    const org = requireOrganization(organizationId, 'findOne');
    return this.repository.findOne({ where: this.scope(org, where) });
  }

  async findById(organizationId: string, id: string): Promise<T | null> {
    return this.findOne(organizationId, { id } as FindOptionsWhere<T>);
  }

  async count(organizationId: string, where?: Where<T>): Promise<number> {
    const org = requireOrganization(organizationId, 'count');
    return this.repository.count({ where: this.scope(org, where) });
  }

  async insert(organizationId: string, values: Values<T> | Values<T>[]): Promise<void> {
    const org = requireOrganization(organizationId, 'insert');
    const rows = (Array.isArray(values) ? values : [values]).map((v) => {
      if ('organizationId' in (v as object)) throw new Error('organizationId is set by the scope, not by the caller');
      return { ...v, organizationId: org } as unknown as QueryDeepPartialEntity<T>;
    });
    await this.repository.insert(rows);
  }

  /** Returns the number of rows changed. */
  async update(organizationId: string, where: FindOptionsWhere<T>, values: Values<T>): Promise<number> {
    const org = requireOrganization(organizationId, 'update');
    if ('organizationId' in (values as object)) throw new Error('organizationId cannot be changed');
    const result = await this.repository.update(this.scope(org, where) as FindOptionsWhere<T>, values as unknown as QueryDeepPartialEntity<T>);
    return result.affected ?? 0;
  }

  /** Returns the number of rows deleted. */
  async delete(organizationId: string, where: FindOptionsWhere<T>): Promise<number> {
    const org = requireOrganization(organizationId, 'delete');
    const result = await this.repository.delete(this.scope(org, where) as FindOptionsWhere<T>);
    return result.affected ?? 0;
  }

  /**
   * A query builder already restricted to the Organization. Add conditions with `andWhere`
   * (use Brackets for alternatives); `where` and `orWhere` throw.
   */
  query(organizationId: string, alias: string): SelectQueryBuilder<T> {
    const org = requireOrganization(organizationId, 'query');
    const qb = this.repository.createQueryBuilder(alias).where(`${alias}.organization_id = :__organizationId`, { __organizationId: org });
    return new Proxy(qb, {
      get(target, property, receiver) {
        if (property === 'where' || property === 'orWhere') {
          return () => {
            throw new Error(`${String(property)}() would escape the Organization scope; use andWhere()`);
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  }

  private scope(organizationId: string, where: Where<T> | undefined): Where<T> {
    const clauses = where === undefined ? [{} as FindOptionsWhere<T>] : Array.isArray(where) ? where : [where];
    if (clauses.length === 0) clauses.push({} as FindOptionsWhere<T>);
    const scoped = clauses.map((clause) => {
      if ('organizationId' in (clause as ObjectLiteral)) throw new Error('organizationId is set by the scope, not by the caller');
      return { ...clause, organizationId } as FindOptionsWhere<T>;
    });
    return scoped.length === 1 ? scoped[0] : scoped;
  }
}
