/**
 * FNV-1a over a text's UTF-16 code units, as a signed 32-bit integer: cheap, and stable across
 * versions. Stored on disk by the embedded log's index and in PostgreSQL's user and rule hash
 * columns, so its value may never change; the matcher keys its phrasings by it in memory.
 * @module
 */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
