/**
 * The forward lists' encoding: each term id as a little-endian base-128 varint (seven bits a
 * byte, the high bit set on every byte but the last). Ids are given in first-seen order, so a
 * knowledge base's common words take one or two bytes and only its long tail (numbers, codes)
 * three: 1.5 bytes a term at the bench's 100k rules instead of the four of an Int32Array.
 * @module
 */

/** Bytes an id may take (ids below 2^35). */
export const MAX_TERM_BYTES = 5;

/** Writes `term` at `at`; returns the position after it. `bytes` must have room. */
export function writeTerm(bytes: Uint8Array, at: number, term: number): number {
  let rest = term;
  let position = at;
  while (rest > 0x7f) {
    bytes[position] = (rest & 0x7f) | 0x80;
    position += 1;
    rest = Math.floor(rest / 128);
  }
  bytes[position] = rest;
  return position + 1;
}

/**
 * Reads term ids one after another. Each reader of the forward lists keeps one (no allocation
 * per question); `reset` points it at a byte position, `next` returns the id there and moves on.
 */
export class TermCursor {
  private bytes: Uint8Array = new Uint8Array(0);
  /** The byte position of the next id. */
  at = 0;

  reset(bytes: Uint8Array, at: number): void {
    this.bytes = bytes;
    this.at = at;
  }

  next(): number {
    const bytes = this.bytes;
    let at = this.at;
    let term = bytes[at] as number;
    at += 1;
    if (term > 0x7f) {
      term &= 0x7f;
      let scale = 128;
      for (;;) {
        const byte = bytes[at] as number;
        at += 1;
        term += (byte & 0x7f) * scale;
        if (byte <= 0x7f) break;
        scale *= 128;
      }
    }
    this.at = at;
    return term;
  }
}
