/**
 * The editor's page of rules where SQLite has no index to walk: a text filter (a `LIKE` over
 * every rule's search text), a sort by name, by the active flag or by a figure of the question
 * log. sql.js runs on the event loop, so one statement over a large robot held it for as long
 * as it took (at 100k rules of 300-character answers, a text found nowhere: 3.5–5.6 s for its
 * count and page at load ~20). Here the robot's rules are walked in windows of its own index,
 * each statement evaluating the filter on `WINDOW` rules with a turn of the event loop between;
 * the page's keys are kept in a bounded list and its rows read last by position.
 * Same rows, same order and same total as the single statement (contract tests, both stores).
 * @module
 */
import type { RuleFilter } from '../../contract/records';
import { nextTurn } from '../../../time-slices';
import type { RulePage } from '../../sql/rule-statements';
import type { Scalar } from '../../sql/dialect';
import type { Reader } from '../database';

/** Rules whose filter one statement evaluates (a few ms of the event loop at 300-char answers). */
const WINDOW = 1000;

/** The sorts and filters this walk serves: those SQLite would answer by reading every rule. */
export function needsScan(filter: RuleFilter): boolean {
  return (
    (filter.text !== undefined && filter.text !== '') ||
    filter.sort === 'ruleName' ||
    filter.sort === 'active' ||
    filter.sort === 'hits' ||
    filter.sort === 'lastHit'
  );
}

type SortValue = number | string;

interface Keyed {
  key: SortValue;
  seq: number;
}

const SORT_COLUMN: Record<RuleFilter['sort'], string> = {
  created: 'rule_seq',
  updated: 'updated_at',
  ruleName: 'name_key',
  category: 'category_id',
  active: 'active',
  hits: 'rule_id',
  lastHit: 'rule_id',
};

/**
 * Strings in SQLite's order (UTF-8 bytes, as `memcmp`): UTF-16 code units compare the same but
 * for surrogates, which sort above U+E000–U+FFFF in UTF-8 and below in UTF-16.
 */
function compareBytes(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

const utf8Rank = (unit: number): number =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;

function comparer(descending: boolean): (a: Keyed, b: Keyed) => number {
  const direction = descending ? -1 : 1;
  return (a, b) => {
    const byKey =
      typeof a.key === 'number' && typeof b.key === 'number'
        ? a.key - b.key
        : compareBytes(String(a.key), String(b.key));
    return byKey !== 0 ? direction * byKey : a.seq - b.seq;
  };
}

export interface ScannedPage {
  /** The page's positions (rule_seq), in the page's order. */
  seqs: number[];
  total: number;
}

/**
 * Walks the robot's rules `WINDOW` at a time by position, counting those `page.condition`
 * keeps and the best `offset + limit` of them by the page's order (figures from
 * `page.figures`, a rule never hit 0).
 */
export async function scanRulePage<L>(
  reader: Reader,
  page: RulePage<L>,
  filter: RuleFilter,
): Promise<ScannedPage> {
  const values = page.params.values as Scalar[];
  const from = values.length + 1;
  const statement = `SELECT rule_seq, ${SORT_COLUMN[filter.sort]} AS k, (${page.condition}) AS hit
FROM rules WHERE tenant_id = ?1 AND robot_id = ?2 AND rule_seq >= ?${from}
ORDER BY rule_seq LIMIT ${WINDOW}`;
  const figures = page.figures ? new Map(page.figures) : undefined;
  const order = comparer(filter.descending);
  const need = filter.offset + filter.limit;
  let kept: Keyed[] = [];
  let total = 0;
  for (let next = 0; ;) {
    if (next > 0) await nextTurn();
    const rows = reader.all<{ rule_seq: number; k: SortValue; hit: number }>(statement, [
      ...values,
      next,
    ]);
    for (const row of rows) {
      if (!row.hit) continue;
      total++;
      if (need === 0) continue;
      const key = figures ? (figures.get(String(row.k)) ?? 0) : row.k;
      kept.push({ key, seq: row.rule_seq });
    }
    // Sorted and cut to the page's reach once twice its size: the walk holds O(offset + limit).
    if (kept.length >= 2 * need + WINDOW) kept = kept.sort(order).slice(0, need);
    const last = rows[rows.length - 1];
    if (rows.length < WINDOW || last === undefined) break;
    next = last.rule_seq + 1;
  }
  kept.sort(order);
  return { seqs: kept.slice(filter.offset, need).map((row) => row.seq), total };
}
