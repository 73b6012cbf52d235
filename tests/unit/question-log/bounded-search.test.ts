/**
 * A text search of the embedded log reads a bounded number of entries per page (decision 97):
 * a page stops where its budget ran out, says how far the search got, and its `next` continues
 * it to the oldest entry, every match found once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import type { PageRequest } from '../../../electron/service/store/contract/question-log';
import { DayFileLog } from '../../../electron/service/store/embedded/question-log/day-file-log';
import { figuresMaker, loggedQuestion } from '../../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);
const KEY = '1/default';

async function withLog(run: (log: DayFileLog) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-search-'));
  const log = new DayFileLog({
    dataDir: dir,
    logger: silentLogger,
    flushMs: 60_000,
    searchBudget: 7,
  });
  await log.open(KEY, figuresMaker().replay);
  try {
    await run(log);
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const search = (text: string, before: string | null, limit = 5): PageRequest => ({
  filter: { from: 0, to: Number.MAX_SAFE_INTEGER, text },
  before,
  offset: 0,
  limit,
});

test('a text search reads a budget of entries a page and continues from where it stopped', () =>
  withLog(async (log) => {
    // 30 entries over three days; every seventh holds the text searched.
    const questions: string[] = [];
    for (let i = 0; i < 30; i++) {
      const question = i % 7 === 3 ? `where is my parcel ${i}` : `opening hours ${i}`;
      questions.push(question);
      log.append(KEY, loggedQuestion(T0 + Math.floor(i / 10) * DAY + i, question), null);
    }
    await log.flush();
    const wanted = questions.filter((q) => q.includes('parcel')).reverse();

    const found: string[] = [];
    const progress: number[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const page = await log.page(KEY, search('Parcel', before));
      pages += 1;
      assert.ok(page.searched, 'a text search says how far it got');
      assert.equal(page.searched.of, 30);
      progress.push(page.searched.entries);
      found.push(...page.entries.map((entry) => entry.question));
      before = page.next;
      assert.ok(pages <= 30, 'the search ends');
    } while (before !== null);
    assert.deepEqual(found, wanted, 'every match once, newest first');
    assert.ok(pages >= 30 / 7, `no page read more than its budget (${pages} pages)`);
    assert.deepEqual(
      progress,
      [...progress].sort((a, b) => a - b),
      'the progress only grows',
    );
    assert.equal(progress.at(-1), 30, 'the last page has read every entry');
  }));

test('a text no entry holds ends each page at its budget, with a cursor to go on', () =>
  withLog(async (log) => {
    for (let i = 0; i < 20; i++) log.append(KEY, loggedQuestion(T0 + i, `question ${i}`), null);
    await log.flush();
    const first = await log.page(KEY, search('nowhere', null));
    assert.deepEqual(first.entries, []);
    assert.equal(first.total, null, 'not counted: the search did not reach the oldest entry');
    assert.notEqual(first.next, null);
    assert.deepEqual(first.searched, { entries: 7, of: 20 });
    const second = await log.page(KEY, search('nowhere', first.next));
    assert.deepEqual(second.searched, { entries: 14, of: 20 });
    const third = await log.page(KEY, search('nowhere', second.next));
    assert.deepEqual(third.searched, { entries: 20, of: 20 });
    assert.equal(third.next, null, 'the oldest entry reached');
    assert.equal(third.total, 0);
  }));

test('a search that fills its page before the budget keeps paging by its last entry', () =>
  withLog(async (log) => {
    for (let i = 0; i < 12; i++) log.append(KEY, loggedQuestion(T0 + i, `parcel ${i}`), null);
    await log.flush();
    const page = await log.page(KEY, search('parcel', null, 3));
    assert.deepEqual(
      page.entries.map((e) => e.question),
      ['parcel 11', 'parcel 10', 'parcel 9'],
    );
    assert.notEqual(page.next, null);
    const next = await log.page(KEY, search('parcel', page.next, 3));
    assert.deepEqual(
      next.entries.map((e) => e.question),
      ['parcel 8', 'parcel 7', 'parcel 6'],
    );
  }));
