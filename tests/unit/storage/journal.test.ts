import assert from 'node:assert/strict';
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import {
  CUT_SHORT,
  Journal,
  JournalDamagedError,
  RecordEncoder,
  SET_ASIDE,
  encodeRecord,
  readSegment,
  scanJournal,
  segmentName,
  setAsideName,
} from '../../../electron/service/store/embedded/journal';
import type { JournalRecord } from '../../../electron/service/store/embedded/journal';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const record = (seq: number, text = `值 ${seq}`): JournalRecord => ({
  seq,
  sql: ['INSERT INTO t (v) VALUES (?)'],
  ops: [[0, [text]]],
});

const recordsOf = (bytes: Buffer) =>
  readSegment(bytes).flatMap((entry) => ('record' in entry ? [entry.record] : []));

/** Every file of the directory and its bytes. */
const contents = () =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));

test('records round-trip, Chinese text included', () => {
  const bytes = Buffer.concat([encodeRecord(record(1)), encodeRecord(record(2, 'emoji 😀'))]);
  const entries = readSegment(bytes);
  assert.deepEqual(recordsOf(bytes), [record(1), record(2, 'emoji 😀')]);
  assert.equal(entries.at(-1)?.end, bytes.length);
});

test('a record encoded statement by statement reads back whole, large JSON parameters included', () => {
  const rows = JSON.stringify([['r1', '退货 "quoted" \\ 😀', null, 3.5]]);
  const stepped: JournalRecord = {
    seq: 7,
    sql: ['INSERT INTO t SELECT * FROM json_each(CAST(? AS TEXT))', 'UPDATE t SET v = ?'],
    ops: [
      [0, [{ utf8: rows }]],
      [1, ['tab\there', 42, null]],
      [0, [{ utf8: '[]' }]],
    ],
  };
  const encoder = new RecordEncoder(stepped.seq);
  for (const op of stepped.ops) encoder.op(op);
  const bytes = Buffer.concat([encoder.finish(stepped.sql), encodeRecord(record(8))]);
  assert.deepEqual(recordsOf(bytes), [stepped, record(8)]);
  assert.equal(readSegment(bytes).length, 2);
});

test('a torn last record is found as damage from its start to the end, at every possible cut', () => {
  const whole = encodeRecord(record(1));
  const last = encodeRecord(record(2));
  for (let cut = 1; cut < last.length; cut++) {
    const bytes = Buffer.concat([whole, last.subarray(0, cut)]);
    const entries = readSegment(bytes);
    assert.deepEqual(recordsOf(bytes), [record(1)], `cut at ${cut}`);
    assert.deepEqual(
      entries.map((e) => [e.offset, e.end]),
      [
        [0, whole.length],
        [whole.length, bytes.length],
      ],
    );
    writeFileSync(join(dir, segmentName(1)), bytes);
    const scan = scanJournal(dir, 0);
    assert.deepEqual(scan.tornTail, {
      path: join(dir, segmentName(1)),
      offset: whole.length,
      bytes: cut,
      reason: CUT_SHORT,
    });
  }
});

test('a last record whole by its length that does not check out is set aside before the cut', () => {
  const whole = encodeRecord(record(1));
  const last = Buffer.from(encodeRecord(record(2)));
  last[last.length - 5] = (last[last.length - 5] ?? 0) ^ 0x01; // bit rot, not a tear
  const path = join(dir, segmentName(1));
  writeFileSync(path, Buffer.concat([whole, last]));
  const scan = scanJournal(dir, 0);
  assert.equal(scan.tornTail?.reason, 'the record checksum does not match');
  Journal.resume(dir, scan).close();
  assert.deepEqual(readFileSync(path), Buffer.from(whole));
  assert.deepEqual(readFileSync(join(dir, setAsideName(segmentName(1), whole.length))), last);
  // A record cut short is cut without a copy: it was never acknowledged.
  writeFileSync(path, Buffer.concat([whole, last.subarray(0, 10)]));
  Journal.resume(dir, scanJournal(dir, 0)).close();
  assert.deepEqual(
    readdirSync(dir).filter((name) => SET_ASIDE.test(name)),
    [setAsideName(segmentName(1), whole.length)],
  );
});

test('damage ends at the next whole record', () => {
  const first = encodeRecord(record(1));
  const second = Buffer.from(encodeRecord(record(2)));
  second[second.length - 5] = (second[second.length - 5] ?? 0) ^ 0x01;
  const third = encodeRecord(record(3));
  const entries = readSegment(Buffer.concat([first, second, third]));
  assert.deepEqual(
    entries.map((e) => ('record' in e ? `seq ${e.record.seq}` : `damage ${e.offset}-${e.end}`)),
    ['seq 1', `damage ${first.length}-${first.length + second.length}`, 'seq 3'],
  );
});

/**
 * Journals of three records, in one segment or as the first of two: every byte of every record
 * flipped in turn. Only damage inside the last record of the last segment is a torn tail (cut
 * at that record's start); anything else refuses, naming the file and the damaged record's
 * offset, and the files stay as they were.
 */
