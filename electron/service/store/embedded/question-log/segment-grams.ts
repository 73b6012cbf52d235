/**
 * A closed segment's text filter (`.grams` beside its `.jsonl`): one bit per hashed trigram (three
 * UTF-16 code units) of every question and user id its lines hold, written once the segment is
 * closed (a newer one took over). A text search skips a segment whose filter lacks a trigram of
 * each spelling it looks for: such a segment cannot hold the text, and its bytes are not read
 * (decision 106). A spelling of fewer than three code units is never skipped; a filter may say
 * "maybe" wrongly (two trigrams on one bit), never "no" wrongly.
 *
 * The file: a header of 8 bytes (the segment's line bytes the filter covers, as a uint32, and the
 * filter's byte length, as a uint32), then the bits. A filter covering fewer bytes than the
 * segment holds (a line written to it after it closed) is not used.
 * @module
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { FILE_MODE } from '../../../files/durable-fs';

const HEADER_BYTES = 8;
/** Filter bytes per segment byte (1/64): about 1.5% of the log. */
const BYTES_PER_FILTER_BYTE = 64;
const FILTER_MIN = 1024;
const FILTER_MAX = 64 * 1024;

/** The filter's size for a segment of `bytes`: a power of two within bounds. */
export function filterBytesFor(bytes: number): number {
  let size = FILTER_MIN;
  while (size < FILTER_MAX && size * BYTES_PER_FILTER_BYTE < bytes) size *= 2;
  return size;
}

export const gramsPathOf = (segmentPath: string): string =>
  `${segmentPath.slice(0, -'.jsonl'.length)}.grams`;

/** The bit of the trigram starting at `i` (a mix of its three code units). */
function gramBit(text: string, i: number, mask: number): number {
  let hash = Math.imul(text.charCodeAt(i), 0x9e3779b1);
  hash = Math.imul(hash ^ text.charCodeAt(i + 1), 0x85ebca77);
  hash = Math.imul(hash ^ text.charCodeAt(i + 2), 0xc2b2ae3d);
  return (hash ^ (hash >>> 15)) & mask;
}

export class GramFilter {
  private readonly mask: number;

  constructor(
    readonly bits: Uint8Array,
    /** The segment's line bytes it covers. */
    readonly covers: number,
  ) {
    this.mask = bits.length * 8 - 1;
  }

  static empty(bytes: number): GramFilter {
    return new GramFilter(new Uint8Array(filterBytesFor(bytes)), 0);
  }

  add(text: string): void {
    for (let i = 0; i + 2 < text.length; i++) {
      const bit = gramBit(text, i, this.mask);
      this.bits[bit >>> 3] = (this.bits[bit >>> 3] as number) | (1 << (bit & 7));
    }
  }

  /** Whether some text added may hold `text` (false: none does). */
  mayHold(text: string): boolean {
    for (let i = 0; i + 2 < text.length; i++) {
      const bit = gramBit(text, i, this.mask);
      if (((this.bits[bit >>> 3] as number) & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  }

  /** The same bits, covering `bytes` of the segment. */
  covering(bytes: number): GramFilter {
    return new GramFilter(this.bits, bytes);
  }

  get fileBytes(): number {
    return HEADER_BYTES + this.bits.length;
  }

  /** Writes the filter beside its segment (whole or not at all: a torn file is not read). */
  async save(path: string): Promise<void> {
    const bytes = Buffer.alloc(this.fileBytes);
    bytes.writeUInt32LE(this.covers, 0);
    bytes.writeUInt32LE(this.bits.length, 4);
    bytes.set(this.bits, HEADER_BYTES);
    const temporary = `${path}.tmp`;
    try {
      await writeFile(temporary, bytes, { mode: FILE_MODE });
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** A filter read back, or null when the file is not a whole one. */
  static parse(bytes: Buffer): GramFilter | null {
    if (bytes.length < HEADER_BYTES) return null;
    const length = bytes.readUInt32LE(4);
    if (length === 0 || (length & (length - 1)) !== 0 || bytes.length !== HEADER_BYTES + length)
      return null;
    return new GramFilter(new Uint8Array(bytes.subarray(HEADER_BYTES)), bytes.readUInt32LE(0));
  }
}

/**
 * Whether a segment whose filter is `filter` may hold one of `variants` (the spellings a text
 * search looks for): always, without a filter or for a spelling too short to have a trigram.
 */
export function mayHoldAny(filter: GramFilter | null, variants: readonly string[]): boolean {
  if (filter === null) return true;
  return variants.some((variant) => variant.length < 3 || filter.mayHold(variant));
}
