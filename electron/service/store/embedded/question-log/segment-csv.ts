/**
 * The CSV rows of the question log's segments (decision 133): what an export streams, made from
 * the segment files alone (their paths, their day, the bytes their index covered when the export
 * began), so that a worker thread can make them with its own heap (segment-export.ts). The
 * rows are those of `csvRow` for each entry decoded from its line, oldest first, in chunks of
 * about CHUNK_TEXT characters: byte for byte what the export made on the event loop.
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
  /** Where its lines start for this job (a line's start; 0 when absent). */
  start?: number;
}

export interface ExportJob {
  segments: ExportSegment[];
  /** The entries' times: [from, to). */
  from: number;
  to: number;
}

/** Bytes of a segment read at a time. */
const READ_BYTES = 1024 * 1024;
/** Characters of CSV handed over at a time. */
export const CHUNK_TEXT = 256 * 1024;

/**
 * The lines of a segment up to `bytes`, a chunk of lines at a time (nothing when it is gone: the
 * budgets may drop it meanwhile, and its entries are then no more).
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
    const buffer = Buffer.alloc(readBytes);
    // The bytes after the last newline read: a line (or a character) that two reads cut.
    let carry = Buffer.alloc(0);
    for (let at = segment.start ?? 0; at < segment.bytes;) {
      const { bytesRead } = await handle.read(
        buffer,
        0,
        Math.min(readBytes, segment.bytes - at),
        at,
      );
      if (bytesRead === 0) break;
      at += bytesRead;
      const read = buffer.subarray(0, bytesRead);
      const bytes = carry.length > 0 ? Buffer.concat([carry, read]) : read;
      const last = bytes.lastIndexOf(10);
      const text = bytes.toString('utf8', 0, last + 1);
      carry = Buffer.from(bytes.subarray(last + 1));
      yield text.split('\n');
    }
  } finally {
    await handle.close();
  }
}

/**
 * The start of the first line of `path` at or after `at`, within `[at, end]` (`end`: no line
 * starts there, or the file is gone).
 */
async function lineStartFrom(path: string, at: number, end: number): Promise<number> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return end;
  }
  try {
    const buffer = Buffer.alloc(64 * 1024);
    for (let from = at; from < end; from += buffer.length) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
      if (bytesRead === 0) break;
      const newline = buffer.subarray(0, bytesRead).indexOf(10);
      if (newline >= 0) return Math.min(end, from + newline + 1);
    }
    return end;
  } finally {
    await handle.close();
  }
}

/**
 * The job cut in two at a line's start about `headBytes` of lines into it: the first part's rows
 * followed by the second's are the job's (decision 141: the loop makes the first while a
 * worker starts for the second).
 */
export async function splitJob(job: ExportJob, headBytes: number): Promise<[ExportJob, ExportJob]> {
  const head: ExportSegment[] = [];
  let left = headBytes;
  for (let i = 0; i < job.segments.length; i++) {
    const segment = job.segments[i] as ExportSegment;
    const start = segment.start ?? 0;
    if (segment.bytes - start <= left) {
      head.push(segment);
      left -= segment.bytes - start;
      continue;
    }
    const cut = await lineStartFrom(segment.path, start + left, segment.bytes);
    head.push({ ...segment, bytes: cut });
    const tail = [{ ...segment, start: cut }, ...job.segments.slice(i + 1)];
    return [
      { ...job, segments: head },
      { ...job, segments: tail },
    ];
  }
  return [job, { ...job, segments: [] }];
}

/**
 * The CSV rows of the job's entries (no header), about `chunkText` characters at a time, its
 * files read `readBytes` at a time.
 */
export async function* csvChunks(
  job: ExportJob,
  chunkText = CHUNK_TEXT,
  readBytes = READ_BYTES,
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
