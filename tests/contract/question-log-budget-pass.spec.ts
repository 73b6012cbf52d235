/**
 * The team server's budget pass over a large log keeps each statement short (decision 155): with
 * nothing older than the retention, its purge read every entry of the log in one statement (no
 * index has `at`), past the node's statement timeout at a million entries, and a changed budget
 * was never applied. Here the pass runs on a pool whose statements the server cancels after
 * `STATEMENT_MS`, over a log of `ENTRIES` written straight into the table.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silentLogger } from '../../electron/service/logger';
import { openPool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import {
  ENTRY_ROW_BYTES,
  PostgresQuestionLog,
} from '../../electron/service/store/postgres/question-log';
import type { Pool } from '../../electron/service/store/postgres/connection';
import { LOG_SHIFT } from '../../electron/service/store/postgres/question-log-schema';
import { freshDatabase } from '../helpers/postgres';
import { figuresMaker } from '../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const ENTRIES = 600_000;
/** Well over what a window of the purge takes, well under a read of the whole log. */
const STATEMENT_MS = 100;
const KEY = '9/large';

/** What the log's counter should hold for the rows in the table (decision 143). */
async function sizeOfRows(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ bytes: string }>(
    `SELECT sum(octet_length(line) + 1 + ${ENTRY_ROW_BYTES}) AS bytes FROM question_log_entries`,
  );
  return Number(rows[0]?.bytes ?? 0);
}

/**
 * Runs a pass that removes nothing (so it can be run again) on the pool of tight timeouts. A window
 * takes a few milliseconds; on a machine at a load of 20+ one can still be descheduled past the
 * timeout, so a cancelled pass is tried twice more. A pass reading the whole log in one statement
 * is cancelled every time.
 */
async function passWithinTimeout(pass: () => Promise<number>): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pass();
    } catch (error) {
      if (attempt >= 3 || !/statement timeout/.test(String(error))) throw error;
    }
  }
}

test('a budget pass over a large log on the team server runs in statements shorter than a tight timeout (decision 155)', async () => {
  const url = await freshDatabase('qlog_pass');
  // The log is written and checked by a pool of long timeouts (a bulk write on a loaded machine).
  const setup = openPool({
    url,
    logger: silentLogger,
    timeouts: { connectMs: 5000, queryMs: 300_000, statementMs: 300_000 },
  });
  const pool = openPool({
    url,
    logger: silentLogger,
    timeouts: { connectMs: 5000, queryMs: 5000, statementMs: STATEMENT_MS },
  });
  const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
  const bulk = new PostgresQuestionLog({ pool: setup, logger: silentLogger, flushMs: 60_000 });
  try {
    await migrate(setup, silentLogger);
    await log.open(KEY, figuresMaker().replay);
    await bulk.open(KEY, figuresMaker().replay);
    // Two days of entries in the order they were written, a line of 200 bytes each.
    await setup.query(
      `INSERT INTO question_log_entries (entry_id, at, outcome, user_hash, rule_hash, line)
       SELECT ((SELECT log_id FROM question_logs WHERE log_key = $1)::bigint << ${LOG_SHIFT}) + i + 1,
              $2::bigint + i * $3::bigint, 0, i % 997, 0, repeat('x', 200)
       FROM generate_series(0, $4 - 1) AS i`,
      [KEY, T0, Math.floor((2 * DAY) / ENTRIES), ENTRIES],
    );
    await setup.query(
      `UPDATE question_logs SET entries = $2, last_entry = $2,
         bytes = $3 WHERE log_key = $1`,
      [KEY, ENTRIES, await sizeOfRows(setup)],
    );
    await setup.query('VACUUM ANALYZE question_log_entries');
    const size = await log.size(KEY);
    // Nothing older than the retention, the size within its budget: the pass reads one window.
    assert.equal(await passWithinTimeout(() => log.enforceRetention(KEY, T0 - DAY, size)), 0);
    // The first day goes by retention, window by window (a pool of long timeouts: 5,000 rows
    // deleted a statement take more than the tight timeout on a loaded machine).
    const dayGone = await bulk.enforceRetention(KEY, T0 + DAY, size);
    const { rows } = await setup.query<{ n: string; oldest: string }>(
      'SELECT count(*) AS n, min(at) AS oldest FROM question_log_entries',
    );
    assert.equal(Number(rows[0]?.n), ENTRIES - dayGone);
    assert.ok(Number(rows[0]?.oldest) >= T0 + DAY);
    assert.ok(dayGone >= ENTRIES / 2 - 1, `${dayGone} went by retention`);
    assert.equal(await bulk.size(KEY), await sizeOfRows(setup));
  } finally {
    await log.close();
    await bulk.close();
    await pool.end();
    await setup.end();
  }
});
