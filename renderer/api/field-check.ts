/**
 * Live validation with the service's own schemas and Ajv (the same limits as the server). Only
 * plain, browser-safe modules of the service are imported.
 * @module
 */
import type { TSchema } from '@sinclair/typebox';
import { createAjv, describeValidationError } from '../../electron/service/validation/ajv';
import type { Problem } from './problem';

const ajv = createAjv();

/** One problem with one value: what is needed to say it, plus the server's sentence. */
export interface FieldProblem extends Problem {
  /** The field at fault (`questions[2]`), or the checked field itself. */
  field: string;
  /** The server's English sentence (for logs and tests; the user sees describeProblem's). */
  message: string;
}

export type FieldCheck = (value: unknown) => FieldProblem | null;

/** Compiles `schema` once; the check names the value `name` (an API field name). */
export function compileCheck(schema: TSchema, name: string): FieldCheck {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return null;
    const error = validate.errors?.[0];
    if (!error) return { field: name, message: `${name} is invalid.`, keyword: '', params: {} };
    const problem = describeValidationError(error, name);
    return {
      field: fieldPath(name, error.instancePath),
      message: problem.message,
      keyword: problem.keyword,
      params: problem.params,
    };
  };
}

/** `questions` + `/2` → `questions[2]`; `synonyms` + `/0/1` → `synonyms[0][1]`. */
export function fieldPath(name: string, instancePath: string): string {
  return (
    name +
    instancePath
      .split('/')
      .slice(1)
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
      .join('')
  );
}
