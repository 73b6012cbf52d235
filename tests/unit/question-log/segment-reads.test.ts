/**
 * The embedded log's raw reads (decisions 133-134): a page reads the lines not written yet from
 * memory (no write and sync per page) and its cursor goes on once they are written; a search by
 * user id skips the closed segments whose filter cannot hold the user without reading their
 * index; a filter of the first form is still read and made anew; the export's rows (made on the
 * loop a small chunk a turn: decision 202) are byte for byte the rows of the log.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { csvRow } from '../../../electron/service/question-log-types';
import type { PageRequest } from '../../../electron/service/store/contract/question-log';
import { DayFileLog } from '../../../electron/service/store/embedded/question-log/day-file-log';
import { exportRows } from '../../../electron/service/store/embedded/question-log/segment-export';
import {
  EntryFilter,
  GramFilter,
  isFirstForm,
  isThirdForm,
} from '../../../electron/service/store/embedded/question-log/segment-grams';
import {
  entryMatches,
  textHash,
} from '../../../electron/service/store/embedded/question-log/segment-index';
import { figuresMaker, loggedQuestion } from '../../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);
const KEY = '1/default';

const request = (
  filter: Partial<PageRequest['filter']>,
  before: string | null = null,
  limit = 10,
) => ({
  filter: { from: 0, to: Number.MAX_SAFE_INTEGER, ...filter },
  before,
  offset: 0,
  limit,
});

function tempLog(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `kb-qlog-${name}-`));
  const folder = join(dir, 'question-log', '1', 'default');
  const open = async () => {
    const log = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    await log.open(KEY, figuresMaker().replay);
    return log;
  };
  return { dir, folder, open, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a page reads the lines not written yet from memory; its cursor goes on once they are written', async () => {
  const temp = tempLog('tail');
  const log = await temp.open();
  try {
    for (let i = 0; i < 30; i++)
      log.append(KEY, loggedQuestion(T0 + i, `q${i}`, { userId: `u${i % 3}` }), null);
    const first = await log.page(KEY, request({}));
    assert.deepEqual(
      first.entries.map((e) => e.question),
      Array.from({ length: 10 }, (_, i) => `q${29 - i}`),
    );
    assert.equal(first.total, 30);
    const jsonl = existsSync(temp.folder)
      ? readdirSync(temp.folder).filter((name) => name.endsWith('.jsonl'))
      : [];
    assert.deepEqual(jsonl, [], 'the page wrote nothing');
    assert.equal(log.unwritten(KEY), 30, 'none written yet');
    const user = await log.page(KEY, request({ userId: 'u1' }));
    assert.deepEqual(
      user.entries.map((e) => e.question),
      [28, 25, 22, 19, 16, 13, 10, 7, 4, 1].map((i) => `q${i}`),
    );
    assert.equal((await log.page(KEY, request({ text: 'Q2' }, null, 100))).total, 11);

    await log.flush();
    assert.equal(log.unwritten(KEY), 0, 'all written and synced');
    const second = await log.page(KEY, request({}, first.next));
    assert.deepEqual(
      second.entries.map((e) => e.question),
      Array.from({ length: 10 }, (_, i) => `q${19 - i}`),
      'the cursor taken on buffered lines names the same entries once written',
    );
    // Buffered and written together: the newest from memory, then the files.
    log.append(KEY, loggedQuestion(T0 + 30, 'q30', { userId: 'u0' }), null);
    const mixed = await log.page(KEY, request({ userId: 'u0' }, null, 3));
    assert.deepEqual(
      mixed.entries.map((e) => e.question),
      ['q30', 'q27', 'q24'],
    );
    assert.equal(mixed.total, 11);
  } finally {
    await log.close();
    temp.remove();
  }
});

test('a user filter never says "no" to a user added, nor a time filter to a time inside', () => {
  const users = Array.from({ length: 3000 }, (_, i) => `user-${i * 7}`);
  const filter = EntryFilter.of(users.length, (add) =>
    users.forEach((user, i) => add(textHash(user), 1000 + i)),
  );
  for (const user of users) assert.ok(filter.mayHoldUser(textHash(user)), user);
  let wrong = 0;
  for (let i = 0; i < 10_000; i++) if (filter.mayHoldUser(textHash(`other-${i}`))) wrong++;
  assert.ok(wrong < 200, `${wrong} of 10,000 absent users said "maybe"`);
  assert.ok(filter.mayHoldTime(0, 1001));
  assert.ok(filter.mayHoldTime(3999, 5000));
  assert.ok(!filter.mayHoldTime(0, 1000));
  assert.ok(!filter.mayHoldTime(4000, 9000));
});

test('a search by user id skips the closed segments that cannot hold the user, unread', async () => {
  const temp = tempLog('users');
  let log = await temp.open();
  try {
    for (let day = 0; day < 4; day++) {
      for (let i = 0; i < 40; i++)
        log.append(
          KEY,
          loggedQuestion(T0 + day * DAY + i, `q${i}`, { userId: `user-${day}` }),
          null,
        );
    }
    await log.filtersBuilt();
    const grams = readdirSync(temp.folder).filter((name) => name.endsWith('.grams'));
    assert.equal(grams.length, 3);
    for (const name of grams)
      assert.ok(!isFirstForm(statSync(join(temp.folder, name)).size), `${name}: second form`);
    await log.close();

    // Day 1's index now says every entry is user-2's: read, it would count them (a match by
    // hash, checked against the lines only for the entries returned).
    const index = join(temp.folder, '2026-01-02-0000.idx');
    const words = readFileSync(index);
    for (let at = 8; at < words.length; at += 16) words.writeUInt32LE(textHash('user-2'), at);
    writeFileSync(index, words);
    log = await temp.open();
    const page = await log.page(KEY, request({ userId: 'user-2' }, null, 100));
    assert.equal(page.total, 40, 'the segment whose filter lacks the user was not read');
    assert.deepEqual(new Set(page.entries.map((e) => e.userId)), new Set(['user-2']));
    assert.equal(
      (await log.page(KEY, request({ userId: 'user-3' }, null, 100))).entries.length,
      40,
    );
    assert.equal((await log.page(KEY, request({ userId: 'user-9' }))).total, 0);
  } finally {
    await log.close();
    temp.remove();
  }
});

test('a filter of the first form is still read, and made anew in the second', async () => {
  const temp = tempLog('first-form');
  let log = await temp.open();
  try {
    for (let day = 0; day < 3; day++) {
      for (let i = 0; i < 20; i++)
        log.append(KEY, loggedQuestion(T0 + day * DAY + i, `parcel ${day} ${i}`), null);
    }
    await log.filtersBuilt();
    await log.close();
    // Day 0's filter as a version before decision 134 wrote it: trigrams only.
    const path = join(temp.folder, '2026-01-01-0000.grams');
    const second = GramFilter.parse(readFileSync(path));
    assert.ok(second !== null && second.entries !== null);
    await new GramFilter(second.bits, second.covers).save(path);
    assert.ok(isFirstForm(statSync(path).size));
    log = await temp.open();
    assert.equal((await log.page(KEY, request({ text: 'parcel 0 1' }, null, 100))).total, 11);
    await log.filtersBuilt();
    assert.ok(!isFirstForm(statSync(path).size), 'made anew');
    const again = GramFilter.parse(readFileSync(path));
    assert.deepEqual(again?.bits, second.bits, 'its trigrams kept');
    assert.equal((await log.page(KEY, request({ text: 'parcel 0 1' }, null, 100))).total, 11);
  } finally {
    await log.close();
    temp.remove();
  }
});

test("a page by outcome, source or rule counts its total from the closed segments' counts: a recount", async () => {
  const temp = tempLog('counts');
  let log = await temp.open();
  const all: ReturnType<typeof loggedQuestion>[] = [];
  // Each entry's kind by its number: the fallback, a RECOMMEND, small talk, a menu reply, a
  // BESTMATCH of one of five rules; every seventh from the try pane.
  const entryOf = (at: number, i: number) => {
    const kind = i % 6;
    return loggedQuestion(at, `q${i}`, {
      userId: `u${i % 5}`,
      source: i % 7 === 0 ? 'try' : 'api',
      module: kind === 0 ? 'NONE' : kind === 2 ? 'CHAT' : 'KB',
      answerType: kind === 1 ? 'RECOMMEND' : 'BESTMATCH',
      ruleId: kind === 0 || kind === 1 || kind === 2 ? null : `r${i % 5}`,
      menuEntry: kind === 3 ? 2 : null,
    });
  };
  try {
    for (let day = 0; day < 4; day++) {
      for (let i = 0; i < 90; i++) {
        const entry = entryOf(T0 + day * DAY + i * 60_000, day * 90 + i);
        all.push(entry);
        log.append(KEY, entry, null);
      }
    }
    await log.flush();
    await log.filtersBuilt();
    const grams = readdirSync(temp.folder).filter((name) => name.endsWith('.grams'));
    assert.equal(grams.length, 3, 'the three closed days have filters');
    for (const name of grams)
      assert.ok(isThirdForm(statSync(join(temp.folder, name)).size), `${name}: with counts`);
    // The newest day's last entries still buffered (read from memory).
    for (let i = 0; i < 5; i++) {
      const entry = entryOf(T0 + 3 * DAY + (90 + i) * 60_000, 400 + i);
      all.push(entry);
      log.append(KEY, entry, null);
    }
    const filters: Partial<PageRequest['filter']>[] = [
      {},
      { outcome: 'fallback' },
      { outcome: 'recommended' },
      { outcome: 'answered' },
      { source: 'try' },
      { outcome: 'answered', source: 'api' },
      { ruleId: 'r3' },
      { ruleId: 'r4', outcome: 'answered' },
      { ruleId: 'r4', source: 'try' },
      { ruleId: 'nowhere' },
      { outcome: 'fallback', from: T0 + DAY + 30 * 60_000, to: T0 + 3 * DAY },
      { outcome: 'answered', from: T0 + DAY, to: T0 + 3 * DAY },
    ];
    for (const filter of filters) {
      const wanted = all.filter((e) => entryMatches(e, { ...request(filter).filter }));
      for (const offset of [0, 7, 100]) {
        const page = await log.page(KEY, { ...request(filter, null, 5), offset });
        assert.equal(page.total, wanted.length, `${JSON.stringify(filter)} at ${offset}`);
      }
      // Paged to the oldest by cursor: every entry once; a page's total counts from its cursor.
      const seen: string[] = [];
      let before: string | null = null;
      do {
        const page = await log.page(KEY, request(filter, before, 8));
        assert.equal(page.total, wanted.length - seen.length, JSON.stringify(filter));
        seen.push(...page.entries.map((e) => e.question));
        before = page.next;
      } while (before !== null);
      assert.deepEqual(seen, wanted.map((e) => e.question).reverse(), JSON.stringify(filter));
    }
    await log.close();

    // Day 1's index now says every entry is a fallback of rule r3: read, it would count them.
    const index = join(temp.folder, '2026-01-02-0000.idx');
    const words = readFileSync(index);
    for (let at = 0; at < words.length; at += 16) {
      words.writeUInt32LE(((words.readUInt32LE(at + 4) & ~(7 << 27)) | (2 << 27)) >>> 0, at + 4);
      words.writeUInt32LE(textHash('r3'), at + 12);
    }
    writeFileSync(index, words);
    log = await temp.open();
    for (const filter of [{ outcome: 'fallback' as const }, { ruleId: 'r3' }]) {
      const wanted = all.filter((e) => entryMatches(e, { ...request(filter).filter }));
      const page = await log.page(KEY, request(filter, null, 5));
      assert.equal(page.total, wanted.length, `${JSON.stringify(filter)}: day 1 counted, unread`);
    }
  } finally {
    await log.close();
    temp.remove();
  }
});

test("the export's rows are the log's, byte for byte, from the store or its files", async () => {
  const temp = tempLog('export');
  const log = await temp.open();
  try {
    for (let day = 0; day < 3; day++) {
      for (let i = 0; i < 700; i++) {
        log.append(
          KEY,
          loggedQuestion(T0 + day * DAY + i * 1000, `问题 "${i}", day ${day}\n`, {
            userId: `user-${i % 13}`,
            ruleId: i % 5 === 0 ? null : `r${i % 7}`,
          }),
          null,
        );
      }
    }
    const from = T0 + 100_000;
    const to = T0 + 2 * DAY + 300_000;
    let expected = '';
    for await (const slice of log.slices(KEY, from, to))
      for (const entry of slice) expected += `${csvRow(entry)}\r\n`;
    assert.ok(expected.length > 100_000);
    const text = async (chunks: AsyncIterable<Uint8Array>) => {
      const all: Uint8Array[] = [];
      for await (const chunk of chunks) all.push(chunk);
      return Buffer.concat(all).toString('utf8');
    };
    assert.equal(await text(log.csvRows(KEY, from, to)), expected, 'from the store');
    const segments = readdirSync(temp.folder)
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .map((name, day) => ({
        path: join(temp.folder, name),
        dayStart: Date.UTC(2026, 0, 1 + day),
        bytes: statSync(join(temp.folder, name)).size,
      }));
    const job = { segments, from, to };
    assert.equal(await text(exportRows(job)), expected, 'from the files');
  } finally {
    await log.close();
    temp.remove();
  }
});
