/**
 * The CSV rows of the question log's segments: what an export streams (segment-export.ts), made
 * from the segment files as they were when it began (their paths, their day, the bytes their
 * index covered). The rows are those of `csvRow` for each entry decoded from its line, oldest
 * first, in chunks of about a given number of characters.
 * @module
 */
import { open } from 'node:fs/promises';
import { csvRow } from '../../../question-log-types';
import { decodeLine } from './segment-line';

/** A segment as an export reads it. */
export interface ExportSegment {
  path: string;
  dayStart: number;
  /** Its line bytes when the export began (later lines are not in it). */
  bytes: number;
}

export interface ExportJob {
  segments: ExportSegment[];
  /** The entries' times: [from, to). */
  from: number;
  to: number;
}

/**
 * The lines of a segment up to `bytes`, a chunk of lines at a time (nothing when it is gone: the
 * budgets may drop it meanwhile, and its entries are then no more). One buffer serves every read:
 * the bytes after a chunk's last newline (a line, or a character, two reads cut) move to its
 * start and the next read goes after them, so that reading a segment allocates no bytes per read
 * (a new buffer a read was garbage the collector only freed later: decision 202). A line longer
 * than the buffer doubles it.
 */
async function* lineChunks(segment: ExportSegment, readBytes: number): AsyncGenerator<string[]> {
  let handle;
  try {
    handle = await open(segment.path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    let buffer = Buffer.allocUnsafe(readBytes);
    let kept = 0;
    for (let at = 0; at < segment.bytes;) {
      if (kept === buffer.length) {
        const larger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(larger, 0, 0, kept);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(
        buffer,
        kept,
        Math.min(buffer.length - kept, segment.bytes - at),
        at,
      );
      if (bytesRead === 0) break;
      at += bytesRead;
      const end = kept + bytesRead;
      const last = buffer.lastIndexOf(10, end - 1);
      if (last < 0) {
        kept = end;
        continue;
      }
      const text = buffer.toString('utf8', 0, last + 1);
      kept = buffer.copy(buffer, 0, last + 1, end);
      yield text.split('\n');
    }
  } finally {
    await handle.close();
  }
}

/**
 * The CSV rows of the job's entries (no header), about `chunkText` characters at a time, its
 * files read `readBytes` at a time.
 */
export async function* csvChunks(
  job: ExportJob,
  chunkText: number,
  readBytes: number,
): AsyncGenerator<string> {
  let text = '';
  for (const segment of job.segments) {
    for await (const lines of lineChunks(segment, readBytes)) {
      for (const line of lines) {
        if (line.length === 0) continue;
        const entry = decodeLine(line, segment.dayStart);
        if (!entry || entry.at < job.from || entry.at >= job.to) continue;
        text += `${csvRow(entry)}\r\n`;
        if (text.length >= chunkText) {
          yield text;
          text = '';
        }
      }
    }
  }
  if (text.length > 0) yield text;
}
