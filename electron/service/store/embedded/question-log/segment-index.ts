/**
 * The index beside each segment of the question log (`.idx`): one record of 16 bytes per line,
 * in the order of the lines, so that a page, a filter or a count reads 16 bytes an entry instead
 * of its line. A record: the line's byte offset in its segment; its time within its UTC day (27
 * bits) with its outcome (3 bits) and whether the try pane asked it (1 bit); a 32-bit hash of its
 * user id; a 32-bit hash of the rule that answered (0: none). Hashes are checked against the line
 * of each entry returned.
 * @module
 */
import type { LoggedQuestion } from '../../../question-log-types';
import type { LogFilter, Outcome } from '../../contract/question-log';
import { DAY_MS, OUTCOMES, filterOutcome, outcomeOf } from '../../contract/question-log';
import { holdsText, textVariants } from '../../sql/question-log-text';
import { fnv1a } from '../../../text-hash';

export const RECORD_BYTES = 16;
const AT_BITS = 27;
const AT_MASK = (1 << AT_BITS) - 1;
const TRY_BIT = 1 << 30;

/** FNV-1a over the text's UTF-16 code units: cheap, and stable across versions (it is on disk). */
export function textHash(text: string): number {
  // 0 stands for "no rule".
  return fnv1a(text) >>> 0 || 1;
}

/**
 * The parts of an entry's record that do not depend on where its line goes: its time in its day
 * with its outcome and source, its user's hash and its rule's. Taken as the entry is buffered, so
 * that the entry itself is not held until its line is written (a second, long enough for the
 * collector to move it to the old generation: most of what the log cost an ask).
 */
export interface RecordParts {
  stamp: number;
  user: number;
  rule: number;
}

export function recordParts(entry: LoggedQuestion, dayStart: number): RecordParts {
  const time = Math.min(Math.max(0, entry.at - dayStart), DAY_MS - 1);
  const outcome = OUTCOMES.indexOf(outcomeOf(entry));
  return {
    stamp: (time | (outcome << AT_BITS) | (entry.source === 'try' ? TRY_BIT : 0)) >>> 0,
    user: textHash(entry.userId),
    rule: entry.ruleId === null ? 0 : textHash(entry.ruleId),
  };
}

/** Writes a record: its line at `offset` of its segment, and the parts taken from its entry. */
export function writeRecord(into: Buffer, at: number, parts: RecordParts, offset: number): void {
  into.writeUInt32LE(offset, at);
  into.writeUInt32LE(parts.stamp, at + 4);
  into.writeUInt32LE(parts.user, at + 8);
  into.writeUInt32LE(parts.rule, at + 12);
}

/** A record's time within its day. */
export const recordTime = (words: Uint32Array, record: number): number =>
  (words[record * 4 + 1] as number) & AT_MASK;

/** A record's code: its outcome (OUTCOMES' index) and whether the try pane asked it (bit 3). */
export const recordCode = (words: Uint32Array, record: number): number =>
  ((words[record * 4 + 1] as number) >>> AT_BITS) & 15;

/** A record's rule hash (0: none). */
export const recordRule = (words: Uint32Array, record: number): number =>
  words[record * 4 + 3] as number;

/** Which record codes (recordCode) the filter's outcome and source accept. */
export function codeTest(filter: LogFilter): (code: number) => boolean {
  const outcomes = new Set<number>();
  OUTCOMES.forEach((outcome: Outcome, code) => {
    if (filter.outcome === undefined || filterOutcome(outcome) === filter.outcome)
      outcomes.add(code);
  });
  const source = filter.source;
  return (code) =>
    outcomes.has(code & 7) && (source === undefined || ((code & 8) !== 0) === (source === 'try'));
}

/** A record's user hash. */
export const recordUser = (words: Uint32Array, record: number): number =>
  words[record * 4 + 2] as number;

/** The records of an index file's bytes, as words (4 per record). */
export function recordWords(bytes: Buffer): Uint32Array {
  // A buffer of whole records on a word boundary is viewed as it is (no copy of megabytes).
  if (bytes.length % RECORD_BYTES === 0 && bytes.byteOffset % 4 === 0)
    return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
  const aligned = Buffer.alloc(bytes.length - (bytes.length % RECORD_BYTES));
  bytes.copy(aligned, 0, 0, aligned.length);
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
}

/** Whether a record may match a filter (hashes can collide: the line says for sure). */
export interface RecordTest {
  (words: Uint32Array, record: number): boolean;
}

/** The test of the filter's indexed parts for the records of a day starting at `dayStart`. */
export function recordTest(filter: LogFilter, dayStart: number): RecordTest {
  const from = filter.from - dayStart;
  const to = filter.to - dayStart;
  const user = filter.userId === undefined ? null : textHash(filter.userId);
  const rule = filter.ruleId === undefined ? null : textHash(filter.ruleId);
  const outcomes = new Set<number>();
  if (filter.outcome !== undefined) {
    OUTCOMES.forEach((outcome: Outcome, code) => {
      if (filterOutcome(outcome) === filter.outcome) outcomes.add(code);
    });
  }
  const source = filter.source;
  return (words, record) => {
    const base = record * 4;
    const packed = words[base + 1] as number;
    const time = packed & AT_MASK;
    if (time < from || time >= to) return false;
    if (outcomes.size > 0 && !outcomes.has((packed >>> AT_BITS) & 7)) return false;
    if (source !== undefined && ((packed & TRY_BIT) !== 0) !== (source === 'try')) return false;
    if (user !== null && words[base + 2] !== user) return false;
    if (rule !== null && words[base + 3] !== rule) return false;
    return true;
  };
}

/** Whether a decoded entry matches the filter exactly (what the index cannot say for sure). */
export function entryMatches(entry: LoggedQuestion, filter: LogFilter): boolean {
  if (entry.at < filter.from || entry.at >= filter.to) return false;
  if (filter.outcome !== undefined && filterOutcome(outcomeOf(entry)) !== filter.outcome)
    return false;
  if (filter.source !== undefined && entry.source !== filter.source) return false;
  if (filter.userId !== undefined && entry.userId !== filter.userId) return false;
  if (filter.ruleId !== undefined && entry.ruleId !== filter.ruleId) return false;
  if (filter.text !== undefined && !holdsText(entry, textVariants(filter.text))) return false;
  return true;
}
