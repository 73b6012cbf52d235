/**
 * A question log entry as the embedded store keeps it: one line of JSON, the entry's values in a
 * fixed order (its day files and segments hold the lines). The team server stores the same values
 * shortened (store/postgres/question-log-row.ts: no time, rule ids as numbers; decision 166) and
 * reads this form in rows written before.
 * @module
 */
import type { LoggedQuestion } from '../../question-log-types';
import { DAY_MS } from '../contract/question-log';

export { DAY_MS };

/** 9999-12-31T23:59:59.999Z: times beyond (Infinity) read as the last one. */
const LAST_TIME = 253_402_300_799_999;

/** A time within the years ISO dates spell with four digits (so that day names compare as text). */
export const clampTime = (at: number): number => Math.min(Math.max(0, at), LAST_TIME);

/** `YYYY-MM-DD` (UTC) of a time. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The usual answer types and modules are written as their index here; others as text. */
const ANSWER_TYPES = ['BESTMATCH', 'RECOMMEND'];
const MODULES = ['KB', 'NONE'];
const named = (names: string[], value: unknown): string =>
  typeof value === 'number' ? (names[value] ?? '') : String(value);

/**
 * A line: the entry's values in a fixed order (no key names: a third of the bytes). The menu
 * entry of a menu follow-up comes 13th, on those lines only (older lines have 12 values); a
 * RECOMMEND's runner-up score 14th (the 13th then null), on those lines only.
 */
export function encode(entry: LoggedQuestion): string {
  return JSON.stringify(lineValues(entry));
}

/** A line's values before JSON (the team server stores them shortened: postgres/question-log-row.ts). */
export function lineValues(entry: LoggedQuestion): unknown[] {
  const values: unknown[] = [
    entry.at,
    entry.userId,
    entry.channel,
    entry.question,
    ANSWER_TYPES.indexOf(entry.answerType) >= 0
      ? ANSWER_TYPES.indexOf(entry.answerType)
      : entry.answerType,
    MODULES.indexOf(entry.module) >= 0 ? MODULES.indexOf(entry.module) : entry.module,
    entry.score,
    entry.ruleId,
    entry.recommended,
    entry.version,
    entry.source === 'try' ? 1 : 0,
    entry.chosenFrom,
  ];
  if (entry.runnerUp !== undefined) values.push(entry.menuEntry, entry.runnerUp);
  else if (entry.menuEntry !== null) values.push(entry.menuEntry);
  return values;
}

export function decode(line: string): LoggedQuestion | null {
  let values: unknown;
  try {
    values = JSON.parse(line);
  } catch {
    return null;
  }
  return decodeRow(values);
}

export function decodeRow(values: unknown): LoggedQuestion | null {
  if (!Array.isArray(values) || values.length < 12 || typeof values[0] !== 'number') return null;
  const [
    at,
    userId,
    channel,
    question,
    type,
    module,
    score,
    ruleId,
    recommended,
    version,
    tried,
    from,
  ] = values as [
    number,
    string,
    string,
    string,
    unknown,
    unknown,
    number,
    string | null,
    string[],
    number | null,
    number,
    string | null,
  ];
  const entry: LoggedQuestion = {
    at,
    userId,
    channel,
    question,
    answerType: named(ANSWER_TYPES, type),
    module: named(MODULES, module),
    score,
    ruleId,
    recommended,
    version,
    source: tried === 1 ? 'try' : 'api',
    chosenFrom: from,
    menuEntry: typeof values[12] === 'number' ? values[12] : null,
  };
  if (typeof values[13] === 'number') entry.runnerUp = values[13];
  return entry;
}
