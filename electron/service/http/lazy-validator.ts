import type { Ajv, AnySchema, ValidateFunction } from 'ajv';

/**
 * A validator compiled on its first use: Ajv generates and compiles code for every schema, which
 * for all the routes is a tenth of a second at start, mostly for routes a run may never see.
 */
export function lazyValidator(ajv: Ajv, schema: AnySchema): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= ajv.compile(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction;
  return validate;
}
