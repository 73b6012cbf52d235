/**
 * A day's figures on disk (`figures/YYYY-MM-DD.jsonl` in the robot's log folder): a header line
 * (format, day, when saved, the log position the figures cover, the hours) and one line per row
 * (rules, pairs, top questions, inbox questions), so that a large day is written and read a slice
 * at a time without holding the event loop. Written atomically: a crash leaves the previous
 * save, whose position says which entries to count again.
 * @module
 */
import { open } from 'node:fs/promises';
import type { DayNumber } from '../../contract/question-log';
import { writeFileAtomicAsync } from '../../../files/durable-fs';
import type { Position } from './segments';
import type { DayTables, InboxCounts } from './kept-figures';

/** The format of the files; another one is not read (the figures are rebuilt from the log). */
export const FIGURES_FORMAT = 1;
/** Rows written or read per slice. */
const SLICE_ROWS = 2000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface DayHeader {
  format: number;
  day: DayNumber;
  savedAt: number;
  /** The log position the figures cover (null: none of the day's entries). */
  position: Position | null;
  hours: number[];
}

type Counts = [string, number][] | 0;
const countsOf = (map: Map<string, number> | null): Counts => (map ? [...map] : 0);
const mapOf = (counts: unknown): Map<string, number> | null =>
  Array.isArray(counts) && counts.length > 0 ? new Map(counts as [string, number][]) : null;

/** An inbox row as a line: key, group, text, counts, last time, choices, evidence. */
export type InboxLine = [
  'i',
  string,
  string,
  string,
  number,
  number,
  number,
  number,
  Counts,
  Counts,
];

export const inboxLine = (key: string, row: InboxCounts): InboxLine => [
  'i',
  key,
  row.group,
  row.text,
  row.fallback,
  row.recommended,
  row.lowScore,
  row.lastAt,
  countsOf(row.chosen),
  countsOf(row.evidence),
];

export function inboxRowOfLine(line: InboxLine): { key: string; row: InboxCounts } {
  return {
    key: line[1],
    row: {
      group: line[2],
      text: line[3],
      fallback: line[4],
      recommended: line[5],
      lowScore: line[6],
      lastAt: line[7],
      chosen: mapOf(line[8]),
      evidence: mapOf(line[9]),
    },
  };
}

/**
 * The lines of a day's figures: its tables, and its inbox rows (`inbox`: for a closed day, the
 * rows of its file merged with those added since, passed by the caller). Returns the file's bytes.
 */
export async function saveDay(
  path: string,
  tables: DayTables,
  header: Omit<DayHeader, 'format' | 'day' | 'hours'>,
  inbox: Iterable<[string, InboxCounts]>,
): Promise<number> {
  const bytes = await encodeDay(tables, header, inbox);
  await writeFileAtomicAsync(path, bytes);
  return bytes.length;
}

/** A day's figure file's bytes, made a slice of rows a turn (what `saveDay` writes). */
export async function encodeDay(
  tables: DayTables,
  header: Omit<DayHeader, 'format' | 'day' | 'hours'>,
  inbox: Iterable<[string, InboxCounts]>,
): Promise<Buffer> {
  const first = JSON.stringify({
    ...header,
    format: FIGURES_FORMAT,
    day: tables.day,
    hours: [...tables.hours],
  });
  function* rows(): Generator<unknown[]> {
    for (const [ruleId, c] of tables.rules)
      yield ['r', ruleId, c.hits, c.chosen, c.fromMenu, c.recommended, c.lastHit];
    for (const [key, count] of tables.pairs) yield ['p', key, count];
    for (const [key, tally] of tables.questions) yield ['q', key, tally.text, tally.count];
    for (const [key, tally] of tables.missed) yield ['m', key, tally.text, tally.count];
    for (const [key, row] of inbox) yield inboxLine(key, row);
  }
  // Made and encoded a slice at a time: the lines of a busy day's rows (megabytes) joined and
  // encoded at once held the event loop for a second.
  const parts = [Buffer.from(`${first}\n`)];
  let slice: string[] = [];
  for (const row of rows()) {
    slice.push(JSON.stringify(row));
    if (slice.length < SLICE_ROWS) continue;
    parts.push(Buffer.from(`${slice.join('\n')}\n`));
    slice = [];
    await nextTurn();
  }
  if (slice.length > 0) parts.push(Buffer.from(`${slice.join('\n')}\n`));
  return Buffer.concat(parts);
}

/** What a day file holds, read a slice at a time: the header, then rows to `onRow`. */
export async function loadDay(
  path: string,
  onRow: (row: unknown[]) => void,
): Promise<DayHeader | null> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return null;
  }
  let bytes: Buffer;
  try {
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  // Read a line at a time from the bytes: the whole of a busy day's file (megabytes) made one
  // string and split at once held the event loop for a second.
  let start = 0;
  const nextLine = (): string | null => {
    if (start >= bytes.length) return null;
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    const line = bytes.toString('utf8', start, end);
    start = end + 1;
    return line;
  };
  let header: DayHeader;
  try {
    header = JSON.parse(nextLine() ?? '') as DayHeader;
  } catch {
    return null;
  }
  if (header.format !== FIGURES_FORMAT) return null;
  for (let read = 1, line = nextLine(); line !== null; read++, line = nextLine()) {
    if (line.length > 0) {
      try {
        const row: unknown = JSON.parse(line);
        if (Array.isArray(row)) onRow(row);
      } catch {
        // A file is written whole (atomically): a damaged line means a damaged file.
        return null;
      }
    }
    if (read % SLICE_ROWS === 0) await nextTurn();
  }
  return header;
}

/** The inbox rows of a day file (a closed day's, to merge or take out of the totals). */
export async function loadInboxRows(path: string): Promise<{
  savedAt: number;
  rows: { key: string; row: InboxCounts }[];
} | null> {
  const rows: { key: string; row: InboxCounts }[] = [];
  const header = await loadDay(path, (row) => {
    if (row[0] === 'i') rows.push(inboxRowOfLine(row as InboxLine));
  });
  return header ? { savedAt: header.savedAt, rows } : null;
}
