/**
 * `Store.writeInSteps`: a transaction open across turns of the event loop, with its fdatasync
 * off the event loop. What waits by `unlocked` sees none of it before its commit and all of it
 * after; answered means journaled (a crash right after keeps it) in the order of the writes
 * whatever their syncs; a step that throws rolls every step back; a failed fdatasync refuses the
 * write and the writes after it until a snapshot covers the journal.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import type * as FsModule from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { StorageFailure } from '../../../electron/service/store/contract/errors';
import { Store } from '../../../electron/service/store/embedded/database';
import type { Tx } from '../../../electron/service/store/embedded/database';
import { nextTurn } from '../../../electron/service/time-slices';
import type { Migration } from '../../../electron/service/store/sql/migrations/runner';

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
const insert = (name: string) => (tx: Tx) => tx.run('INSERT INTO items (name) VALUES (?)', [name]);
/** Inserts `names` one a step, a turn of the event loop between them. */
const inSteps =
  (...names: string[]) =>
  async (tx: Tx) => {
    let inserted = 0;
    for (const name of names) {
      await nextTurn();
      inserted += insert(name)(tx);
    }
    return inserted;
  };
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

test('what waits for an open transaction sees none of it, then all of it; writes keep their order', async () => {
  const store = await open();
  const seen: string[][] = [];
  const writes = [
    store.writeInSteps(inSteps('one', 'two', 'three')),
    // Issued while the steps run: each waits for their commit, then writes in its own turn.
    store.unlocked(() => seen.push(names(store))),
    store.unlocked(() => store.write(insert('four'))),
    store.writeInSteps(inSteps('five', 'six')),
  ];
  assert.deepEqual(await Promise.all(writes), [3, 1, 1, 2]);
  assert.deepEqual(seen, [['one', 'two', 'three']]);
  assert.deepEqual(names(store), ['one', 'two', 'three', 'four', 'five', 'six']);
  crash(store);
  const reopened = await open();
  assert.deepEqual(names(reopened), ['one', 'two', 'three', 'four', 'five', 'six']);
  assert.equal(reopened.lastSeq, store.lastSeq);
  await reopened.close();
});

test('a step that throws rolls back every step, and the store is free again', async () => {
  const store = await open();
  await store.writeInSteps(inSteps('taken'));
  const seq = store.lastSeq;
  await assert.rejects(store.writeInSteps(inSteps('new', 'taken')), /UNIQUE constraint failed/);
  assert.deepEqual(names(store), ['taken']);
  assert.equal(store.lastSeq, seq);
  await store.unlocked(() => store.write(insert('after')));
  crash(store);
  const reopened = await open();
  assert.deepEqual(names(reopened), ['taken', 'after']);
  await reopened.close();
});

test('a snapshot waits for an open transaction and covers it whole', async () => {
  const store = await open();
  const writing = store.writeInSteps(inSteps('a', 'b', 'c'));
  await nextTurn();
  await store.snapshot();
  await writing;
  crash(store);
  const reopened = await open();
  assert.deepEqual(names(reopened), ['a', 'b', 'c']);
  await reopened.close();
});

test('a failed fdatasync refuses the write and the next ones until a snapshot covers the journal', async () => {
  const store = await open();
  const failing = failFdatasync();
  try {
    await assert.rejects(store.writeInSteps(inSteps('unsure')), StorageFailure);
    assert.throws(() => store.write(insert('refused')), StorageFailure);
  } finally {
    failing.restore();
  }
  // The snapshot is of memory, where the refused write's change is: it is kept, whole.
  await store.snapshot();
  await store.writeInSteps(inSteps('after'));
  crash(store);
  const reopened = await open();
  assert.deepEqual(names(reopened), ['unsure', 'after']);
  await reopened.close();
});
