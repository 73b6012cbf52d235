/**
 * Live validation with the service's own schemas and Ajv (the same limits and, in English, the
 * same sentences as the server). Only plain, browser-safe modules of the service are imported.
 * @module
 */
import type { TSchema } from '@sinclair/typebox';
import { createAjv, describeValidationError } from '../../electron/service/validation/ajv';

const ajv = createAjv();

/** One problem with one value: the server's sentence plus what is needed to translate it. */
export interface FieldProblem {
  /** The field at fault (`questions[2]`), or the checked field itself. */
  field: string;
  /** The server's English sentence. */
  message: string;
  keyword: string;
  params: Record<string, unknown>;
}

export type FieldCheck = (value: unknown) => FieldProblem | null;

/** Compiles `schema` once; the check names the value `name` in its sentences. */
export function compileCheck(schema: TSchema, name: string): FieldCheck {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return null;
    const error = validate.errors?.[0];
    if (!error) return { field: name, message: `${name} is invalid.`, keyword: '', params: {} };
    const problem = describeValidationError(error, name);
    return {
      field: problem.field ?? name,
      message: problem.message,
      keyword: error.keyword,
      params: error.params as Record<string, unknown>,
    };
  };
}
