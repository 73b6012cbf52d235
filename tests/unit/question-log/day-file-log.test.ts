import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { DayFileLog } from '../../../electron/service/store/embedded/question-log/day-file-log';
import { figuresMaker, loggedQuestion } from '../../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);

const entry = loggedQuestion;

/** Every entry of a log in [from, to), oldest first, read a slice at a time. */
async function read(log: DayFileLog, key: string, from: number, to: number) {
  const entries = [];
  for await (const slice of log.slices(key, from, to)) entries.push(...slice);
  return entries;
}

/** Rule `r`'s hits in robot `1/r` as a log reopened on `dir` counts them (what was saved). */
async function hitsReopened(dir: string, now: () => number): Promise<number | undefined> {
  const reopened = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000, now });
  try {
    await reopened.open('1/r', figuresMaker().replay);
    const rows = await reopened.figures.rules('1/r');
    return rows.find((r) => r.ruleId === 'r')?.hits;
  } finally {
    await reopened.close();
  }
}

function withLog(run: (log: DayFileLog, dir: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-'));
    const log = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    // Entries are appended once their log is open (the store's contract).
    for (const key of ['1/default', '1/r']) await log.open(key, figuresMaker().replay);
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
    for (const e of entries) log.append('1/default', e, null);
    assert.deepEqual(await read(log, '1/default', 0, Infinity), entries, 'buffered');
    await log.filtersBuilt();
    assert.deepEqual(readdirSync(join(dir, 'question-log', '1', 'default')).sort(), [
      '2026-01-01-0000.grams',
      '2026-01-01-0000.idx',
      '2026-01-01-0000.jsonl',
      '2026-01-02-0000.idx',
      '2026-01-02-0000.jsonl',
    ]);
    assert.deepEqual(await read(log, '1/default', 0, Infinity), entries, 'from the files');
    assert.deepEqual(await read(log, '1/default', T0 + 1, T0 + DAY), [entries[1]]);
    assert.deepEqual(await read(log, '1/other', 0, Infinity), []);
  }),
);

test(
  'a line cut short by a crash is skipped',
  withLog(async (log, dir) => {
    log.append('1/default', entry(T0), null);
    await log.flush();
    const file = join(dir, 'question-log', '1', 'default', '2026-01-01-0000.jsonl');
    appendFileSync(file, '[1767254400000,"u","API","cut sh');
    const reopened = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    try {
      await reopened.open('1/default', figuresMaker().replay);
      assert.equal((await read(reopened, '1/default', 0, Infinity)).length, 1);
      reopened.append('1/default', entry(T0 + 2, 'after the crash'), null);
      assert.deepEqual(
        (await read(reopened, '1/default', 0, Infinity)).map((e) => e.question),
        ['q', 'after the crash'],
      );
    } finally {
      await reopened.close();
    }
  }),
);

test(
  'a line written before menu follow-ups were logged (12 values) reads with no menu entry',
  withLog(async (log, dir) => {
    log.append('1/default', entry(T0, 'first'), null);
    await log.flush();
    const file = join(dir, 'question-log', '1', 'default', '2026-01-01-0000.jsonl');
    appendFileSync(file, `[${T0 + 1},"u","API","older",0,0,1,"r",[],null,0,null]\n`);
    const reopened = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    try {
      await reopened.open('1/default', figuresMaker().replay);
      const entries = await read(reopened, '1/default', 0, Infinity);
      assert.deepEqual(entries[1], entry(T0 + 1, 'older', { score: 1 }));
      assert.equal(entries[1]?.menuEntry, null);
    } finally {
      await reopened.close();
    }
  }),
);

