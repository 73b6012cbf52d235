/**
 * A process for snapshot-worker.test.ts to kill in the middle of a snapshot: it fills a store in
 * the data directory given (a snapshot, then a journal of ~20 MB past it), says how many rows
 * are acknowledged, and takes a snapshot on the worker, saying when it is written.
 */
import { silentLogger } from '../../electron/service/logger';
import { Store } from '../../electron/service/store/embedded/database';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: snapshot-until-killed.ts DATA_DIR');
const store = await Store.open({
  dataDir,
  logger: silentLogger,
  migrations: [
    {
      version: 1,
      name: 'items',
      sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
    },
  ],
  snapshotWorkerMinBytes: 0,
  // No snapshot but the one asked for below.
  snapshotJournalBytes: 2 ** 40,
  snapshotIdleMs: 2 ** 30,
});
let rows = 0;
const batch = (n: number) =>
  store.write((tx) => {
    for (let i = 0; i < n; i++)
      tx.run('INSERT INTO items (name) VALUES (?)', [`${rows++} ${'k'.repeat(1000)}`]);
  });
for (let b = 0; b < 5; b++) batch(1000);
await store.snapshot();
for (let b = 0; b < 20; b++) batch(1000);
process.stdout.write(`acknowledged ${rows}\n`);
await store.snapshot();
process.stdout.write('snapshot written\n');
