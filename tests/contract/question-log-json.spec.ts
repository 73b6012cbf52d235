/**
 * The team server's whole rule analytics, its lists serialised by PostgreSQL
 * (decision 162), is the bytes the service made of the same figures: the rules of a robot
 * (more than a slice of them, names that need escaping, windows that end soon or not at all)
 * with totals (a rule since deleted among them), pairs and days, read both ways on a database
 * in the default collation and one in an ICU locale (where text sorts otherwise than bytes).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleAnalytics, ruleAnalyticsJson } from '../../electron/service/question-log/analytics';
import { silentLogger } from '../../electron/service/logger';
import { openPool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import type { RuleFacts } from '../../electron/service/store/contract/records';
import { freshDatabase } from '../helpers/postgres';
import { figuresMaker } from '../helpers/logged-question';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1, 12);
const ROBOT = { tenantId: 7, robotId: 'json' };
const KEY = '7/json';
const RULES = 4500;

/** Names a JSON text must escape, and others it must not. */
const NAMES = [
  'plain',
  'a "quoted" name',
  'back\\slash',
  'tab\tnew\nline\r',
  'bell\u0007\u001f',
  'é 中文 😀',
  'del\u007f',
  '/slash/',
  'b\bf\f',
];

const ruleId = (i: number) => (i % 3 === 0 ? `R${i}` : `r-${String(i).padStart(5, '0')}é`);

for (const icuLocale of [undefined, 'de-DE']) {
  test(`whole rule analytics made by PostgreSQL is the service's bytes (decision 162${icuLocale ? `, ICU ${icuLocale}` : ''})`, async () => {
    const url = await freshDatabase('qlog_json', icuLocale ? { icuLocale } : {});
    const pool = openPool({
      url,
      logger: silentLogger,
      timeouts: { connectMs: 5000, queryMs: 60_000, statementMs: 60_000 },
    });
    const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    try {
      await migrate(pool, silentLogger);
      await log.open(KEY, figuresMaker().replay);
      const client = await pool.connect();
      try {
        // The robot's row is not what is compared: its foreign key is not checked.
        await client.query('SET session_replication_role = replica');
        await client.query(
          `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key,
             effect_end, questions, answer, created_at, updated_at)
           SELECT i, ($3::text[])[i], $1, $2, ($4::text[])[i], 'k' || i, ($5::text[])[i], '[]', 'a', 0, 0
           FROM generate_series(1, $6) AS i`,
          [
            ROBOT.tenantId,
            ROBOT.robotId,
            Array.from({ length: RULES }, (_, i) => ruleId(i + 1)),
            Array.from({ length: RULES }, (_, i) => `${NAMES[i % NAMES.length]} ${i}`),
            Array.from({ length: RULES }, (_, i) =>
              i % 7 === 0 ? new Date(NOW + ((i % 50) - 5) * DAY).toISOString() : null,
            ),
            RULES,
          ],
        );
        await client.query('SET session_replication_role = origin');
      } finally {
        client.release();
      }
      const { rows } = await pool.query<{ log_id: number }>(
        'SELECT log_id FROM question_logs WHERE log_key = $1',
        [KEY],
      );
      const logId = rows[0]?.log_id;
      // Two rules in three with totals (some recommended only, some never hit since), and one
      // rule since deleted; ties in hits to rank by id.
      await pool.query(
        `INSERT INTO question_log_rule_totals (log_id, rule_id, hits, chosen, from_menu,
           recommended, last_hit)
         SELECT $1, id, CASE WHEN n % 5 = 0 THEN 0 ELSE n % 40 END, n % 3, n % 2, n % 11,
                CASE WHEN n % 5 = 0 THEN 0 ELSE $2::bigint + n END
         FROM unnest($3::text[]) WITH ORDINALITY AS t(id, n)`,
        [
          logId,
          NOW - DAY,
          [
            'deleted-rule',
            ...Array.from({ length: RULES }, (_, i) => ruleId(i + 1)).filter((_, i) => i % 3 !== 2),
          ],
        ],
      );
      await pool.query(
        `INSERT INTO question_log_rules (log_id, day, rule_id, hits)
         SELECT $1, $2::int - d, rule_id, hits + d FROM question_log_rule_totals, generate_series(0, 2) d
         WHERE log_id = $1 AND hits > 30`,
        [logId, Math.floor(NOW / DAY)],
      );
      await pool.query(
        `INSERT INTO question_log_pair_totals (log_id, a, b, count)
         SELECT $1, ($2::text[])[i], ($2::text[])[i + 1], 300 - i FROM generate_series(1, 250) AS i`,
        [logId, ['deleted-rule', ...Array.from({ length: 300 }, (_, i) => ruleId(i + 1))]],
      );
      const facts = (
        await pool.query<{ rule_id: string; rule_name: string; effect_end: string | null }>(
          `SELECT rule_id, rule_name, effect_end FROM rules
           WHERE tenant_id = $1 AND robot_id = $2 ORDER BY rule_seq`,
          [ROBOT.tenantId, ROBOT.robotId],
        )
      ).rows.map((row): RuleFacts => ({
        ruleId: row.rule_id,
        ruleName: row.rule_name,
        effectEnd: row.effect_end,
      }));
      const { figures } = log;
      const json = figures.json;
      assert.ok(json);

      const before = await ruleAnalytics(figures, KEY, facts, NOW);
      assert.ok(before.expiring.length > 0 && before.confusable.length === 50);
      assert.ok(before.neverHit.length > 1000 && before.hitsByDay.length === 20);
      assert.equal(await ruleAnalyticsJson(figures, json, KEY, ROBOT, NOW), JSON.stringify(before));
    } finally {
      await log.close();
      await pool.end();
    }
  });
}
