import assert from 'node:assert/strict';
import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { Journal, decodeRecords, encodeRecord } from '../../../electron/service/storage/journal';
import type { JournalRecord } from '../../../electron/service/storage/journal';

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

test('records round-trip, Chinese text included', () => {
  const bytes = Buffer.concat([encodeRecord(record(1)), encodeRecord(record(2, 'emoji 😀'))]);
  const decoded = decodeRecords(bytes);
  assert.deepEqual(decoded.records, [record(1), record(2, 'emoji 😀')]);
  assert.equal(decoded.validBytes, bytes.length);
});

test('a torn last record is dropped at every possible cut', () => {
  const whole = encodeRecord(record(1));
  const last = encodeRecord(record(2));
  for (let cut = 0; cut < last.length; cut++) {
    const decoded = decodeRecords(Buffer.concat([whole, last.subarray(0, cut)]));
    assert.deepEqual(decoded.records, [record(1)], `cut at ${cut}`);
    assert.equal(decoded.validBytes, whole.length);
  }
});

test('a corrupted byte stops decoding at that record', () => {
  const first = encodeRecord(record(1));
  const second = Buffer.from(encodeRecord(record(2)));
  second.writeUInt8((second.at(-5) ?? 0) ^ 0x01, second.length - 5);
  const decoded = decodeRecords(Buffer.concat([first, second, encodeRecord(record(3))]));
  assert.deepEqual(
    decoded.records.map((r) => r.seq),
    [1],
  );
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

test('damage before the end of history refuses to open rather than skip a transaction', () => {
  writeFileSync(
    join(dir, 'journal-000000000001.log'),
    Buffer.concat([encodeRecord(record(1)), Buffer.from('garbage')]),
  );
  writeFileSync(join(dir, 'journal-000000000002.log'), encodeRecord(record(2)));
  assert.throws(() => Journal.open(dir, 0), /damaged before its end/);
  assert.ok(readFileSync(join(dir, 'journal-000000000002.log')).length > 0);
});
