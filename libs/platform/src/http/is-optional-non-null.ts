import { ValidateIf } from 'class-validator';

/**
 * An optional property that cannot be null (decisions §4): absent skips validation, but `null` is
 * validated like any value and so refused by the type rule that follows, naming the field.
 * class-validator's IsOptional lets null through, which made `{"disabled": null}` disable a member.
 */
export function IsOptionalNonNull(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
