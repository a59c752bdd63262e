import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Column, DataSource, Entity } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataSourceOptions,
  InjectScopedRepository,
  MissingOrganizationError,
  newId,
  OrganizationOwnedEntity,
  ScopedRepository,
  ScopedRepositoryModule,
} from '@svc/platform';
import { createTestDatabase } from '../support/databases';

@Entity('probe_rows')
class ProbeRow extends OrganizationOwnedEntity {
  @Column({ type: 'text' })
  name!: string;
}

@Injectable()
class ProbeService {
  constructor(@InjectScopedRepository(ProbeRow) readonly rows: ScopedRepository<ProbeRow>) {}
}

describe('ScopedRepositoryModule.forFeature and @InjectScopedRepository', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let close: () => Promise<void>;
  let service: ProbeService;

  beforeAll(async () => {
    db = await createTestDatabase();
    const moduleRef = await Test.createTestingModule({
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions({ url: db.url }), autoLoadEntities: true }), ScopedRepositoryModule.forFeature([ProbeRow])],
      providers: [ProbeService],
    }).compile();
    await moduleRef
      .get(DataSource)
      .query('CREATE TABLE probe_rows (organization_id text NOT NULL, id uuid NOT NULL, name text NOT NULL, PRIMARY KEY (organization_id, id))');
    service = moduleRef.get(ProbeService);
    close = () => moduleRef.close();
  });
  afterAll(async () => {
    await close?.();
    await db?.drop();
  });

  it('injects a ScopedRepository of the entity that keeps its fail-closed rules', async () => {
    expect(service.rows).toBeInstanceOf(ScopedRepository);
    const id = newId();
    await service.rows.insert('org-a', { id, name: 'a' });
    await service.rows.insert('org-b', { id, name: 'b' });
    expect((await service.rows.find('org-a')).map((r) => [r.organizationId, r.name])).toEqual([['org-a', 'a']]);
    await expect(service.rows.find('')).rejects.toBeInstanceOf(MissingOrganizationError);
    expect(() => service.rows.query('org-a', 'p').where('1=1')).toThrow(/andWhere/);
  });
});
