/**
 * The snapshot built on a worker thread (decision 121): the event loop copies nothing of the
 * database, the snapshot is exactly the state at the moment the journal rotated, a crash at any
 * moment of it loses no acknowledged write, and a worker that cannot build it leaves the copy to
 * memory.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, test } from 'node:test';
import type { Logger } from '../../../electron/service/logger';
import { silentLogger } from '../../../electron/service/logger';
import { LOCK_FILE } from '../../../electron/service/files/data-dir-lock';
import {
  Store,
  databaseSeq,
  loadSqlJs,
  openDatabase,
  readSnapshot,
  snapshotProblem,
  workerFits,
} from '../../../electron/service/store/embedded/database';
import { encodeRecord } from '../../../electron/service/store/embedded/journal';
import type { JournalRecord } from '../../../electron/service/store/embedded/journal';
import {
  rebuildSnapshot,
  segmentRecords,
} from '../../../electron/service/store/embedded/snapshot-worker';
import type { Migration } from '../../../electron/service/store/sql/migrations/runner';

let dir: string;
const others: string[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'snapshot-worker-'));
});
afterEach(() => {
  for (const path of [dir, ...others.splice(0)]) rmSync(path, { recursive: true, force: true });
});

const items: Migration = {
  version: 1,
  name: 'items',
  sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
};
const open = (dataDir = dir, logger: Logger = silentLogger) =>
  // Every snapshot on the worker, however small the database (8 MiB by default).
  Store.open({ dataDir, logger, migrations: [items], snapshotWorkerMinBytes: 0 });
const insert = (store: Store, name: string) =>
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', [name]));
const count = (store: Store) => Number(store.get('SELECT count(*) AS n FROM items')?.n);

/** What the snapshot file holds: its seq and its rows. */
async function snapshotFile(dataDir: string): Promise<{ seq: number; rows: number }> {
  const db = openDatabase(await loadSqlJs(), await readSnapshot(join(dataDir, 'kb.sqlite')));
  try {
    const rows = Number(db.exec('SELECT count(*) FROM items')[0]?.values[0]?.[0]);
    return { seq: databaseSeq(db), rows };
  } finally {
    db.close();
  }
}

/** Counts the main thread's exports of a database (the copy the worker spares it). */
async function countExports(): Promise<{ calls: number; restore(): void }> {
  const { prototype } = (await loadSqlJs()).Database;
  const original = prototype.export;
  const counter = {
    calls: 0,
    restore: () => {
      prototype.export = original;
    },
  };
  prototype.export = function exportCounted(this: typeof prototype) {
    counter.calls += 1;
    return original.call(this);
  };
  return counter;
}

test('the snapshot is built off the event loop: no export there, exactly the state when it began, while writes go on', async () => {
  const store = await open();
  for (let i = 0; i < 200; i++) insert(store, `before ${i}`);
  const seqAtStart = store.lastSeq;
  const exports = await countExports();
  try {
    let done = false;
    const snapshot = store.snapshot().then(() => (done = true));
    let during = 0;
    // Writes, each acknowledged, in turns of the event loop while the worker builds the bytes.
    while (!done) {
      insert(store, `during ${during++}`);
      await nextTurn();
    }
    await snapshot;
    assert.equal(exports.calls, 0, 'the main thread exported the database');
    assert.ok(during > 0);
    assert.deepEqual(await snapshotFile(dir), { seq: seqAtStart, rows: 200 });
    // The segments the snapshot covers are gone; the writes made meanwhile are in the new one.
    const segments = readdirSync(dir).filter((name) => name.startsWith('journal-'));
    assert.deepEqual(segments, [`journal-${String(seqAtStart + 1).padStart(12, '0')}.log`]);
    (store as unknown as { lock: { release(): void } }).lock.release(); // a crash
    const reopened = await open();
    assert.equal(count(reopened), 200 + during);
    await reopened.close();
  } finally {
    exports.restore();
  }
});

