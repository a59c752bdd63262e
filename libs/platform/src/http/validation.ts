import { ValidationError, ValidationPipe } from '@nestjs/common';
import { InvalidInputError } from './domain-error';

function describe(errors: ValidationError[], prefix = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    for (const [rule, message] of Object.entries(e.constraints ?? {})) {
      out.push(rule === 'whitelistValidation' ? `unknown property ${path}` : message.replace(e.property, path));
    }
    if (e.children?.length) out.push(...describe(e.children, path));
  }
  return out;
}

/** Whitelisting, unknown properties refused, types transformed; every failure a 400 naming the field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new InvalidInputError(`Invalid input: ${describe(errors).join('; ')}`),
  });
}
