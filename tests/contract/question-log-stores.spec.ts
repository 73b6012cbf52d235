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
import { loggedQuestion } from '../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);

const entry = loggedQuestion;

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
      for (const e of entries) log.append('1/default', e);
      assert.deepEqual(await log.read('1/default', 0, Infinity), entries, name);
      await log.flush();
      assert.deepEqual(await log.read('1/default', 0, Infinity), entries, name);
      assert.deepEqual(await log.read('1/default', T0 + 1, T0 + DAY), [entries[1]], name);
      assert.deepEqual(await log.read('1/other', 0, Infinity), [], name);
    }
    assert.equal(await table.size('1/default'), await files.size('1/default'), 'the same bytes');
  });

  test('retention drops whole days before the first kept day, then the oldest over the size', async () => {
    for (const [name, log] of logs) {
      for (let day = 0; day < 5; day++) {
        for (let i = 0; i < 10; i++) log.append('1/r', entry(T0 + day * DAY + i));
      }
      await log.flush();
      assert.equal(await log.enforceRetention('1/r', T0 + 2 * DAY + 5, 1e9), 20, name);
      const oneDay = (await log.size('1/r')) / 3;
      assert.equal(await log.enforceRetention('1/r', 0, oneDay + 1), 20, name);
      assert.equal((await log.read('1/r', 0, Infinity)).length, 10, name);
      assert.equal(await log.enforceRetention('1/r', 0, 1), 0, `${name}: the newest day stays`);
      log.append('1/r', entry(T0 + 5 * DAY));
      assert.equal(await log.clear('1/r'), 11, `${name}: buffered entries too`);
      assert.deepEqual(await log.read('1/r', 0, Infinity), [], name);
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
      other.append('3/shared', entry(T0, 'from the other node'));
      await other.flush();
      table.append('3/shared', entry(T0 + 1, 'from this node'));
      assert.deepEqual(
        (await table.read('3/shared', 0, Infinity)).map((e) => e.question),
        ['from the other node', 'from this node'],
      );
      assert.equal((await other.read('3/shared', 0, Infinity)).length, 2);
    } finally {
      await other.close();
    }
  });
});
