import { PrimaryColumn } from 'typeorm';

/**
 * Base of every table that holds an Organization's data: the primary key is
 * (organization_id, id), so children reference their parent with a composite foreign key and
 * can never point at another Organization's row.
 */
export abstract class OrganizationOwnedEntity {
  @PrimaryColumn({ type: 'text' })
  organizationId!: string;

  @PrimaryColumn({ type: 'uuid' })
  id!: string;
}
