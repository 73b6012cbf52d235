/**
 * The key of a cached vector in both stores: the SHA-256 of the model's name and the text, so
 * that neither is kept in the clear beside the vector and every key has one length.
 * @module
 */
import { createHash } from 'node:crypto';

export function vectorKey(model: string, text: string): string {
  return createHash('sha256').update(model).update('\u0000').update(text).digest('base64url');
}
