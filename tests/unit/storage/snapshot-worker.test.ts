/**
 * The snapshot built on a worker thread (decision 121): the event loop copies nothing of the
 * database, the snapshot is exactly the state at the moment the journal rotated, a crash at any
 * moment of it loses no acknowledged write, and a worker that cannot build it leaves the copy to
 * memory.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as delay, setImmediate as nextTurn } from 'node:timers/promises';
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
  snapshotDatabaseBytes,
  snapshotProblem,
  snapshotTrailer,
} from '../../../electron/service/store/embedded/database';
import { encodeRecord } from '../../../electron/service/store/embedded/journal';
import type { JournalRecord } from '../../../electron/service/store/embedded/journal';
import {
  rebuildSnapshot,
  segmentRecords,
} from '../../../electron/service/store/embedded/snapshot-worker';
import { rebuildFile } from '../../../electron/service/store/embedded/snapshot-thread';
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
  const file = rebuildFile(dir);
  await rebuildSnapshot({ dataDir: dir, segments, targetSeq: seq, file });
  assert.equal(snapshotProblem(readFileSync(file)), null);
  await assert.rejects(
    rebuildSnapshot({ dataDir: dir, segments, targetSeq: seq + 1, file }),
    /ends at/,
  );
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

/** A rebuild of `dir` up to `targetSeq`, as the worker runs it, with exports counted. */
async function rebuildCounted(targetSeq: number) {
  const segments = readdirSync(dir)
    .filter((name) => name.startsWith('journal-'))
    .map((name) => join(dir, name));
  const file = rebuildFile(dir);
  const exports = await countExports();
  try {
    const built = await rebuildSnapshot({ dataDir: dir, segments, targetSeq, file });
    const bytes = readFileSync(file);
    const db = openDatabase(await loadSqlJs(), snapshotDatabaseBytes(bytes, file));
    try {
      const names = db.exec('SELECT name FROM items ORDER BY id')[0]?.values.flat() ?? [];
      return {
        ...built,
        exports: exports.calls,
        seq: databaseSeq(db),
        names,
        file: snapshotProblem(bytes),
      };
    } finally {
      db.close();
    }
  } finally {
    exports.restore();
  }
}

test('the worker rebuilds the snapshot in its file on disk: no export, every row, a valid checksum', async () => {
  const store = await open();
  for (let i = 0; i < 50; i++) insert(store, `first ${i}`);
  await store.snapshot();
  // Several megabytes past the last snapshot: the file grows well beyond the one it starts from.
  for (let batch = 0; batch < 30; batch++)
    store.write((tx) => {
      for (let i = 0; i < 100; i++)
        tx.run('INSERT INTO items (name) VALUES (?)', [`second ${batch}.${i} ${'x'.repeat(1000)}`]);
    });
  const expected = store.all('SELECT name FROM items ORDER BY id').map((row) => row.name);
  const rebuilt = await rebuildCounted(store.lastSeq);
  assert.deepEqual(rebuilt, {
    exported: false,
    exports: 0,
    seq: store.lastSeq,
    names: expected,
    file: null,
  });
  await store.close();
});

test('a snapshot written by the worker opens, verifies and holds every row, in place of the last', async () => {
  const store = await open();
  for (let i = 0; i < 100; i++) insert(store, `first ${i}`);
  await store.snapshot();
  for (let i = 0; i < 2000; i++) insert(store, `second ${i} ${'y'.repeat(500)}`);
  const exports = await countExports();
  const rebuilding = basename(rebuildFile(dir));
  let seen = false;
  try {
    let done = false;
    const snapshot = store.snapshot().then(() => (done = true));
    // The worker's file is there while it rebuilds the database in it.
    while (!done) {
      seen ||= readdirSync(dir).includes(rebuilding);
      await delay(1);
    }
    await snapshot;
    assert.equal(exports.calls, 0, 'copied from memory');
  } finally {
    exports.restore();
  }
  assert.ok(seen, "the snapshot was not rebuilt in the worker's file");
  const names = readdirSync(dir).filter((name) => name !== LOCK_FILE);
  assert.deepEqual(names, ['kb.sqlite'], "the worker's file is renamed over the snapshot");
  assert.equal(snapshotProblem(readFileSync(join(dir, 'kb.sqlite'))), null);
  assert.deepEqual(await snapshotFile(dir), { seq: store.lastSeq, rows: 2100 });
  await store.close();
  const reopened = await open();
  assert.equal(count(reopened), 2100);
  await reopened.close();
});

test('a file that sql.js moves into memory (truncated) is exported instead, with the same rows', async () => {
  // A last snapshot with auto_vacuum on: a commit that frees pages truncates the file, and
  // sql.js copies a truncated file into memory.
  const SQL = await loadSqlJs();
  const seed = new SQL.Database();
  seed.run('PRAGMA auto_vacuum = FULL');
  seed.run('CREATE TABLE _store (key TEXT PRIMARY KEY, value INTEGER NOT NULL)');
  seed.run(
    'CREATE TABLE _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL)',
  );
  seed.run("INSERT INTO _store VALUES ('seq', 0)");
  seed.run('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const bytes = seed.export();
  seed.close();
  writeFileSync(join(dir, 'kb.sqlite'), Buffer.concat([bytes, snapshotTrailer(bytes)]));
  const insertSql = 'INSERT INTO items (name) VALUES (?)';
  const records: JournalRecord[] = [];
  for (let seq = 1; seq <= 20; seq++)
    records.push({ seq, sql: [insertSql], ops: [[0, [`big ${seq} ${'z'.repeat(20_000)}`]]] });
  records.push({ seq: 21, sql: ['DELETE FROM items WHERE id > 2'], ops: [[0, []]] });
  writeFileSync(join(dir, 'journal-000000000001.log'), Buffer.concat(records.map(encodeRecord)));
  const rebuilt = await rebuildCounted(21);
  assert.equal(rebuilt.exported, true);
  assert.equal(rebuilt.exports, 1);
  assert.equal(rebuilt.seq, 21);
  assert.equal(rebuilt.file, null);
  assert.deepEqual(
    rebuilt.names.map((name) => String(name).slice(0, 6)),
    ['big 1 ', 'big 2 '],
  );
});

test('a process killed while its worker rebuilds the snapshot leaves the last snapshot and the journal whole', async () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../../helpers/snapshot-until-killed.ts'), dir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const rebuilding = basename(rebuildFile(dir)).replace(String(process.pid), String(child.pid));
  try {
    // Killed as soon as its worker's file is there, whatever the machine's load.
    for (;;) {
      if (output.includes('snapshot written') || child.exitCode !== null)
        assert.fail(`the snapshot ended before it could be killed mid-way: ${output}`);
      if (output.includes('acknowledged') && readdirSync(dir).includes(rebuilding)) break;
      await delay(2);
    }
    child.kill('SIGKILL');
    await exited;
  } finally {
    child.kill('SIGKILL');
  }
  const acknowledged = Number(/acknowledged (\d+)/.exec(output)?.[1]);
  assert.ok(acknowledged > 0);
  const reopened = await open();
  assert.equal(count(reopened), acknowledged);
  assert.ok(!readdirSync(dir).includes(rebuilding), 'the half-built file is removed at the open');
  await reopened.close();
  assert.equal(snapshotProblem(readFileSync(join(dir, 'kb.sqlite'))), null);
});
