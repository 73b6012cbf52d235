/**
 * A slice of the team server's log as an export reads it: the entries after an entry number, in
 * entry order, decoded with the rule numbers learnt as they come. The same code on the event loop
 * (the export's head, an impact preview's replay) and in the export's worker thread
 * (question-log-export-worker.ts), so that both make the same rows.
 * @module
 */
import { csvRow } from '../../question-log-types';
import type { LoggedQuestion } from '../../question-log-types';
import { decodeStored, parseStored, unknownRuleNumbers } from './question-log-row';
import type { Queryable, RuleNumbers } from './question-log-row';
import { entriesOfLog } from './question-log-schema';

/**
 * Entries read per query where the event loop decodes them (an impact preview's replay, an export
 * whose worker cannot start). Each slice is decoded (and made into CSV rows) in one turn of the
 * loop: at 5000 (before decision 189) that turn took ~80 ms of CPU, and a million-entry export
 * held asks up to 1.7 s under load.
 */
export const SLICE_ROWS = 1000;

export interface StoredRow {
  at: number | string;
  line: string;
}

/** Rows' entries, the rules other nodes numbered learnt first (one query, when there are any). */
export async function decodeRows(
  rows: readonly StoredRow[],
  rules: RuleNumbers,
): Promise<LoggedQuestion[]> {
  const parsed = rows.map((row) => parseStored(row.line));
  const missing = new Set<number>();
  for (const values of parsed) {
    if (values) unknownRuleNumbers(values, rules.knows, missing);
  }
  await rules.learnNumbers(missing);
  const entries: LoggedQuestion[] = [];
  parsed.forEach((values, i) => {
    const entry = values && decodeStored(values, Number(rows[i]?.at), rules.ruleOf);
    if (entry) entries.push(entry);
  });
  return entries;
}

export interface SliceRequest {
  logId: number;
  /** Entries after this entry number (0: from the oldest; the log's range bounds it). */
  after: number;
  /** The entries' times: [from, to). */
  from: number;
  to: number;
  limit: number;
}

export interface Slice {
  entries: LoggedQuestion[];
  /** The last entry number read (`after` when none was). */
  last: number;
  /** Rows read (entries that do not decode included): fewer than the limit at the log's end. */
  read: number;
}

/** The slice of `request`: one statement, an index range of the primary key. */
export async function readSlice(
  db: Queryable,
  rules: RuleNumbers,
  request: SliceRequest,
): Promise<Slice> {
  const { rows } = await db.query<StoredRow & { entry_id: number }>(
    `SELECT entry_id, at, line FROM question_log_entries
     WHERE ${entriesOfLog('$1')} AND entry_id > $2 AND at >= $3 AND at < $4
     ORDER BY entry_id LIMIT ${request.limit}`,
    [
      request.logId,
      request.after,
      Math.max(0, request.from),
      Math.min(request.to, Number.MAX_SAFE_INTEGER),
    ],
  );
  return {
    entries: await decodeRows(rows, rules),
    last: Number(rows.at(-1)?.entry_id ?? request.after),
    read: rows.length,
  };
}

/** The export's rows of `entries` (`csvRow`, each ending its line): what the CSV holds. */
export function csvText(entries: readonly LoggedQuestion[]): string {
  let text = '';
  for (const entry of entries) text += `${csvRow(entry)}\r\n`;
  return text;
}