test(
  'retention drops whole days before the first kept day, then the oldest segments over the size, the current day included',
  withLog(async (log, dir) => {
    for (let day = 0; day < 5; day++) {
      for (let i = 0; i < 10; i++) log.append('1/r', entry(T0 + day * DAY + i), null);
    }
    await log.flush();
    assert.equal(await log.enforceRetention('1/r', T0 + 2 * DAY + 5, 1e9), 20);
    const files = () =>
      readdirSync(join(dir, 'question-log', '1', 'r'))
        .filter((name) => name.endsWith('.jsonl'))
        .sort();
    assert.deepEqual(files(), [
      '2026-01-03-0000.jsonl',
      '2026-01-04-0000.jsonl',
      '2026-01-05-0000.jsonl',
    ]);
    const bytesOf = (name: string) =>
      readFileSync(join(dir, 'question-log', '1', 'r', `${name}.jsonl`)).length +
      readFileSync(join(dir, 'question-log', '1', 'r', `${name}.idx`)).length;
    const oneDay = bytesOf('2026-01-05-0000');
    // The closed days' text filters count too.
    await log.filtersBuilt();
    const filters = readdirSync(join(dir, 'question-log', '1', 'r'))
      .filter((name) => name.endsWith('.grams'))
      .reduce(
        (sum, name) => sum + readFileSync(join(dir, 'question-log', '1', 'r', name)).length,
        0,
      );
    assert.ok(filters > 0);
    assert.equal(await log.size('1/r'), 3 * oneDay + filters);
    assert.equal(await log.enforceRetention('1/r', 0, oneDay + 1), 20);
    assert.deepEqual(files(), ['2026-01-05-0000.jsonl']);
    assert.equal(await log.enforceRetention('1/r', 0, 1), 10, 'the newest day goes too');
    assert.deepEqual(files(), []);
    log.append('1/r', entry(T0 + 5 * DAY), null);
    assert.equal(await log.clear('1/r'), 1);
    assert.deepEqual(files(), []);
  }),
);

test(
  'inbox marks are kept per log',
  withLog(async (log) => {
    assert.deepEqual(await log.marks('1/r'), []);
    await log.saveMarks('1/r', [{ key: 'k', at: 1, kind: 'dismissed' }]);
    assert.deepEqual(await log.marks('1/r'), [{ key: 'k', at: 1, kind: 'dismissed' }]);
    assert.ok((await log.logs()).includes('1/r'));
  }),
);

test('the size budget holds for the folder as a whole: the figure files count, and stay', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-'));
  const now = () => T0 + 3 * DAY;
  const robotDir = join(dir, 'question-log', '1', 'r');
  const folderBytes = () =>
    readdirSync(robotDir, { recursive: true, encoding: 'utf8' })
      .map((name) => join(robotDir, name))
      .filter((path) => statSync(path).isFile())
      .reduce((sum, path) => sum + statSync(path).size, 0);
  try {
    const writer = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000, now });
    const figures = figuresMaker();
    await writer.open('1/r', figures.replay);
    for (let day = 0; day < 3; day++) {
      for (let i = 0; i < 400; i++) {
        const asked = entry(T0 + day * DAY + i, `question number ${i} of day ${day}`, {
          module: 'NONE',
          score: 0,
          ruleId: null,
        });
        writer.append('1/r', asked, figures.figuresOf(asked));
      }
    }
    await writer.close(); // saves every day's figures
    const log = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000, now });
    try {
      await log.open('1/r', figuresMaker().replay);
      const figureFiles = readdirSync(join(robotDir, 'figures')).sort();
      assert.equal(figureFiles.length, 3);
      // The entries alone fit, the folder does not: the figure files must count.
      const entries = await log.size('1/r');
      const budget = folderBytes() - Math.floor(entries / 2);
      assert.ok(entries <= budget && folderBytes() > budget);
      assert.ok((await log.enforceRetention('1/r', 0, budget)) > 0);
      assert.ok(folderBytes() <= budget, `${folderBytes()} bytes kept for ${budget}`);
      assert.ok((await log.size('1/r')) > 0, 'the newest entries stay');
      assert.deepEqual(readdirSync(join(robotDir, 'figures')).sort(), figureFiles);
    } finally {
      await log.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  'a page at any offset, the oldest included, over many segments: the entries of a full read, counted whole',
  withLog(async (log, dir) => {
    // Segments of 16 KiB (the smallest): some a hundred lines each.
    await log.enforceRetention('1/r', 0, 16 * 1024 * 20);
    const entries = Array.from({ length: 1200 }, (_, i) =>
      entry(T0 + i * 1000, `question ${i} ${'x'.repeat(100)}`, { userId: `user-${i % 7}` }),
    );
    for (const e of entries) log.append('1/r', e, null);
    await log.flush();
    const segments = readdirSync(join(dir, 'question-log', '1', 'r')).filter((name) =>
      name.endsWith('.jsonl'),
    );
    assert.ok(segments.length > 10, `${segments.length} segments`);
    const newestFirst = [...entries].reverse();
    const filter = { from: 0, to: Number.MAX_SAFE_INTEGER };
    for (const offset of [0, 49, 50, 51, 333, 777, 1150, 1190, 1199, 1200]) {
      const page = await log.page('1/r', { filter, offset, limit: 10, before: null });
      assert.equal(page.total, 1200);
      assert.deepEqual(
        page.entries.map((e) => e.question),
        newestFirst.slice(offset, offset + 10).map((e) => e.question),
        `offset ${offset}`,
      );
    }
    // A filtered deep page reads the records (no whole segment matches).
    const users = newestFirst.filter((e) => e.userId === 'user-3');
    const page = await log.page('1/r', {
      filter: { ...filter, userId: 'user-3' },
      offset: users.length - 5,
      limit: 10,
      before: null,
    });
    assert.equal(page.total, users.length);
    assert.deepEqual(
      page.entries.map((e) => e.question),
      users.slice(-5).map((e) => e.question),
    );
  }),
);

