import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { Store } from '../../../electron/service/store/embedded/database';
import { readSegment, segmentName } from '../../../electron/service/store/embedded/journal';
import type { RecordAt } from '../../../electron/service/store/embedded/journal';
import type { Migration } from '../../../electron/service/store/sql/migrations/runner';
import { formatRepairReport, repairDataDir } from '../../../electron/service/store/embedded/repair';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'repair-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const schema: Migration = {
  version: 1,
  name: 'shop',
  sql: `CREATE TABLE tenants (tenant_id INTEGER PRIMARY KEY, company TEXT NOT NULL);
CREATE TABLE rules (rule_id TEXT PRIMARY KEY, tenant_id INTEGER NOT NULL REFERENCES tenants (tenant_id), robot_id TEXT NOT NULL, rule_name TEXT NOT NULL);`,
};
const open = () => Store.open({ dataDir: dir, logger: silentLogger, migrations: [schema] });

/** Writes through a store that is then dropped as by kill -9; returns the journal's records. */
async function journalOf(
  writes: ((store: Store) => void)[],
): Promise<{ file: string; records: RecordAt[] }> {
  const store = await open();
  await store.snapshot(); // the schema in kb.sqlite: the journal holds the writes only
  for (const write of writes) write(store);
  (store as unknown as { lock: { release(): void } }).lock.release();
  const file = readdirSync(dir).find((n) => n.startsWith('journal-')) ?? '';
  const records = readSegment(readFileSync(join(dir, file))).filter(
    (e): e is RecordAt => 'record' in e,
  );
  return { file, records };
}

const addTenant = (id: number) => (store: Store) =>
  store.write((tx) =>
    tx.run('INSERT INTO tenants (tenant_id, company) VALUES (?, ?)', [id, `公司 ${id}`]),
  );
const addRules = (tenant: number, names: string[]) => (store: Store) =>
  store.write((tx) => {
    for (const name of names)
      tx.run('INSERT INTO rules (rule_id, tenant_id, robot_id, rule_name) VALUES (?, ?, ?, ?)', [
        `id-${name}`,
        tenant,
        'default',
        name,
      ]);
  });

function damage(file: string, record: RecordAt, bytes = 16): void {
  const path = join(dir, file);
  const content = readFileSync(path);
  content.fill(0, record.offset + 20, record.offset + 20 + bytes);
  writeFileSync(path, content);
}

async function rows(): Promise<string[]> {
  const store = await open();
  try {
    return store
      .all<{ rule_name: string }>('SELECT rule_name FROM rules ORDER BY rule_id')
      .map((r) => r.rule_name);
  } finally {
    await store.close();
  }
}

test('an intact journal: nothing to repair, nothing changed', async () => {
  await journalOf([addTenant(1), addRules(1, ['a'])]);
  const before = readdirSync(dir).map((n) => [n, readFileSync(join(dir, n))]);
  const report = await repairDataDir({ dataDir: dir });
  assert.equal(report.lost.length, 0);
  assert.equal(report.backupDir, null);
  assert.match(formatRepairReport(report), /Nothing to repair/);
  assert.deepEqual(
    readdirSync(dir).map((n) => [n, readFileSync(join(dir, n))]),
    before,
  );
});

test('unreadable damage: the seq is known from its neighbours; later records that need it are lost too, the rest kept', async () => {
  const { file, records } = await journalOf([
    addTenant(1),
    addRules(1, ['退货', '发票']),
    addTenant(2),
    addRules(2, ['运费']), // needs tenant 2: lost with it
    addRules(1, ['保修']),
  ]);
  const lost = records[2] as RecordAt;
  damage(file, lost, 40);
  await assert.rejects(open(), /is damaged at byte/);

  const dry = await repairDataDir({ dataDir: dir, dryRun: true });
  assert.equal(dry.backupDir, null);
  assert.ok(readdirSync(dir).includes(file), 'a dry run changes nothing');

  const report = await repairDataDir({ dataDir: dir, now: new Date(2026, 0, 2, 3, 4, 5) });
  const text = formatRepairReport(report);
  assert.deepEqual(
    report.lost.map((l) => l.seqs),
    [[lost.record.seq], [lost.record.seq + 1]],
  );
  assert.match(
    text,
    new RegExp(`seq ${lost.record.seq} \\(${file}, bytes ${lost.offset}–${lost.end}\\)`),
  );
  assert.match(text, /no longer replays: .*FOREIGN KEY/);
  assert.match(text, /rule \("运费"\) added to tenant 2 robot default/);
  assert.match(text, /LOST: 2 acknowledged change/);
  assert.equal(report.backupDir, join(dir, 'repair-20260102-030405'));
  assert.deepEqual(readdirSync(report.backupDir).sort(), ['REPORT.txt', file, 'kb.sqlite'].sort());
  assert.deepEqual(await rows(), ['保修', '发票', '退货']);
});

test('a missing segment is reported by its seqs; a record that still parses is described', async () => {
  const { file, records } = await journalOf([
    addTenant(1),
    addRules(1, ['a']),
    addRules(1, ['b', 'c']),
  ]);
  const path = join(dir, file);
  const bytes = readFileSync(path);
  const [first, second, third] = records as [RecordAt, RecordAt, RecordAt];
  // Segments [1] and [3]: the one holding the second record is gone.
  writeFileSync(path, bytes.subarray(first.offset, first.end));
  writeFileSync(join(dir, segmentName(third.record.seq)), bytes.subarray(third.offset, third.end));
  await assert.rejects(open(), new RegExp(`seq ${second.record.seq} is missing`));
  const report = await repairDataDir({ dataDir: dir });
  assert.deepEqual(
    report.lost.map((l) => [l.seqs, l.why]),
    [[[second.record.seq], 'missing from the journal (a segment is gone)']],
  );
  assert.deepEqual(await rows(), ['b', 'c']);
});

test('a torn end alone: cut, reported as never acknowledged, nothing lost', async () => {
  const { file, records } = await journalOf([addTenant(1), addRules(1, ['a', 'b'])]);
  const last = records.at(-1) as RecordAt;
  writeFileSync(join(dir, file), readFileSync(join(dir, file)).subarray(0, last.end - 3));
  const report = await repairDataDir({ dataDir: dir });
  assert.equal(report.lost.length, 0);
  assert.match(
    formatRepairReport(report),
    new RegExp(
      `never acknowledged:\\n.*what can be made out: seq ${last.record.seq}; statements INSERT rules`,
    ),
  );
  assert.deepEqual(await rows(), []);
});

test('repair refuses while the service holds the directory', async () => {
  const store = await open();
  await assert.rejects(repairDataDir({ dataDir: dir }), /already in use/);
  await store.close();
});