test('a crash at any moment of a snapshot loses no acknowledged write', async () => {
  const store = await open();
  for (let i = 0; i < 300; i++) insert(store, `before ${i}`);
  await store.snapshot(); // a snapshot to build on
  for (let i = 0; i < 300; i++) insert(store, `next ${i}`);
  // The data directory as a crash would leave it, taken between turns of the event loop while
  // the snapshot runs (a new one each time its files change): each must open with every write
  // acknowledged by then.
  const images: { path: string; acknowledged: number }[] = [];
  let seen = '';
  const takeImage = () => {
    const names = readdirSync(dir).filter((name) => name !== LOCK_FILE);
    const signature = names.sort().join(',');
    if (signature === seen) return;
    seen = signature;
    const path = mkdtempSync(join(tmpdir(), 'snapshot-image-'));
    others.push(path);
    for (const name of names) cpSync(join(dir, name), join(path, name), { recursive: true });
    images.push({ path, acknowledged: count(store) });
  };
  let done = false;
  const snapshot = store.snapshot().then(() => (done = true));
  let during = 0;
  while (!done) {
    takeImage();
    insert(store, `during ${during++}`);
    await nextTurn();
  }
  await snapshot;
  takeImage();
  assert.ok(images.length >= 2, 'images before and after the snapshot');
  for (const image of images) {
    const reopened = await open(image.path);
    assert.ok(count(reopened) >= image.acknowledged, `${image.path}: writes lost`);
    await reopened.close();
  }
  await store.close();
});