test(
  "segment lines count the time from their day and leave the usual values out; the shared form's lines still read, in the same file",
  withLog(async (log, dir) => {
    log.append('1/default', entry(T0, 'new'), null);
    log.append('1/default', entry(T0 + 1, 'tried', { source: 'try', version: 2 }), null);
    await log.flush();
    const file = join(dir, 'question-log', '1', 'default', '2026-01-01-0000.jsonl');
    const [plain, tried] = readFileSync(file, 'utf8').split('\n');
    const inDay = T0 - Date.UTC(2026, 0, 1);
    assert.equal(plain, `[${inDay},"u",0,"new",0,0,0.5,"r",[]]`);
    assert.equal(tried, `[${inDay + 1},"u",0,"tried",0,0,0.5,"r",[],2,1]`);
    appendFileSync(file, `[${T0 + 2},"u","API","shared form",0,0,1,"r",[],null,0,null]\n`);
    const reopened = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    try {
      await reopened.open('1/default', figuresMaker().replay);
      assert.deepEqual(await read(reopened, '1/default', 0, Infinity), [
        entry(T0, 'new'),
        entry(T0 + 1, 'tried', { source: 'try', version: 2 }),
        entry(T0 + 2, 'shared form', { score: 1 }),
      ]);
    } finally {
      await reopened.close();
    }
  }),
);

