/**
 * Whole rule analytics on the team server, its long lists made as JSON text by
 * PostgreSQL (decision 162): at 10k rules the service spent most of these reads building 10k
 * objects from two result sets, joining them and serialising them again (836 ms at load 24). Here each statement returns every item already serialised, a string per rule that the
 * node joins (rows parsed a socket's chunk at a time: the loop is never held for the list).
 *
 * The text is the bytes `JSON.stringify` makes of the objects the other path builds: keys in the
 * same order, text escaped as `JSON.stringify` does (`"`, `\`, \b \f \n \r \t, other control
 * characters as lowercase `\u00xx`; a database's text holds no lone surrogate), and integers
 * printed the same. `tests/contract/question-log-json.spec.ts` compares the bytes.
 * @module
 */
import type { AnalyticsSlices, LogFiguresJson, LogKey } from '../contract/question-log';
import type { RobotKey } from '../contract/records';
import type { Pool } from './connection';

/**
 * Every rule of the robot in creation order with its totals (0 and null if none), and the id of
 * each never hit. The subquery's order is kept: the outer query only projects its rows.
 */
const ANALYTICS_ROWS_SQL = `SELECT row_to_json(x)::text AS item,
       CASE WHEN x.hits = 0 THEN to_json(x."ruleId")::text END AS never_hit
  FROM (
    SELECT r.rule_id AS "ruleId", coalesce(t.hits, 0) AS hits,
           coalesce(t.chosen, 0) AS chosen, coalesce(t.from_menu, 0) AS "fromMenu",
           coalesce(t.recommended, 0) AS recommended,
           CASE WHEN t.last_hit > 0 THEN t.last_hit END AS "lastHit",
           r.rule_name AS "ruleName", r.effect_end AS "effectEnd"
    FROM rules r
    LEFT JOIN question_log_rule_totals t ON t.log_id = $3 AND t.rule_id = r.rule_id
    WHERE r.tenant_id = $1 AND r.robot_id = $2
    ORDER BY r.rule_seq
  ) x`;

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

  async analytics(log: LogKey, robot: RobotKey, mostHit: number): Promise<AnalyticsSlices> {
    const values = [robot.tenantId, robot.robotId, await this.logId(log)];
    const { rows } = await this.pool.query<{ item: string; never_hit: string | null }>(
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
      rules: rows.map((row) => row.item),
      neverHit: rows.flatMap((row) => (row.never_hit === null ? [] : [row.never_hit])),
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
