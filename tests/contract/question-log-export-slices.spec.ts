/**
 * The team server's export (and an impact preview's replay) reads the log a slice at a time, and
 * each slice is decoded and made into CSV rows in one turn of the event loop: a slice of 5000
 * entries took ~80 ms of that turn and held asks for over a second under load while a million
 * entries were exported (decision 189). The bound is on entries per slice (no clock involved).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { silentLogger } from '../../electron/service/logger';
import { openPool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import { figuresMaker, loggedQuestion } from '../helpers/logged-question';
import { freshDatabase } from '../helpers/postgres';

const T0 = Date.UTC(2026, 10, 28, 9);
const KEY = '1/export';
const ENTRIES = 2_500;
/** Entries a slice may hold at most: ~15 ms of an event loop's turn each (decision 189). */
const MOST_PER_SLICE = 1_000;

test('an export reads the team server log in slices of at most 1000 entries, in order and whole (decision 189)', async () => {
  const pool = openPool({ url: await freshDatabase('qlog_slices'), logger: silentLogger });
  const log = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
  try {
    await migrate(pool, silentLogger);
    await log.open(KEY, figuresMaker().replay);
    for (let i = 0; i < ENTRIES; i++)
      log.append(KEY, loggedQuestion(T0 + i, `问题 ${i}`, { userId: `user-${i % 97}` }), null);
    await log.flush();
    const sizes: number[] = [];
    const read: number[] = [];
    for await (const slice of log.slices(KEY, 0, Number.MAX_SAFE_INTEGER)) {
      sizes.push(slice.length);
      for (const entry of slice) read.push(entry.at);
    }
    assert.ok(
      sizes.every((size) => size <= MOST_PER_SLICE),
      `slices of ${sizes.join(', ')} entries`,
    );
    assert.deepEqual(
      read,
      Array.from({ length: ENTRIES }, (_, i) => T0 + i),
      'every entry once, oldest first',
    );
  } finally {
    await log.close();
    await pool.end();
  }
});
