/**
 * A new store's database has 16 KiB pages (decision 196): rules of 1–3 KB share pages instead of
 * leaving most of a 4 KiB page empty each. A store made with 4 KiB pages keeps them, and either
 * snapshot opens.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import {
  Store,
  loadSqlJs,
  snapshotTrailer,
} from '../../../electron/service/store/embedded/database';
import type { Migration } from '../../../electron/service/store/sql/migrations/runner';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'page-size-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const items: Migration = {
  version: 1,
  name: 'items',
  sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT NOT NULL);',
};
const open = () => Store.open({ dataDir: dir, logger: silentLogger, migrations: [items] });
const pragma = (store: Store, name: string) => Number(store.get(`PRAGMA ${name}`)?.[name]);

/** Rows of ~2.3 KB, the size of a rule's row after a bundle import (answer, phrasings, search text). */
function fill(store: Store, rows: number): void {
  store.write((tx) => {
    for (let i = 0; i < rows; i++)
      tx.run('INSERT INTO items (body) VALUES (?)', [`${i} ${'答'.repeat(760)}`]);
  });
}

test('a new store has 16 KiB pages, which rows of ~2 KB share: the database is about their size', async () => {
  const store = await open();
  fill(store, 1000);
  assert.equal(pragma(store, 'page_size'), 16_384);
  const bytes = pragma(store, 'page_size') * pragma(store, 'page_count');
  const payload = 1000 * Buffer.byteLength(`999 ${'答'.repeat(760)}`);
  // At 4 KiB a page each: 4.1 MB for 2.3 MB of rows (1.8×).
  assert.ok(bytes < 1.25 * payload, `${bytes} bytes for ${payload} of rows`);
  await store.close();
  const reopened = await open();
  assert.equal(pragma(reopened, 'page_size'), 16_384);
  assert.equal(Number(reopened.get('SELECT count(*) AS n FROM items')?.n), 1000);
  await reopened.close();
});

test('a store made with 4 KiB pages keeps them, and its rows', async () => {
  const SQL = await loadSqlJs();
  const file = new SQL.Database();
  file.run('PRAGMA page_size = 4096');
  file.run('CREATE TABLE _store (key TEXT PRIMARY KEY, value INTEGER NOT NULL)');
  file.run("INSERT INTO _store VALUES ('seq', 0)");
  file.run('CREATE TABLE items (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  file.run("INSERT INTO items (body) VALUES ('kept')");
  file.run(
    'CREATE TABLE _migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, sha256 TEXT NOT NULL)',
  );
  const bytes = file.export();
  file.close();
  writeFileSync(join(dir, 'kb.sqlite'), Buffer.concat([bytes, snapshotTrailer(bytes)]));
  const store = await Store.open({ dataDir: dir, logger: silentLogger, migrations: [] });
  assert.equal(pragma(store, 'page_size'), 4096);
  assert.equal(store.get('SELECT body FROM items')?.body, 'kept');
  await store.close();
});
