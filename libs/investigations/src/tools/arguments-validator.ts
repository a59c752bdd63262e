import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

function describe(error: ErrorObject | undefined): string {
  if (!error) return 'arguments are invalid';
  const where = `arguments${error.instancePath.replace(/\//g, '.')}`;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where} has unknown property ${String((error.params as { additionalProperty: string }).additionalProperty)}`;
    case 'format':
      return (error.params as { format: string }).format === 'date-time'
        ? `${where} must be an RFC 3339 timestamp such as 2026-01-02T03:04:05Z`
        : `${where} ${error.message}`;
    case 'enum':
      return `${where} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

/** Checks tool arguments against each tool's JSON Schema: the one a language model is shown is the one enforced. */
export class ArgumentsValidator {
  private readonly ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv, ['date-time']);
  }

  add(name: string, schema: Record<string, unknown>): void {
    this.compiled.set(name, this.ajv.compile(schema));
  }

  /** Null when valid, else one sentence naming the first problem. */
  check(name: string, args: unknown): string | null {
    const validate = this.compiled.get(name);
    if (!validate) return `no schema for ${name}`;
    return validate(args) ? null : describe(validate.errors?.[0]);
  }
}
