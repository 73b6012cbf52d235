/**
 * Log lines waiting for their write, kept as UTF-8 in chunks outside the JavaScript heap.
 * @module
 */

/**
 * Bytes of the first chunk; each next one is twice the last, up to the largest (a second of asks
 * under load fills a few of those). Small first: every robot asked within the second has a buffer.
 */
export const FIRST_CHUNK_BYTES = 4 * 1024;
const LARGEST_CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/**
 * Each line is copied into the chunk as it comes, so its string dies young: held for up to a
 * second as strings, the lines of a busy robot outlived the young generation, and ask throughput
 * with the log on rose from ~0.94 to ~0.96 of off once they no longer did (docs/question-log.md).
 */
export class LineBuffer {
  private readonly full: Buffer[] = [];
  private current: Buffer | null = null;
  private used = 0;
  private nextChunkBytes = FIRST_CHUNK_BYTES;
  /** Lines added. */
  count = 0;

  add(line: string): void {
    // UTF-8 takes at most 3 bytes for each UTF-16 unit of the line, and 1 for the newline.
    const room = line.length * 3 + 1;
    if (this.current === null || this.current.length - this.used < room) {
      if (this.current !== null) this.full.push(this.current.subarray(0, this.used));
      this.current = Buffer.allocUnsafeSlow(Math.max(this.nextChunkBytes, room));
      this.nextChunkBytes = Math.min(LARGEST_CHUNK_BYTES, this.nextChunkBytes * 2);
      this.used = 0;
    }
    this.used += this.current.write(line, this.used);
    this.current[this.used++] = NEWLINE;
    this.count += 1;
  }

  /** The bytes of every line, each followed by a newline, in order. */
  chunks(): Buffer[] {
    return this.current === null
      ? [...this.full]
      : [...this.full, this.current.subarray(0, this.used)];
  }

  lines(): string[] {
    const text = Buffer.concat(this.chunks()).toString('utf8');
    return text === '' ? [] : text.slice(0, -1).split('\n');
  }
}