for (const layout of ['one segment', 'two segments'] as const) {
  test(`a flipped byte anywhere (${layout}): a torn last record is cut, any other damage refuses with file and offset`, () => {
    const segments =
      layout === 'one segment'
        ? [[1, 2, 3]]
        : [
            [1, 2, 3],
            [4, 5, 6],
          ];
    const files = segments.map((seqs) => ({
      name: segmentName(seqs[0] ?? 0),
      records: seqs.map((seq) => encodeRecord(record(seq, `第 ${seq} 条`))),
    }));
    let checked = 0;
    files.forEach((file, fileIndex) => {
      const bytes = Buffer.concat(file.records);
      let start = 0;
      file.records.forEach((recordBytes, recordIndex) => {
        const isTail = fileIndex === files.length - 1 && recordIndex === file.records.length - 1;
        for (let i = 0; i < recordBytes.length; i++) {
          rmSync(dir, { recursive: true, force: true });
          dir = mkdtempSync(join(tmpdir(), 'journal-'));
          for (const other of files)
            writeFileSync(join(dir, other.name), Buffer.concat(other.records));
          const damaged = Buffer.from(bytes);
          damaged[start + i] = (damaged[start + i] ?? 0) ^ 0x01;
          writeFileSync(join(dir, file.name), damaged);
          const before = contents();
          const where = `${file.name}, record ${recordIndex + 1}, byte ${i}`;
          if (isTail) {
            const scan = scanJournal(dir, 0);
            assert.equal(scan.tornTail?.offset, start, where);
            assert.equal(scan.tornTail?.path, join(dir, file.name), where);
            assert.equal(scan.records.length, 3 * files.length - 1, where);
            const { journal } = Journal.open(dir, 0);
            journal.close();
            assert.equal(statSync(join(dir, file.name)).size, start, `${where}: cut`);
          } else {
            assert.throws(
              () => Journal.open(dir, 0),
              (error: unknown) =>
                error instanceof JournalDamagedError &&
                error.path === join(dir, file.name) &&
                error.offset === start &&
                error.message.includes(join(dir, file.name)) &&
                error.message.includes(`byte ${start}`) &&
                error.message.includes('npm run repair'),
              where,
            );
            assert.deepEqual(contents(), before, `${where}: files changed`);
          }
          checked++;
        }
        start += recordBytes.length;
      });
    });
    const total = files.reduce((sum, file) => sum + Buffer.concat(file.records).length, 0);
    assert.equal(checked, total, 'every byte of every record was flipped');
  });
}

test('a missing seq refuses to open, naming the file, the offset and the seqs missing', () => {
  const first = Buffer.concat([encodeRecord(record(1)), encodeRecord(record(2))]);
  writeFileSync(join(dir, segmentName(1)), first);
  writeFileSync(join(dir, segmentName(5)), encodeRecord(record(5)));
  assert.throws(
    () => scanJournal(dir, 0),
    (error: unknown) =>
      error instanceof JournalDamagedError &&
      error.path === join(dir, segmentName(5)) &&
      error.offset === 0 &&
      /seqs 3–4 are missing/.test(error.message),
  );
  // A journal that starts after the snapshot's seq + 1 is missing records too.
  rmSync(join(dir, segmentName(1)));
  assert.throws(() => scanJournal(dir, 2), /seqs 3–4 are missing/);
});

test('damage in segments the snapshot covers is harmless (a crash between a snapshot and their deletion)', () => {
  const covered = Buffer.from(Buffer.concat([encodeRecord(record(1)), encodeRecord(record(2))]));
  covered[20] = (covered[20] ?? 0) ^ 0x01;
  writeFileSync(join(dir, segmentName(1)), covered);
  writeFileSync(join(dir, segmentName(3)), encodeRecord(record(3)));
  assert.deepEqual(
    scanJournal(dir, 2).records.map((r) => r.record.seq),
    [3],
  );
  assert.throws(() => scanJournal(dir, 0), JournalDamagedError, 'not covered: refused');
});

test('open replays what follows the snapshot and cuts a torn tail off the file', () => {
  const { journal } = Journal.open(dir, 0);
  for (let seq = 1; seq <= 3; seq++) journal.append(record(seq));
  journal.close();
  const [segment] = readdirSync(dir);
  assert.ok(segment);
  const path = join(dir, segment);
  const goodSize = statSync(path).size;
  appendFileSync(path, encodeRecord(record(4)).subarray(0, 10));
  const reopened = Journal.open(dir, 1);
  assert.deepEqual(
    reopened.records.map((r) => r.seq),
    [2, 3],
  );
  assert.equal(statSync(path).size, goodSize, 'the torn tail is cut');
  reopened.journal.append(record(4));
  reopened.journal.close();
  assert.deepEqual(
    Journal.open(dir, 0).records.map((r) => r.seq),
    [1, 2, 3, 4],
  );
});

test('rotation starts a new segment; covered segments can be deleted', () => {
  const { journal } = Journal.open(dir, 0);
  journal.append(record(1));
  journal.append(record(2));
  const covered = journal.rotate();
  journal.append(record(3));
  assert.equal(readdirSync(dir).length, 2);
  journal.deleteSegments(covered);
  journal.close();
  assert.deepEqual(readdirSync(dir), ['journal-000000000003.log']);
  assert.deepEqual(
    Journal.open(dir, 2).records.map((r) => r.seq),
    [3],
  );
});

test('a torn end of a segment before the last refuses to open, and changes nothing', () => {
  writeFileSync(
    join(dir, segmentName(1)),
    Buffer.concat([encodeRecord(record(1)), Buffer.from('garbage')]),
  );
  writeFileSync(join(dir, segmentName(2)), encodeRecord(record(2)));
  const before = contents();
  assert.throws(() => Journal.open(dir, 0), /journal-000000000001\.log is damaged at byte \d+/);
  assert.deepEqual(contents(), before);
});
