/**
 * The `wellFormed` keyword of our schemas: a string holding a lone surrogate (half of a UTF-16
 * pair without the other half, `"\ud800"` in JSON) is not text. UTF-8 cannot encode it, so it
 * could not be stored as sent (SQLite would keep U+FFFD instead, and two different names would
 * become one); it is refused like any other invalid value, naming the field. A body's bytes that
 * are not UTF-8 arrive as lone surrogates (http/body-parser.ts, `decodeBody`) and are refused
 * the same way.
 * @module
 */
import type { Ajv } from 'ajv';
import { _ } from 'ajv';

export const WELL_FORMED_MESSAGE =
  'must be well-formed text (it holds a lone surrogate, half of a UTF-16 pair, or bytes that are not UTF-8)';

/**
 * Adds the keyword. `String.prototype.isWellFormed` is native (Node 20, Chromium 111): one scan
 * of the string, no allocation, so it stays off the ask route's costs.
 */
export function addWellFormedKeyword(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: 'wellFormed',
    type: 'string',
    schemaType: 'boolean',
    error: { message: WELL_FORMED_MESSAGE },
    code(cxt) {
      if (cxt.schema === true) cxt.fail(_`!${cxt.data}.isWellFormed()`);
    },
  });
}
