/**
 * Whole rule analytics and rule hits on the team server, their long lists made as JSON text by
 * PostgreSQL (decision 164): at 10k rules the service spent most of these reads building 10k
 * objects from two result sets, joining them and serialising them again (836 and 249 ms at load
 * 24). Here each statement returns the items already serialised, `SLICE` rules to a row, so the
 * node only copies a few hundred KB per row and never holds the loop for the list.
 *
 * The text is the bytes `JSON.stringify` makes of the objects the other path builds: keys in the
 * same order, `to_json(text)` escapes as `JSON.stringify` does (`"`, `\`, \b \f \n \r \t, other
 * control characters as lowercase `\u00xx`; a database's text holds no lone surrogate), and
 * integers print the same. `tests/contract/question-log-json.spec.ts` compares the bytes.
 * @module
 */
import type { AnalyticsSlices, LogFiguresJson, LogKey } from '../contract/question-log';
import type { RobotKey } from '../contract/records';
import type { Pool } from './connection';

/** Rules serialised per row: a few hundred KB, a millisecond or two of the node's time. */
const SLICE = 2000;

/** A rule's figures as `RuleHits` (analytics.ts `analyticsRow` without the rule's facts). */
const HITS_ITEM = `'{"ruleId":' || to_json(t.rule_id)::text
  || ',"hits":' || coalesce(t.hits, 0) || ',"chosen":' || coalesce(t.chosen, 0)
  || ',"fromMenu":' || coalesce(t.from_menu, 0) || ',"recommended":' || coalesce(t.recommended, 0)
  || ',"lastHit":' || CASE WHEN t.last_hit > 0 THEN t.last_hit::text ELSE 'null' END`;

/** Every rule total of the log in rule id order, SLICE to a row. */
const RULE_HITS_SQL = `SELECT string_agg(item, ',' ORDER BY n) AS items FROM (
    SELECT row_number() OVER (ORDER BY t.rule_id COLLATE "C") - 1 AS n,
           ${HITS_ITEM} || '}' AS item
    FROM question_log_rule_totals t WHERE t.log_id = $1
  ) x GROUP BY n / ${SLICE} ORDER BY n / ${SLICE}`;

/**
 * Every rule of the robot in creation order with its totals (0 and null if none), and the ids of
 * those never hit, SLICE rules to a row.
 */
const ANALYTICS_ROWS_SQL = `SELECT string_agg(item, ',' ORDER BY n) AS items,
       coalesce(string_agg(CASE WHEN hits = 0 THEN id END, ',' ORDER BY n), '') AS never_hit
  FROM (
    SELECT row_number() OVER (ORDER BY r.rule_seq) - 1 AS n, coalesce(t.hits, 0) AS hits,
           to_json(r.rule_id)::text AS id,
           '{"ruleId":' || to_json(r.rule_id)::text
             || ',"hits":' || coalesce(t.hits, 0) || ',"chosen":' || coalesce(t.chosen, 0)
             || ',"fromMenu":' || coalesce(t.from_menu, 0)
             || ',"recommended":' || coalesce(t.recommended, 0)
             || ',"lastHit":' || CASE WHEN t.last_hit > 0 THEN t.last_hit::text ELSE 'null' END
             || ',"ruleName":' || to_json(r.rule_name)::text
             || ',"effectEnd":' || coalesce(to_json(r.effect_end)::text, 'null') || '}' AS item
    FROM rules r
    LEFT JOIN question_log_rule_totals t ON t.log_id = $3 AND t.rule_id = r.rule_id
    WHERE r.tenant_id = $1 AND r.robot_id = $2
  ) x GROUP BY n / ${SLICE} ORDER BY n / ${SLICE}`;

/** The robot's most hit rules (ties in byte order of id), by the totals' index. */
const MOST_HIT_KNOWN_SQL = `SELECT t.rule_id, t.hits FROM question_log_rule_totals t
  WHERE t.log_id = $3 AND t.hits > 0
    AND EXISTS (SELECT 1 FROM rules r
                WHERE r.rule_id = t.rule_id AND r.tenant_id = $1 AND r.robot_id = $2)
  ORDER BY t.hits DESC, t.rule_id COLLATE "C" LIMIT $4`;

export class PostgresFiguresJson implements LogFiguresJson {
  constructor(
    private readonly pool: Pool,
    private readonly logId: (log: LogKey) => Promise<number>,
  ) {}

  /** `rules(log)` as JSON items, in rule id order (byte order). */
  async ruleHits(log: LogKey): Promise<string[]> {
    const { rows } = await this.pool.query<{ items: string }>(RULE_HITS_SQL, [
      await this.logId(log),
    ]);
    return rows.map((row) => row.items);
  }

  async analytics(log: LogKey, robot: RobotKey, mostHit: number): Promise<AnalyticsSlices> {
    const values = [robot.tenantId, robot.robotId, await this.logId(log)];
    const { rows } = await this.pool.query<{ items: string; never_hit: string }>(
      ANALYTICS_ROWS_SQL,
      values,
    );
    const top = await this.pool.query<{ rule_id: string; hits: string }>(MOST_HIT_KNOWN_SQL, [
      ...values,
      mostHit,
    ]);
    const ending = await this.pool.query<{ rule_id: string; effect_end: string }>(
      `SELECT rule_id, effect_end FROM rules
       WHERE tenant_id = $1 AND robot_id = $2 AND effect_end IS NOT NULL ORDER BY rule_seq`,
      [robot.tenantId, robot.robotId],
    );
    return {
      rules: rows.map((row) => row.items),
      neverHit: rows.map((row) => row.never_hit).filter((slice) => slice !== ''),
      mostHit: top.rows.map((row) => ({ ruleId: row.rule_id, hits: Number(row.hits) })),
      ending: ending.rows.map((row) => ({ ruleId: row.rule_id, effectEnd: row.effect_end })),
    };
  }

  /** Those of these rule ids that are the robot's. */
  async known(robot: RobotKey, ruleIds: readonly string[]): Promise<Set<string>> {
    if (ruleIds.length === 0) return new Set();
    const { rows } = await this.pool.query<{ rule_id: string }>(
      'SELECT rule_id FROM rules WHERE tenant_id = $1 AND robot_id = $2 AND rule_id = ANY($3)',
      [robot.tenantId, robot.robotId, ruleIds],
    );
    return new Set(rows.map((row) => row.rule_id));
  }
}
