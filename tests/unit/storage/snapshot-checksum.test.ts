/**
 * `kb.sqlite` carries a checksum (issue 32): a damaged snapshot is refused at open, naming
 * `npm run repair`, with no file changed; a snapshot written before checksums still opens; the
 * repair reports the damage and writes the snapshot again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { SnapshotDamagedError, Store } from '../../../electron/service/store/embedded/database';
import { formatRepairReport, repairDataDir } from '../../../electron/service/store/embedded/repair';
import type { Migration } from '../../../electron/service/store/sql/migrations/runner';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'snapshot-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const items: Migration = {
  version: 1,
  name: 'items',
  sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
};
const open = () => Store.open({ dataDir: dir, logger: silentLogger, migrations: [items] });
const snapshotPath = () => join(dir, 'kb.sqlite');
const ANSWER = 'the answer to keep: 退货请在七天内申请';

/** A data directory with a snapshot holding one row; returns the snapshot's bytes. */
async function withSnapshot(): Promise<Buffer> {
  const store = await open();
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', [ANSWER]));
  await store.close();
  return readFileSync(snapshotPath());
}

/** Every file of the directory and its bytes. */
function contents(): Record<string, Buffer> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
}

test('a snapshot with one byte flipped in a row is refused, naming npm run repair, nothing changed', async () => {
  const bytes = await withSnapshot();
  const at = bytes.indexOf(Buffer.from('退货'));
  assert.ok(at > 0, 'the row is in the snapshot');
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  writeFileSync(snapshotPath(), bytes);
  const before = contents();
  await assert.rejects(open(), (error: unknown) => {
    assert.ok(error instanceof SnapshotDamagedError);
    assert.match(error.message, /kb\.sqlite is damaged \(its checksum does not match\)/);
    assert.match(error.message, /npm run repair -- --data /);
    return true;
  });
  assert.deepEqual(contents(), before);

  const report = await repairDataDir({ dataDir: dir });
  assert.match(formatRepairReport(report), /DAMAGED SNAPSHOT: kb\.sqlite does not check out/);
  assert.ok(report.backupDir);
  const reopened = await open();
  assert.equal(reopened.all('SELECT name FROM items').length, 1);
  await reopened.close();
});

test('a snapshot cut short (its trailer gone) is refused', async () => {
  const bytes = await withSnapshot();
  writeFileSync(snapshotPath(), bytes.subarray(0, bytes.length - 10));
  await assert.rejects(open(), SnapshotDamagedError);
});

test('a snapshot written before checksums (no trailer) still opens', async () => {
  const bytes = await withSnapshot();
  writeFileSync(snapshotPath(), bytes.subarray(0, bytes.length - 24));
  const store = await open();
  assert.deepEqual(
    store.all('SELECT name FROM items').map((row) => row.name),
    [ANSWER],
  );
  await store.close();
});
