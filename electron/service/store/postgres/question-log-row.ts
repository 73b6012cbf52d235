/**
 * An entry's line as the team server stores it (decision 166): the shared line's values
 * (store/sql/question-log-line.ts) with what the row or the database already holds taken out.
 * - The time is the row's `at` column: its slot holds 0 (the slot stays, so that the question and
 *   the user id keep the places the text search reads them from, `line::json->>3` and `->>1`).
 * - Rule ids (the answering rule, a RECOMMEND's list) are numbers of `question_log_rule_numbers`
 *   (server migration 15): 3-6 digits instead of a 38-byte quoted id, each a few times per line.
 * - Trailing values at their defaults (no RECOMMEND list, the draft, an api ask, no choice) are
 *   left out; a short line reads them back as those defaults.
 * A line written before (its time first, ids as text) reads as it did: the time slot is then the
 * same as the column, and ids that are text stay text.
 * @module
 */
import type { LoggedQuestion } from '../../question-log-types';
import { decodeRow, lineValues } from '../sql/question-log-line';
import type { Pool } from './connection';

const AT = 0;
const RULE = 7;
const RECOMMENDED = 8;
/** The values a short line leaves out, from the answering rule on (the line's 8th to 12th). */
const DEFAULTS: readonly unknown[] = [null, [], null, 0, null];
const isDefault = (value: unknown, index: number): boolean => {
  const fallback = DEFAULTS[index - RULE];
  return Array.isArray(fallback) ? Array.isArray(value) && value.length === 0 : value === fallback;
};

/** The stored line of an entry whose rule ids all have numbers (`numberOf`). */
export function encodeStored(entry: LoggedQuestion, numberOf: (ruleId: string) => number): string {
  const values = lineValues(entry);
  values[AT] = 0;
  if (entry.ruleId !== null) values[RULE] = numberOf(entry.ruleId);
  values[RECOMMENDED] = entry.recommended.map(numberOf);
  // A menu entry or runner-up (13th, 14th) keeps every value before it.
  while (values.length > RULE && values.length <= RULE + DEFAULTS.length) {
    if (!isDefault(values.at(-1), values.length - 1)) break;
    values.pop();
  }
  return JSON.stringify(values);
}

/** A stored line's values, parsed (null: not a line). */
export function parseStored(line: string): unknown[] | null {
  try {
    const values: unknown = JSON.parse(line);
    return Array.isArray(values) ? values : null;
  } catch {
    return null;
  }
}

/** Adds to `into` the rule numbers of a parsed line that `known` lacks (text ids are none). */
export function unknownRuleNumbers(
  values: readonly unknown[],
  known: (ruleNumber: number) => boolean,
  into: Set<number>,
): void {
  const rule = values[RULE];
  if (typeof rule === 'number' && !known(rule)) into.add(rule);
  const recommended = values[RECOMMENDED];
  if (!Array.isArray(recommended)) return;
  for (const id of recommended) if (typeof id === 'number' && !known(id)) into.add(id);
}

/**
 * The entry of a parsed stored line, its time from the row. A number no rule has (never written
 * by this code: numbers are made before the lines that use them) reads as no rule. The full
 * line is made as one literal: padding the parsed array (an export decodes every entry) cost
 * as much again as the parse.
 */
export function decodeStored(
  values: readonly unknown[],
  at: number,
  ruleOf: (ruleNumber: number) => string | undefined,
): LoggedQuestion | null {
  const length = values.length;
  if (length < RULE) return null;
  const rule = values[RULE];
  let recommended = values[RECOMMENDED] ?? [];
  if (Array.isArray(recommended) && recommended.some((id) => typeof id === 'number')) {
    recommended = recommended
      .map((id: unknown) => (typeof id === 'number' ? ruleOf(id) : id))
      .filter((id) => id !== undefined);
  }
  return decodeRow([
    at,
    values[1],
    values[2],
    values[3],
    values[4],
    values[5],
    values[6],
    typeof rule === 'number' ? (ruleOf(rule) ?? null) : (rule ?? null),
    recommended,
    values[9] ?? null,
    length > 10 ? values[10] : 0,
    values[11] ?? null,
    values[12],
    values[13],
  ]);
}

/**
 * Each rule id's number (`question_log_rule_numbers`), kept by the node as it learns them: one
 * row per rule ever logged in the database, so the memory is the rules', not the log's. Numbers
 * are made outside the flush's transaction (a rolled-back number would be cached yet unknown to
 * the database); two nodes numbering the same rule at once get the same number.
 */
/** What reads the database: the node's pool, or the export worker's one connection. */
export type Queryable = Pick<Pool, 'query'>;

export class RuleNumbers {
  private readonly byId = new Map<string, number>();
  private readonly byNumber = new Map<number, string>();

  constructor(private readonly pool: Queryable) {}

  private learn(rows: readonly { rule_num: number; rule_id: string }[]): void {
    for (const row of rows) {
      const n = Number(row.rule_num);
      this.byId.set(row.rule_id, n);
      this.byNumber.set(n, row.rule_id);
    }
  }

  /** Numbers every rule of `entries` (a query only for rules this node has not seen). */
  async number(entries: readonly LoggedQuestion[]): Promise<void> {
    const missing = new Set<string>();
    for (const entry of entries) {
      if (entry.ruleId !== null && !this.byId.has(entry.ruleId)) missing.add(entry.ruleId);
      for (const id of entry.recommended) if (!this.byId.has(id)) missing.add(id);
    }
    if (missing.size === 0) return;
    const ids = [...missing];
    await this.pool.query(
      `INSERT INTO question_log_rule_numbers (rule_id) SELECT unnest($1::text[])
       ON CONFLICT (rule_id) DO NOTHING`,
      [ids],
    );
    const { rows } = await this.pool.query<{ rule_num: number; rule_id: string }>(
      'SELECT rule_num, rule_id FROM question_log_rule_numbers WHERE rule_id = ANY($1::text[])',
      [ids],
    );
    this.learn(rows);
  }

  /** A numbered rule's number (`number` first). */
  numberOf = (ruleId: string): number => {
    const n = this.byId.get(ruleId);
    if (n === undefined) throw new Error(`rule ${ruleId} has no number yet`);
    return n;
  };

  ruleOf = (ruleNumber: number): string | undefined => this.byNumber.get(ruleNumber);

  knows = (ruleNumber: number): boolean => this.byNumber.has(ruleNumber);

  /** Learns the rules of `missing` (numbered by other nodes). */
  async learnNumbers(missing: ReadonlySet<number>): Promise<void> {
    if (missing.size === 0) return;
    const { rows } = await this.pool.query<{ rule_num: number; rule_id: string }>(
      'SELECT rule_num, rule_id FROM question_log_rule_numbers WHERE rule_num = ANY($1::int[])',
      [[...missing]],
    );
    this.learn(rows);
  }
}
