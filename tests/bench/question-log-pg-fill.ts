/**
 * The team server's log filled fast for the volume bench (question-log-volume.ts): a million
 * asks through the recorder on PostgreSQL take about 40 minutes on this machine, so the raw
 * entries are written straight into the table of server migration 2 (`question_log`, multi-row
 * INSERTs of the same traffic as the embedded fill, question-log-traffic.ts) and the service's
 * own upgrade path then builds everything else from them: `PostgresQuestionLog.open` moves them,
 * a batch at a time, into the indexed table with the figures `QuestionLog` counts for each
 * (entry-figures.ts, the same code an ask's recording runs).
 *
 * What this bypasses (docs/question-log.md, "The team server at volume"): HTTP, the matcher, the
 * recorder's turn queue and the flush schedule. What an ask's recording adds to an entry before
 * it is stored (a choice from the user's last RECOMMEND, a RECOMMEND's runner-up score) is added
 * here with the recorder's own `ClickMemory`, the way `QuestionLog.recordNow` does.
 * @module
 */
import pg from 'pg';
import { silentLogger } from '../../electron/service/logger';
import { ClickMemory } from '../../electron/service/question-log/click-memory';
import { QuestionLog, logKey } from '../../electron/service/question-log/question-log';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import type { RobotKey } from '../../electron/service/store/contract/records';
import { openPool } from '../../electron/service/store/postgres/connection';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import { encode } from '../../electron/service/store/sql/question-log-line';
import { traffic } from './question-log-traffic';
import type { TrafficRule } from './question-log-traffic';

/** Rows per INSERT. */
const INSERT_ROWS = 5000;

export interface PostgresFillOptions {
  database: string;
  robot: RobotKey;
  rules: readonly TrafficRule[];
  asks: number;
  end: number;
}

export interface PostgresFillTimes {
  /** Writing the raw entries (ms). */
  insertMs: number;
  /** The service's upgrade path: entries moved into the indexed table with their figures (ms). */
  rebuildMs: number;
}

export async function fillPostgresLog(options: PostgresFillOptions): Promise<PostgresFillTimes> {
  const pool = openPool({ url: options.database, logger: silentLogger });
  const log = logKey(options.robot);
  const clicks = new ClickMemory();
  try {
    const started = performance.now();
    let batch: LoggedQuestion[] = [];
    const write = async () => {
      await pool.query(
        `INSERT INTO question_log (log_key, at, line)
         SELECT $1, * FROM unnest($2::bigint[], $3::text[])`,
        [log, batch.map((entry) => entry.at), batch.map(encode)],
      );
      batch = [];
    };
    for (const { entry, items } of traffic(options.rules, options.asks, options.end)) {
      // As QuestionLog.recordNow: a choice from the user's last RECOMMEND, a RECOMMEND's runner-up.
      if (entry.source === 'api') {
        const choice = clicks.take(`${log}\u0000${entry.userId}`, entry.at, entry.question, items);
        if (choice && choice.ruleId === entry.ruleId) entry.chosenFrom = choice.question;
      }
      if (items && entry.answerType === 'RECOMMEND') entry.runnerUp = items[1]?.score ?? 0;
      batch.push(entry);
      if (batch.length === INSERT_ROWS) await write();
    }
    if (batch.length > 0) await write();
    const inserted = performance.now();

    // The service's own path: opening the log moves the entries over with their figures.
    const repository = new PostgresQuestionLog({ pool, logger: silentLogger });
    const recorder = new QuestionLog({
      repository,
      now: () => options.end,
      logger: silentLogger,
      robot: () => ({
        retentionDays: 90,
        maxBytes: 1e12,
        lowScore: 0.97,
        evidenceScore: 0.705,
        margin: 0.1,
      }),
    });
    await recorder.page(options.robot, { offset: 0, limit: 1 });
    await recorder.close();
    const rebuilt = performance.now();
    // As autovacuum would have by then: the moved rows reclaimed, the planner's statistics made
    // (a client of its own: the pool's statements time out sooner than a vacuum of 1M rows).
    const client = new pg.Client({ connectionString: options.database });
    await client.connect();
    await client.query('VACUUM ANALYZE').finally(() => client.end());
    return { insertMs: inserted - started, rebuildMs: rebuilt - inserted };
  } finally {
    await pool.end();
  }
}
