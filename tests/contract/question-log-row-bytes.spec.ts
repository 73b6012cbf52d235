/**
 * What an entry of the team server's log costs beside its line (decision 177, server migration
 * 16): its row and its index entries, measured on a log filled through the repository, and the
 * user's and the rule's pages still read by their indexes (the rule's now holds each rule once).
 * Sizes on disk do not depend on the machine's load; the index use is polled from the
 * statistics, which each connection reports when idle (no tight deadline).
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { silentLogger } from '../../electron/service/logger';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import { openPool } from '../../electron/service/store/postgres/connection';
import type { Pool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import { figuresMaker, loggedQuestion } from '../helpers/logged-question';
import { freshDatabase } from '../helpers/postgres';

const T0 = Date.UTC(2026, 10, 20, 9);
const KEY = '1/bytes';
const ENTRIES = 20_000;
const USERS = 4_000;
const RULES = 60;
/**
 * Bytes an entry takes beside its line at most (heap tuple, index entries, pages' free space).
 * Measured on this fill: 156 before migration 16 (a rule index keyed by entry, the primary
 * key's leaves 90% full), 124.5 after, 106.9 after migration 17 (no log column nor padding in
 * the row, the primary key one number: decision 204).
 */
const MAX_OVERHEAD = 115;

const ruleId = (n: number) => `6f1c2a9e-52b4-4c1e-9a57-${String(n).padStart(12, '0')}`;

/** Asks of many users; four in five answered by one of a few rules, the rest missed. */
function entry(i: number): LoggedQuestion {
  const answered = i % 5 !== 4;
  return loggedQuestion(T0 + i * 1000, `如何网点快递保修 编号${i % 997}`, {
    userId: `user-${(i * 7919) % USERS}`,
    ruleId: answered ? ruleId((i * 31) % RULES) : null,
    answerType: answered ? 'BESTMATCH' : 'NONE',
    score: answered ? 0.91 : 0,
  });
}

async function indexScans(pool: Pool, index: string): Promise<number> {
  const { rows } = await pool.query<{ n: string | null }>(
    'SELECT idx_scan AS n FROM pg_stat_user_indexes WHERE indexrelname = $1',
    [index],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Polls until the index has been scanned more than `before` times (stats come when idle). */
async function scannedSince(pool: Pool, index: string, before: number): Promise<boolean> {
  for (let i = 0; i < 120; i++) {
    if ((await indexScans(pool, index)) > before) return true;
    await sleep(500);
  }
  return false;
}

test('an entry costs little beside its line, and the user and rule filters read their indexes (decision 177)', async (t) => {
  const pool = openPool({ url: await freshDatabase('qlog_bytes'), logger: silentLogger });
  const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
  try {
    await migrate(pool, silentLogger);
    await log.open(KEY, figuresMaker().replay);
    const all = Array.from({ length: ENTRIES }, (_, i) => entry(i));
    // A second's flush at a time, as a busy service writes them.
    for (let i = 0; i < ENTRIES; i += 1000) {
      for (const e of all.slice(i, i + 1000)) log.append(KEY, e, null);
      await log.flush();
    }
    await pool.query('VACUUM ANALYZE question_log_entries');
    const { rows } = await pool.query<{ total: string; lines: string; n: string }>(
      `SELECT pg_total_relation_size('question_log_entries') AS total,
              sum(octet_length(line)) AS lines, count(*) AS n FROM question_log_entries`,
    );
    const row = rows[0];
    assert.equal(Number(row?.n), ENTRIES);
    const overhead = (Number(row?.total) - Number(row?.lines)) / ENTRIES;
    t.diagnostic(`${overhead.toFixed(1)} bytes an entry beside its line`);
    assert.ok(overhead <= MAX_OVERHEAD, `${overhead.toFixed(1)} bytes an entry beside its line`);

    const filter = { from: 0, to: Number.MAX_SAFE_INTEGER };
    const read = (extra: object) =>
      log.page(KEY, { filter: { ...filter, ...extra }, before: null, offset: 0, limit: 50 });
    const userBefore = await indexScans(pool, 'question_log_entries_by_user');
    const user = await read({ userId: 'user-7' });
    const users = all.filter((e) => e.userId === 'user-7').reverse();
    assert.deepEqual(user.entries, users);
    assert.equal(user.total, users.length);
    assert.ok(await scannedSince(pool, 'question_log_entries_by_user', userBefore), 'by_user read');

    const ruleBefore = await indexScans(pool, 'question_log_entries_by_rule');
    const rule = await read({ ruleId: ruleId(7) });
    const ruled = all.filter((e) => e.ruleId === ruleId(7)).reverse();
    assert.deepEqual(rule.entries, ruled.slice(0, 50));
    assert.equal(rule.total, ruled.length);
    assert.ok(await scannedSince(pool, 'question_log_entries_by_rule', ruleBefore), 'by_rule read');
  } finally {
    await log.close();
    await pool.end();
  }
});
