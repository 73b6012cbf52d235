/**
 * The question log of both stores held to the same behaviour: the embedded day files and the
 * team server's table (a real PostgreSQL, tests/helpers/postgres.ts) are given the same entries
 * and must answer alike; the table is shared by the nodes of a team server.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { silentLogger } from '../../electron/service/logger';
import { openPool } from '../../electron/service/store/postgres/connection';
import type { Pool } from '../../electron/service/store/postgres/connection';
import { migrate } from '../../electron/service/store/postgres/migrate';
import { PostgresQuestionLog } from '../../electron/service/store/postgres/question-log';
import type { QuestionLogRepository } from '../../electron/service/store/contract/question-log';
import { DayFileLog } from '../../electron/service/store/embedded/question-log/day-file-log';
import { freshDatabase } from '../helpers/postgres';
import { figuresMaker, loggedQuestion } from '../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);

const entry = loggedQuestion;

/** Every entry of a log in [from, to), oldest first, read a slice at a time. */
async function read(log: QuestionLogRepository, key: string, from: number, to: number) {
  const entries = [];
  for await (const slice of log.slices(key, from, to)) entries.push(...slice);
  return entries;
}

describe('question log: day files and the PostgreSQL table answer alike', () => {
  let dir: string;
  let pool: Pool;
  let files: DayFileLog;
  let table: PostgresQuestionLog;
  let logs: [string, QuestionLogRepository][];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kb-qlog-both-'));
    pool = openPool({ url: await freshDatabase('qlog'), logger: silentLogger });
    await migrate(pool, silentLogger);
    files = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    table = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    logs = [
      ['day files', files],
      ['table', table],
    ];
    // Entries are appended once their log is open (the store's contract).
    for (const [, log] of logs) {
      for (const key of ['1/default', '1/r', '3/shared'])
        await log.open(key, figuresMaker().replay);
    }
  });
  after(async () => {
    await files.close();
    await table.close();
    await pool.end();
    rmSync(dir, { recursive: true, force: true });
  });

  test('entries round-trip, buffered and written, unusual kinds and texts included', async () => {
    const entries = [
      entry(T0, 'a "quoted"\nline \u0000', {
        answerType: 'RECOMMEND',
        recommended: ['r1', 'r2'],
        ruleId: null,
      }),
      entry(T0 + 1, '兜底', { module: 'NONE', score: 0, ruleId: null, source: 'try' }),
      entry(T0 + DAY, 'menu', { answerType: 'MENU', module: 'CHAT', version: 3, chosenFrom: 'x' }),
      entry(T0 + DAY + 1, '2', { version: 4, menuEntry: 2, score: 1 }),
    ];
    for (const [name, log] of logs) {
      for (const e of entries) log.append('1/default', e, null);
      assert.deepEqual(await read(log, '1/default', 0, Infinity), entries, name);
      await log.flush();
      assert.deepEqual(await read(log, '1/default', 0, Infinity), entries, name);
      assert.deepEqual(await read(log, '1/default', T0 + 1, T0 + DAY), [entries[1]], name);
      assert.deepEqual(await read(log, '1/other', 0, Infinity), [], name);
    }
    for (const [name, log] of logs) {
      const page = await log.page('1/default', {
        filter: { from: 0, to: Number.MAX_SAFE_INTEGER },
        before: null,
        offset: 0,
        limit: 3,
      });
      assert.deepEqual(page.entries, [...entries].reverse().slice(0, 3), name);
      assert.equal(page.total, 4, name);
      assert.ok(page.next, name);
      const older = await log.page('1/default', {
        filter: { from: 0, to: Number.MAX_SAFE_INTEGER },
        before: page.next,
        offset: 0,
        limit: 3,
      });
      assert.deepEqual(older.entries, [entries[0]], `${name}: paged back to the oldest`);
      assert.equal(older.next, null, name);
    }
  });

  test('retention drops whole days before the first kept day, then the oldest over the size, the current day included', async () => {
    for (const [name, log] of logs) {
      for (let day = 0; day < 5; day++) {
        for (let i = 0; i < 10; i++) log.append('1/r', entry(T0 + day * DAY + i), null);
      }
      await log.flush();
      assert.equal(await log.enforceRetention('1/r', T0 + 2 * DAY + 5, 1e9), 20, name);
      const oneDay = (await log.size('1/r')) / 3;
      assert.equal(await log.enforceRetention('1/r', 0, oneDay + 1), 20, name);
      assert.equal((await read(log, '1/r', 0, Infinity)).length, 10, name);
      assert.equal(await log.enforceRetention('1/r', 0, 1), 10, `${name}: the newest day goes too`);
      log.append('1/r', entry(T0 + 5 * DAY), null);
      assert.equal(await log.clear('1/r'), 1, `${name}: buffered entries too`);
      assert.deepEqual(await read(log, '1/r', 0, Infinity), [], name);
    }
  });

  test('inbox marks are kept per log', async () => {
    for (const [name, log] of logs) {
      assert.deepEqual(await log.marks('2/m'), [], name);
      await log.saveMarks('2/m', [{ key: 'k', at: 1, kind: 'dismissed' }]);
      await log.saveMarks('2/m', [{ key: 'k', at: 2, kind: 'handled', version: 3 }]);
      assert.deepEqual(
        await log.marks('2/m'),
        [{ key: 'k', at: 2, kind: 'handled', version: 3 }],
        name,
      );
      assert.ok((await log.logs()).includes('2/m'), name);
    }
  });

  test('every node of a team server reads what the others wrote', async () => {
    const other = new PostgresQuestionLog({ pool, logger: silentLogger, flushMs: 60_000 });
    try {
      await other.open('3/shared', figuresMaker().replay);
      other.append('3/shared', entry(T0, 'from the other node'), null);
      await other.flush();
      table.append('3/shared', entry(T0 + 1, 'from this node'), null);
      assert.deepEqual(
        (await read(table, '3/shared', 0, Infinity)).map((e) => e.question),
        ['from the other node', 'from this node'],
      );
      assert.equal((await read(other, '3/shared', 0, Infinity)).length, 2);
    } finally {
      await other.close();
    }
  });
});
