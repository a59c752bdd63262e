import { Injectable } from '@nestjs/common';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { InvalidInputError } from '@svc/platform';
import { INTEGRATION_TYPES, IntegrationType, JsonSchema } from './integration-types';

function describe(errors: ErrorObject[] | null | undefined, field: string): string {
  const first = errors?.[0];
  if (!first) return `${field} is invalid`;
  const where = `${field}${first.instancePath.replace(/\//g, '.')}`;
  if (first.keyword === 'additionalProperties')
    return `${where} has unknown property ${String((first.params as { additionalProperty: string }).additionalProperty)}`;
  if (first.keyword === 'oneOf' || first.keyword === 'required') return `${where} ${first.message ?? 'is invalid'}`;
  return `${where} ${first.message ?? 'is invalid'}`;
}

/**
 * Validates config and credentials against the catalog's schemas: the same schemas that
 * GET /integration-types publishes, so what a client reads is what the service enforces.
 */
@Injectable()
export class IntegrationSchemaValidator {
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    const ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false });
    addFormats(ajv, ['uri']);
    for (const type of INTEGRATION_TYPES) {
      this.compiled.set(`${type.id}:config`, ajv.compile(type.configSchema));
      if (type.credentialsSchema) this.compiled.set(`${type.id}:credentials`, ajv.compile(type.credentialsSchema as JsonSchema));
    }
  }

  config(type: IntegrationType, value: unknown): void {
    const validate = this.compiled.get(`${type.id}:config`)!;
    if (!validate(value)) throw new InvalidInputError(`Invalid input: ${describe(validate.errors, 'config')}`);
  }

  credentials(type: IntegrationType, value: unknown): void {
    const validate = this.compiled.get(`${type.id}:credentials`);
    if (!validate) throw new InvalidInputError(`Invalid input: ${type.id} integrations take no credentials`);
    if (!validate(value)) throw new InvalidInputError(`Invalid input: ${describe(validate.errors, 'credentials')}`);
  }
}
