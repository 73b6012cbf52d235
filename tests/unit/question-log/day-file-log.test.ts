import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { DayFileLog } from '../../../electron/service/store/embedded/question-log/day-file-log';
import { loggedQuestion } from '../../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);

const entry = loggedQuestion;

function withLog(run: (log: DayFileLog, dir: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-'));
    const log = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    try {
      await run(log, dir);
    } finally {
      await log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'entries round-trip through day files, unusual answer kinds and texts included',
  withLog(async (log, dir) => {
    const entries = [
      entry(T0, 'a "quoted"\nline', {
        answerType: 'RECOMMEND',
        recommended: ['r1', 'r2'],
        ruleId: null,
      }),
      entry(T0 + 1, '兜底', {
        module: 'NONE',
        score: 0,
        ruleId: null,
        source: 'try',
        channel: 'TRY',
      }),
      entry(T0 + DAY, 'menu', { answerType: 'MENU', module: 'CHAT', version: 3, chosenFrom: 'x' }),
      entry(T0 + DAY + 1, '2', { version: 4, menuEntry: 2, score: 1 }),
    ];
    for (const e of entries) log.append('1/default', e);
    assert.deepEqual(await log.read('1/default', 0, Infinity), entries, 'buffered');
    await log.flush();
    assert.deepEqual(readdirSync(join(dir, 'question-log', '1', 'default')).sort(), [
      '2026-01-01.jsonl',
      '2026-01-02.jsonl',
    ]);
    assert.deepEqual(await log.read('1/default', 0, Infinity), entries, 'from the files');
    assert.deepEqual(await log.read('1/default', T0 + 1, T0 + DAY), [entries[1]]);
    assert.deepEqual(await log.read('1/other', 0, Infinity), []);
  }),
);

test(
  'a line cut short by a crash is skipped',
  withLog(async (log, dir) => {
    log.append('1/default', entry(T0));
    await log.flush();
    const file = join(dir, 'question-log', '1', 'default', '2026-01-01.jsonl');
    appendFileSync(file, '[1767254400000,"u","API","cut sh');
    assert.equal((await log.read('1/default', 0, Infinity)).length, 1);
  }),
);

test(
  'a line written before menu follow-ups were logged (12 values) reads with no menu entry',
  withLog(async (log, dir) => {
    log.append('1/default', entry(T0, 'first'));
    await log.flush();
    const file = join(dir, 'question-log', '1', 'default', '2026-01-01.jsonl');
    appendFileSync(file, `[${T0 + 1},"u","API","older",0,0,1,"r",[],null,0,null]\n`);
    const read = await log.read('1/default', 0, Infinity);
    assert.deepEqual(read[1], entry(T0 + 1, 'older', { score: 1 }));
    assert.equal(read[1]?.menuEntry, null);
  }),
);

test(
  'retention drops whole days before the first kept day, then the oldest days over the size',
  withLog(async (log, dir) => {
    for (let day = 0; day < 5; day++) {
      for (let i = 0; i < 10; i++) log.append('1/r', entry(T0 + day * DAY + i));
    }
    await log.flush();
    assert.equal(await log.enforceRetention('1/r', T0 + 2 * DAY + 5, 1e9), 20);
    const files = () => readdirSync(join(dir, 'question-log', '1', 'r')).sort();
    assert.deepEqual(files(), ['2026-01-03.jsonl', '2026-01-04.jsonl', '2026-01-05.jsonl']);
    const oneDay = readFileSync(join(dir, 'question-log', '1', 'r', '2026-01-05.jsonl')).length;
    assert.equal(await log.enforceRetention('1/r', 0, oneDay + 1), 20);
    assert.deepEqual(files(), ['2026-01-05.jsonl']);
    assert.equal(await log.enforceRetention('1/r', 0, 1), 0, 'the newest day always stays');
    assert.equal(await log.clear('1/r'), 10);
    assert.deepEqual(files(), []);
  }),
);

test(
  'inbox marks are kept per log',
  withLog(async (log) => {
    assert.deepEqual(await log.marks('1/r'), []);
    await log.saveMarks('1/r', [{ key: 'k', at: 1, kind: 'dismissed' }]);
    assert.deepEqual(await log.marks('1/r'), [{ key: 'k', at: 1, kind: 'dismissed' }]);
    assert.deepEqual(await log.logs(), ['1/r']);
  }),
);
