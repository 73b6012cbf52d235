/**
 * The log as CSV (RFC 4180, UTF-8 with a byte-order mark so that Excel reads Chinese right).
 * Cells that a spreadsheet would run as a formula are prefixed with an apostrophe.
 * @module
 */
import type { LoggedQuestion } from '../question-log-types';

export const CSV_COLUMNS = [
  'time',
  'userId',
  'channel',
  'source',
  'question',
  'answerType',
  'module',
  'score',
  'ruleId',
  'recommended',
  'version',
  'chosenFrom',
] as const;

/** A row's cells, in the order of `CSV_COLUMNS` (the editor's .xlsx uses the same). */
export function rowOf(entry: LoggedQuestion): (string | number)[] {
  return [
    new Date(entry.at).toISOString(),
    entry.userId,
    entry.channel,
    entry.source,
    entry.question,
    entry.answerType,
    entry.module,
    entry.score,
    entry.ruleId ?? '',
    entry.recommended.join(' '),
    entry.version ?? '',
    entry.chosenFrom ?? '',
  ];
}

const FORMULA = /^[=+\-@\t\r]/;

function cell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(entries: readonly LoggedQuestion[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const entry of entries) lines.push(rowOf(entry).map(cell).join(','));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