test('a snapshot the worker cannot build is copied from memory, and nothing is lost', async () => {
  const lines: string[] = [];
  const logger: Logger = {
    info: () => undefined,
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  const store = await open(dir, logger);
  for (let i = 0; i < 50; i++) insert(store, `first ${i}`);
  await store.snapshot();
  // The snapshot the worker starts from is damaged after the open (a flipped byte).
  const path = join(dir, 'kb.sqlite');
  const bytes = readFileSync(path);
  bytes[bytes.length - 100] = (bytes[bytes.length - 100] as number) ^ 0xff;
  writeFileSync(path, bytes);
  for (let i = 0; i < 50; i++) insert(store, `second ${i}`);
  await store.snapshot();
  assert.ok(
    lines.some((line) => line.startsWith('the snapshot could not be built on a worker thread')),
    lines.join('\n'),
  );
  assert.deepEqual(await snapshotFile(dir), { seq: store.lastSeq, rows: 100 });
  await store.close();
});

test('the worker refuses a journal that does not reach the seq asked for', async () => {
  const store = await open();
  insert(store, 'one');
  const seq = store.lastSeq;
  (store as unknown as { lock: { release(): void } }).lock.release();
  const segments = readdirSync(dir)
    .filter((name) => name.startsWith('journal-'))
    .map((name) => join(dir, name));
  const built = await rebuildSnapshot({ dataDir: dir, segments, targetSeq: seq });
  assert.ok(built.bytes.length > 0 && built.trailer.length === 24);
  await assert.rejects(rebuildSnapshot({ dataDir: dir, segments, targetSeq: seq + 1 }), /ends at/);
});

test('a stop during a snapshot abandons the worker and copies memory at once', async () => {
  const lines: string[] = [];
  const logger: Logger = {
    info: () => undefined,
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
  const store = await open(dir, logger);
  for (let i = 0; i < 100; i++) insert(store, `row ${i}`);
  const snapshot = store.snapshot();
  insert(store, 'last');
  await store.close();
  await snapshot;
  assert.deepEqual(lines, [], 'an abandoned worker is no failure');
  assert.deepEqual(await snapshotFile(dir), { seq: store.lastSeq, rows: 101 });
  assert.deepEqual(
    readdirSync(dir).filter((name) => name.startsWith('journal-')),
    [],
  );
});

test('the worker builds a snapshot only while free memory holds two copies of the database', () => {
  const mb = 2 ** 20;
  assert.equal(workerFits(100 * mb, 200 * mb), true);
  assert.equal(workerFits(100 * mb, 199 * mb), false);
  assert.equal(workerFits(0, 0), true);
});

test('a small database is copied on the loop by default, with no worker', async () => {
  const store = await Store.open({ dataDir: dir, logger: silentLogger, migrations: [items] });
  for (let i = 0; i < 50; i++) insert(store, `small ${i}`);
  const exports = await countExports();
  try {
    await store.snapshot();
    assert.equal(exports.calls, 1, 'one copy from memory, below 8 MiB');
    assert.equal((await snapshotFile(dir)).rows, 50);
  } finally {
    exports.restore();
    await store.close();
  }
});

test('the worker reads a segment a window at a time: records across windows, one larger than a window, damage refused', () => {
  const record = (seq: number, chars: number): JournalRecord => ({
    seq,
    sql: ['INSERT INTO items (name) VALUES (?)'],
    ops: [[0, [`${seq} ${'答'.repeat(chars)}`]]],
  });
  // 1 MiB windows: records of ~180 KB straddle them, one of ~1.5 MB spans two.
  const records = [record(1, 60_000), record(2, 60_000), record(3, 500_000)];
  for (let seq = 4; seq <= 20; seq++) records.push(record(seq, 60_000));
  const bytes = Buffer.concat(records.map(encodeRecord));
  const path = join(dir, 'journal-000000000001.log');
  writeFileSync(path, bytes);
  assert.deepEqual([...segmentRecords(path)], records);
  // A record cut short at the end (a torn write) and a flipped byte in a later one both throw.
  writeFileSync(path, bytes.subarray(0, bytes.length - 10));
  assert.throws(() => [...segmentRecords(path)], /damaged at byte \d+ \(the record is cut short\)/);
  const flipped = Buffer.from(bytes);
  const at = bytes.length - 300_000;
  flipped[at] = (flipped[at] as number) ^ 0x01;
  writeFileSync(path, flipped);
  assert.throws(() => [...segmentRecords(path)], /damaged at byte \d+ \(the record checksum/);
  writeFileSync(path, Buffer.alloc(0));
  assert.deepEqual([...segmentRecords(path)], []);
});

/** A rebuild of `dir` up to the store's last seq, as the worker runs it, with exports counted. */
async function rebuildCounted(store: Store, databaseBytes?: number) {
  const segments = readdirSync(dir)
    .filter((name) => name.startsWith('journal-'))
    .map((name) => join(dir, name));
  const exports = await countExports();
  try {
    const built = await rebuildSnapshot({
      dataDir: dir,
      segments,
      targetSeq: store.lastSeq,
      ...(databaseBytes === undefined ? {} : { databaseBytes }),
    });
    const db = openDatabase(await loadSqlJs(), built.bytes);
    try {
      const names = db.exec('SELECT name FROM items ORDER BY id')[0]?.values.flat() ?? [];
      return {
        exports: exports.calls,
        seq: databaseSeq(db),
        names,
        file: snapshotProblem(Buffer.concat([built.bytes, built.trailer])),
      };
    } finally {
      db.close();
    }
  } finally {
    exports.restore();
  }
}

test('the worker holds the database once: the file it rebuilt is the snapshot, no export copies it', async () => {
  const store = await open();
  for (let i = 0; i < 50; i++) insert(store, `first ${i}`);
  await store.snapshot();
  // Several megabytes past the last snapshot: the file grows well beyond the room read for it.
  for (let batch = 0; batch < 30; batch++)
    store.write((tx) => {
      for (let i = 0; i < 100; i++)
        tx.run('INSERT INTO items (name) VALUES (?)', [`second ${batch}.${i} ${'x'.repeat(1000)}`]);
    });
  const expected = store.all('SELECT name FROM items ORDER BY id').map((row) => row.name);
  const databaseBytes = Number(store.get('PRAGMA page_count')?.page_count) * 4096;
  const inPlace = await rebuildCounted(store, databaseBytes);
  assert.deepEqual(inPlace, { exports: 0, seq: store.lastSeq, names: expected, file: null });
  // Without the main thread's size the room is too small: sql.js moves the file, the rebuild
  // sees it and exports, as before.
  const moved = await rebuildCounted(store);
  assert.deepEqual(moved, { exports: 1, seq: store.lastSeq, names: expected, file: null });
  await store.close();
});
