/**
 * A closed segment's text filter (decision 106): a text search skips a segment that cannot hold
 * the text without reading it, finds every entry that holds it, and a segment written to after
 * it closed is read again until its filter is made anew.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import type { PageRequest } from '../../../electron/service/store/contract/question-log';
import { DayFileLog } from '../../../electron/service/store/embedded/question-log/day-file-log';
import {
  EntryCounts,
  EntryFilter,
  GramFilter,
} from '../../../electron/service/store/embedded/question-log/segment-grams';
import { prng } from '../../helpers/prng';
import { figuresMaker, loggedQuestion } from '../../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);
const KEY = '1/default';

const search = (text: string, before: string | null = null): PageRequest => ({
  filter: { from: 0, to: Number.MAX_SAFE_INTEGER, text },
  before,
  offset: 0,
  limit: 100,
});

test('a filter never says "no" to a text added, and reads back as written', async () => {
  const random = prng(3);
  const alphabet = 'abcdefghij 收据开箱验货?-';
  const texts = Array.from({ length: 500 }, () =>
    Array.from(
      { length: 3 + Math.floor(random() * 30) },
      () => alphabet[Math.floor(random() * alphabet.length)],
    ).join(''),
  );
  const filter = GramFilter.empty(4096).covering(123);
  for (const text of texts) filter.add(text);
  for (const text of texts) {
    for (let from = 0; from < text.length; from++) {
      for (let to = from + 1; to <= text.length; to++) {
        assert.ok(filter.mayHold(text.slice(from, to)), `"${text.slice(from, to)}" of "${text}"`);
      }
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'kb-grams-'));
  try {
    await filter.save(join(dir, 'a.grams'));
    const back = GramFilter.parse(readFileSync(join(dir, 'a.grams')));
    assert.ok(back);
    assert.equal(back.covers, 123);
    assert.deepEqual(back.bits, filter.bits);
    assert.equal(GramFilter.parse(readFileSync(join(dir, 'a.grams')).subarray(0, 100)), null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('counts read back count as written, their rules read only once a rule is counted (decision 176)', async () => {
  const entries = EntryFilter.of(3, (add) => {
    add(11, 5);
    add(12, 6);
    add(13, 7);
  });
  const rules = Array.from({ length: 50 }, (_, i) => 1000 + i * 7919);
  const counts = EntryCounts.of((add) => {
    for (let i = 0; i < 2000; i++) add(i % 16, i % 3 === 0 ? 0 : (rules[i % 50] as number));
  });
  const filter = GramFilter.empty(4096).covering(123, entries, counts);
  filter.add('where is my parcel');
  const dir = mkdtempSync(join(tmpdir(), 'kb-grams-'));
  try {
    await filter.save(join(dir, 'a.grams'));
    const bytes = readFileSync(join(dir, 'a.grams'));
    const back = GramFilter.parse(bytes)?.counts;
    assert.ok(back);
    // By outcome and source only: the rules are not needed, and not read.
    for (let code = 0; code < 16; code++) {
      const one = (c: number) => c === code;
      assert.equal(back.count(one, null), counts.count(one, null));
    }
    assert.equal(back.fileBytes, counts.fileBytes);
    assert.equal(back.rulesMade, false, 'the rules were read for counts by outcome');
    for (const rule of [...rules, 42]) {
      assert.equal(
        back.count(() => true, rule),
        counts.count(() => true, rule),
      );
      assert.equal(
        back.count((c) => c < 8, rule),
        counts.count((c) => c < 8, rule),
      );
    }
    assert.equal(back.rulesMade, true);
    // Written again: the same bytes.
    const again = GramFilter.parse(bytes);
    assert.ok(again);
    await again.save(join(dir, 'b.grams'));
    assert.deepEqual(readFileSync(join(dir, 'b.grams')), bytes);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a text search skips closed segments that cannot hold the text, and finds every entry that does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-grams-'));
  const folder = join(dir, 'question-log', '1', 'default');
  const open = async () => {
    const log = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    await log.open(KEY, figuresMaker().replay);
    return log;
  };
  let log = await open();
  try {
    // Five days (a segment each); day 2 has the parcels, each day its own user.
    for (let day = 0; day < 5; day++) {
      for (let i = 0; i < 40; i++) {
        const question =
          day === 2 && i % 10 === 0 ? `where is my parcel ${i}` : `opening hours ${i}`;
        log.append(
          KEY,
          loggedQuestion(T0 + day * DAY + i, question, { userId: `user-${day}` }),
          null,
        );
      }
    }
    await log.filtersBuilt();
    const grams = readdirSync(folder).filter((name) => name.endsWith('.grams'));
    assert.deepEqual(
      grams.sort(),
      ['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04'].map((d) => `${d}-0000.grams`),
      'every closed segment has its filter; the one written to has none',
    );

    const parcels = await log.page(KEY, search('Parcel'));
    assert.deepEqual(
      parcels.entries.map((e) => e.question),
      [30, 20, 10, 0].map((i) => `where is my parcel ${i}`),
    );
    assert.equal(parcels.total, 4);
    const user = await log.page(KEY, search('user-3'));
    assert.equal(user.entries.length, 40, 'a user id is found through the filter too');
    assert.equal((await log.page(KEY, search('ur'))).entries.length, 100, 'too short to filter');

    // Day 1's bytes now hold "nowhere" (same length, its filter left as it was): a search that
    // skips the segment does not find it, which shows the segment is not read.
    const day1 = join(folder, '2026-01-02-0000.jsonl');
    writeFileSync(day1, readFileSync(day1, 'utf8').replace('opening hours 5"', 'nowhere hours 5"'));
    const absent = await log.page(KEY, search('nowhere'));
    assert.deepEqual(absent.entries, []);
    assert.deepEqual(absent.searched, { entries: 200, of: 200 });
    assert.equal(absent.total, 0);
    assert.equal(absent.next, null);

    // A late line for day 0: its filter goes, the line is found, and the filter is made again.
    log.append(KEY, loggedQuestion(T0 + 100, 'a late parcel', { userId: 'user-0' }), null);
    await log.flush();
    assert.ok(!readdirSync(folder).includes('2026-01-01-0000.grams'), 'the stale filter is gone');
    assert.equal((await log.page(KEY, search('late parcel'))).entries.length, 1);
    await log.filtersBuilt();
    assert.ok(readdirSync(folder).includes('2026-01-01-0000.grams'), 'made again once closed');
    assert.equal((await log.page(KEY, search('late parcel'))).entries.length, 1);

    // Read back from the files after a restart; the filters count in the log's size.
    await log.close();
    log = await open();
    assert.deepEqual((await log.page(KEY, search('nowhere'))).entries, []);
    assert.equal((await log.page(KEY, search('late parcel'))).entries.length, 1);
    const bytes = readdirSync(folder)
      .filter((name) => /\.(jsonl|idx|grams)$/.test(name))
      .reduce((sum, name) => sum + readFileSync(join(folder, name)).length, 0);
    assert.equal(await log.size(KEY), bytes);

    // Clearing removes them with their segments.
    await log.clear(KEY);
    assert.deepEqual(
      readdirSync(folder).filter((name) => name.endsWith('.grams')),
      [],
    );
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
