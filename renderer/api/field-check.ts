/**
 * Live validation with the service's own schemas (the same limits as the server), by Ajv
 * validators compiled at build time (renderer/api/field-schemas.ts): the editor compiles no code
 * at run time, so its CSP needs no 'unsafe-eval'. Only plain, browser-safe modules of the
 * service are imported.
 * @module
 */
import type { TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { describeValidationError } from '../../electron/service/validation/ajv';
import { FIELD_SCHEMAS } from './field-schemas';
import * as validators from './generated/field-validators';
import type { Problem } from './problem';

const byName: Record<string, ValidateFunction | undefined> = { ...validators };

/** The validator compiled at build time for this very schema object. */
function precompiled(schema: TSchema): ValidateFunction {
  const entry = Object.entries(FIELD_SCHEMAS).find(([, listed]) => listed === schema);
  const validate = entry && byName[entry[0]];
  if (!validate) {
    throw new Error('A field schema not listed in renderer/api/field-schemas.ts: add it there.');
  }
  return validate;
}

/** One problem with one value: what is needed to say it, plus the server's sentence. */
export interface FieldProblem extends Problem {
  /** The field at fault (`questions[2]`), or the checked field itself. */
  field: string;
  /** The server's English sentence (for logs and tests; the user sees describeProblem's). */
  message: string;
}

export type FieldCheck = (value: unknown) => FieldProblem | null;

/**
 * The check of `schema` (one of renderer/api/field-schemas.ts, compiled at build time); it names
 * the value `name` (an API field name).
 */
export function compileCheck(schema: TSchema, name: string): FieldCheck {
  const validate = precompiled(schema);
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
