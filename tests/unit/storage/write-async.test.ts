/**
 * `Store.writeAsync`: a transaction committed at once whose fdatasync runs off the event loop.
 * Answered means on disk (a crash right after keeps it), the journal keeps the order of the
 * writes whatever their syncs, a failing statement throws at the call, and a failed fdatasync
 * refuses the write and the writes after it until a snapshot covers the journal.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type * as FsModule from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { StorageFailure } from '../../../electron/service/repositories/errors';
import { Store } from '../../../electron/service/storage/database';
import type { Migration } from '../../../electron/service/storage/migrations/runner';

const require = createRequire(import.meta.url);
const fs = require('node:fs') as typeof FsModule;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-async-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const items: Migration = {
  version: 1,
  name: 'items',
  sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);',
};
const open = () => Store.open({ dataDir: dir, logger: silentLogger, migrations: [items] });
const insert = (name: string) => (tx: { run(sql: string, params: string[]): number }) =>
  tx.run('INSERT INTO items (name) VALUES (?)', [name]);
const names = (store: Store) =>
  store.all<{ name: string }>('SELECT name FROM items ORDER BY id').map((row) => row.name);

/** A crash: the store dropped without its stop (no snapshot), its lock freed. */
function crash(store: Store): void {
  (store as unknown as { lock: { release(): void } }).lock.release();
}

/** Makes node:fs's fdatasync fail with EIO until restored. */
function failFdatasync(): { restore(): void } {
  const { fdatasync } = fs;
  fs.fdatasync = ((_fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    const error: NodeJS.ErrnoException = new Error('EIO: i/o error, fdatasync');
    error.code = 'EIO';
    setImmediate(() => callback(error));
  }) as typeof fs.fdatasync;
  syncBuiltinESMExports();
  return {
    restore() {
      fs.fdatasync = fdatasync;
      syncBuiltinESMExports();
    },
  };
}

test('answered async writes, and sync writes between them, survive a crash in their order', async () => {
  const store = await open();
  const writes = [
    store.writeAsync(insert('one')),
    store.writeAsync(insert('two')),
    Promise.resolve(store.write(insert('three'))),
    store.writeAsync(insert('four')),
  ];
  // Committed in memory at the call: reads see them before their fdatasyncs are done.
  assert.deepEqual(names(store), ['one', 'two', 'three', 'four']);
  assert.deepEqual(await Promise.all(writes), [1, 1, 1, 1]);
  crash(store);
  const reopened = await open();
  assert.deepEqual(names(reopened), ['one', 'two', 'three', 'four']);
  assert.equal(reopened.lastSeq, store.lastSeq);
  await reopened.close();
});

test('an async write whose statement fails throws at the call and leaves nothing', async () => {
  const store = await open();
  await store.writeAsync(insert('taken'));
  const seq = store.lastSeq;
  assert.throws(() => store.writeAsync(insert('taken')), /UNIQUE constraint failed/);
  assert.deepEqual(names(store), ['taken']);
  assert.equal(store.lastSeq, seq);
  crash(store);
  const reopened = await open();
  assert.deepEqual(names(reopened), ['taken']);
  await reopened.close();
});

test('a failed fdatasync refuses the write and the next ones until a snapshot covers the journal', async () => {
  const store = await open();
  const failing = failFdatasync();
  try {
    await assert.rejects(store.writeAsync(insert('unsure')), StorageFailure);
    assert.throws(() => store.write(insert('refused')), StorageFailure);
  } finally {
    failing.restore();
  }
  // The snapshot is of memory, where the refused write's change is: it is kept, whole.
  await store.snapshot();
  await store.writeAsync(insert('after'));
  crash(store);
  const reopened = await open();
  assert.deepEqual(names(reopened), ['unsure', 'after']);
  await reopened.close();
});
