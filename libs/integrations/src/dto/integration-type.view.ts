import { ApiProperty } from '@nestjs/swagger';
import type { IntegrationType } from '../catalog/integration-types';

/** The catalog of integration types; each item is described by the integration-types document of the contract. */
export class IntegrationTypeList {
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Each type with its capabilities and the JSON Schemas of its config and credentials',
  })
  items!: IntegrationType[];

  @ApiProperty({ type: String, nullable: true }) next!: string | null;
}