test('an entry appended while the figures are being saved counts in the next read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-'));
  const log = new DayFileLog({
    dataDir: dir,
    logger: silentLogger,
    flushMs: 60_000,
    checkpointEntries: 1,
  });
  const { figuresOf, replay } = figuresMaker();
  await log.open('1/r', replay);
  const ask = (i: number) => {
    const e = entry(T0 + i, `question ${i}`);
    log.append('1/r', e, figuresOf(e));
  };
  const hits = async () => (await log.figures.rules('1/r')).find((r) => r.ruleId === 'r')?.hits;
  try {
    ask(0);
    // The timer's work, at once: a checkpoint is due after one entry.
    const saving = (log as unknown as { checkpointDue(): Promise<void> }).checkpointDue();
    let saved = false;
    void saving.then(() => (saved = true));
    let asked = 1;
    let reads = 0;
    while (!saved) {
      ask(asked);
      asked += 1;
      assert.equal(await hits(), asked, `every ask counted at read ${reads + 1}`);
      reads += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(reads >= 2, `asks were made while the checkpoint ran (${reads} reads)`);
    assert.equal(await hits(), asked);
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a read during a checkpoint waits for no disk: the flush and the files come after the figures count', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-'));
  const log = new DayFileLog({
    dataDir: dir,
    logger: silentLogger,
    flushMs: 60_000,
    checkpointEntries: 1,
    // The entries' day is today's: an open day (a day closing is saved as before).
    now: () => T0 + 60_000,
  });
  const { figuresOf, replay } = figuresMaker();
  await log.open('1/r', replay);
  const ask = (i: number) => {
    const e = entry(T0 + i, `question ${i}`);
    log.append('1/r', e, figuresOf(e));
  };
  // The checkpoint's flush stays under way (a slow disk) until the test lets it go.
  let letGo = (): void => undefined;
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  const flush = log.flush.bind(log);
  let flushing = false;
  log.flush = async () => {
    flushing = true;
    await gate;
    return flush();
  };
  try {
    ask(0);
    const saving = (log as unknown as { checkpointDue(): Promise<void> }).checkpointDue();
    while (!flushing) await new Promise((resolve) => setImmediate(resolve));
    ask(1);
    let hits: number | undefined;
    void log.figures.rules('1/r').then((rows) => (hits = rows.find((r) => r.ruleId === 'r')?.hits));
    for (let turn = 0; turn < 1000 && hits === undefined; turn++)
      await new Promise((resolve) => setImmediate(resolve));
    assert.equal(hits, 2, 'answered, the ask made during the checkpoint counted');
    letGo();
    await saving;
    assert.equal((await log.figures.rules('1/r')).find((r) => r.ruleId === 'r')?.hits, 2);
    await log.close();
    // Saved at the position the figures covered: reopened, the same count (nothing twice).
    assert.equal(await hitsReopened(dir, () => T0 + 60_000), 2);
  } finally {
    letGo();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a checkpoint that closes a day holds no read through its flush: the day reads open or closed, and counts once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-'));
  // The entries' day is two days ago: the checkpoint closes it.
  const now = () => T0 + 2 * DAY;
  const log = new DayFileLog({
    dataDir: dir,
    logger: silentLogger,
    flushMs: 60_000,
    checkpointEntries: 1,
    now,
  });
  const { figuresOf, replay } = figuresMaker();
  await log.open('1/r', replay);
  const ask = (at: number, text: string) => {
    const e = entry(at, text);
    log.append('1/r', e, figuresOf(e));
  };
  // Each flush of the checkpoint stays under way (a slow disk) until the test lets it go.
  let letGo = (): void => undefined;
  let gate = new Promise<void>((resolve) => (letGo = resolve));
  const flush = log.flush.bind(log);
  let flushes = 0;
  log.flush = async () => {
    flushes += 1;
    await gate;
    return flush();
  };
  const hitsNow = async () => {
    let hits: number | undefined;
    void log.figures.rules('1/r').then((rows) => (hits = rows.find((r) => r.ruleId === 'r')?.hits));
    for (let turn = 0; turn < 1000 && hits === undefined; turn++)
      await new Promise((resolve) => setImmediate(resolve));
    return hits;
  };
  try {
    ask(T0, 'question 0');
    const saving = (log as unknown as { checkpointDue(): Promise<void> }).checkpointDue();
    for (let passed = 0; passed < 2; passed++) {
      const before = flushes;
      while (flushes === before) await new Promise((resolve) => setImmediate(resolve));
      ask(now() + passed, `question today ${passed}`);
      assert.equal(
        await hitsNow(),
        2 + passed,
        `answered during flush ${passed + 1}, the ask counted`,
      );
      const wasGate = letGo;
      gate = new Promise<void>((resolve) => (letGo = resolve));
      wasGate();
    }
    letGo();
    await saving;
    log.flush = flush;
    assert.equal(await hitsNow(), 3);
    await log.close();
    assert.equal(await hitsReopened(dir, now), 3, 'reopened: each ask counted once');
  } finally {
    letGo();
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
