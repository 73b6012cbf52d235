import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import {
  Store,
  journalDueForSnapshot,
  loadSqlJs,
  openDatabase,
} from '../../../electron/service/store/embedded/database';
import { readSegment } from '../../../electron/service/store/embedded/journal';
import type { Migration } from '../../../electron/service/store/sql/migrations/runner';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const v1: Migration = {
  version: 1,
  name: 'items',
  sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
};
const v2: Migration = { version: 2, name: 'tags', sql: 'CREATE TABLE tags (name TEXT);' };
const open = (
  migrations: Migration[] = [v1],
  extra: Partial<Parameters<typeof Store.open>[0]> = {},
) => Store.open({ dataDir: dir, logger: silentLogger, migrations, ...extra });

/** Simulates a crash: drops the store without closing it (no snapshot), then frees the lock. */
async function crash(store: Store): Promise<void> {
  // Releasing the lock is all a dead process leaves undone besides the snapshot.
  (store as unknown as { lock: { release(): void } }).lock.release();
}

test('acknowledged writes are replayed from the journal after a crash', async () => {
  const store = await open();
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['一']));
  store.write((tx) => {
    tx.run('INSERT INTO items (name) VALUES (?)', ['二']);
    tx.run('INSERT INTO items (name) VALUES (?)', ['三']);
  });
  await crash(store);
  assert.ok(!existsSync(join(dir, 'kb.sqlite')), 'no snapshot was taken');
  const reopened = await open();
  assert.deepEqual(
    reopened.all('SELECT name FROM items ORDER BY id').map((r) => r.name),
    ['一', '二', '三'],
  );
  assert.equal(reopened.lastSeq, store.lastSeq);
  await reopened.close();
});

test('a write that throws leaves nothing behind, in memory or on disk', async () => {
  const store = await open();
  assert.throws(() =>
    store.write((tx) => {
      tx.run('INSERT INTO items (name) VALUES (?)', ['kept out']);
      throw new Error('validation failed half-way');
    }),
  );
  assert.equal(store.all('SELECT * FROM items').length, 0);
  const seq = store.lastSeq;
  await crash(store);
  const reopened = await open();
  assert.equal(reopened.all('SELECT * FROM items').length, 0);
  assert.equal(reopened.lastSeq, seq);
  await reopened.close();
});

test('close writes a snapshot that covers the journal', async () => {
  const store = await open();
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['snap']));
  await store.close();
  const files = readdirSync(dir);
  assert.ok(files.includes('kb.sqlite'));
  assert.deepEqual(
    files.filter((f) => f.startsWith('journal-')),
    [],
  );
  const reopened = await open();
  assert.deepEqual(
    reopened.all('SELECT name FROM items').map((r) => r.name),
    ['snap'],
  );
  await reopened.close();
});

test('snapshot plus the journal after it: writes on both sides of a snapshot survive a crash', async () => {
  const store = await open();
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['before']));
  await store.snapshot();
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['after']));
  await crash(store);
  const reopened = await open();
  assert.deepEqual(
    reopened.all('SELECT name FROM items ORDER BY id').map((r) => r.name),
    ['before', 'after'],
  );
  await reopened.close();
});

test('a JSON parameter passed as UTF-8 bytes is stored as text, journaled and replayed', async () => {
  const store = await open();
  const names = ['plain', '中文 😀', 'quote " and \\ back', 'line\nbreak'];
  const insert =
    'INSERT INTO items (name) SELECT value FROM json_each(CAST(? AS TEXT)) ORDER BY key';
  assert.equal(
    store.write((tx) => tx.run(insert, [{ utf8: JSON.stringify(names) }])),
    names.length,
  );
  const read = () =>
    store.all<{ name: string; kind: string }>(
      'SELECT name, typeof(name) AS kind FROM items ORDER BY id',
    );
  assert.deepEqual(
    read().map((r) => [r.name, r.kind]),
    names.map((n) => [n, 'text']),
  );
  await crash(store);
  const reopened = await open();
  assert.deepEqual(
    reopened.all('SELECT name FROM items ORDER BY id').map((r) => r.name),
    names,
    'replayed from the journal',
  );
  await reopened.close();
});

test('parameters must be strings, numbers or null', async () => {
  const store = await open();
  assert.throws(
    () => store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', [true as never])),
    /not allowed/,
  );
  await store.close();
});

test('migrations apply in order, once, and an edited or unknown migration is refused', async () => {
  const store = await open([v1]);
  await store.close();
  const upgraded = await open([v1, v2]);
  assert.deepEqual(
    upgraded.all('SELECT version FROM _migrations ORDER BY version').map((r) => r.version),
    [1, 2],
  );
  await upgraded.close();
  await assert.rejects(open([{ ...v1, sql: `${v1.sql} -- edited` }, v2]), /does not match/);
  await assert.rejects(open([v1]), /newer than this KB Studio/);
});

test('a second open of the same data directory is refused while the first holds it', async () => {
  const store = await open();
  await assert.rejects(open(), /already in use/);
  await store.close();
  const again = await open();
  await again.close();
});

/** Every file of the data directory and its bytes. */
const contents = () =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));

test('a journal damaged before its end refuses to open and changes no file, the lock of a crash included', async () => {
  const store = await open();
  for (const name of ['一', '二', '三'])
    store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', [name]));
  await crash(store);
  // The lock a killed process leaves behind (its pid no longer runs).
  const dead = spawnSync(process.execPath, ['-e', '0']).pid;
  writeFileSync(join(dir, 'kbstudio.lock'), JSON.stringify({ pid: dead, host: hostname() }));
  const segment = readdirSync(dir).find((n) => n.startsWith('journal-')) ?? '';
  const bytes = readFileSync(join(dir, segment));
  const [first] = readSegment(bytes);
  const at = (first?.end ?? 0) - 5;
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  writeFileSync(join(dir, segment), bytes);
  const before = contents();
  for (let attempt = 0; attempt < 2; attempt++) {
    await assert.rejects(
      open(),
      new RegExp(
        `${join(dir, segment)} is damaged at byte 0 \\(the record checksum does not match\\)`,
      ),
    );
    assert.deepEqual(contents(), before, `attempt ${attempt + 1} changed files`);
  }
});

test(
  'data files are private (0600) in a private directory (0700); wider ones are narrowed at open, with a log line',
  { skip: process.platform === 'win32' ? 'no POSIX permissions' : false },
  async () => {
    const modeOf = (path: string) => statSync(path).mode & 0o777;
    const nested = join(dir, 'nested', 'data');
    const store = await open([v1], { dataDir: nested });
    store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['x']));
    assert.equal(modeOf(nested), 0o700);
    for (const name of readdirSync(nested)) assert.equal(modeOf(join(nested, name)), 0o600, name);
    await store.close();
    assert.equal(modeOf(join(nested, 'kb.sqlite')), 0o600);

    chmodSync(nested, 0o755);
    chmodSync(join(nested, 'kb.sqlite'), 0o644);
    writeFileSync(join(nested, 'notes.txt'), 'copied in', { mode: 0o664 });
    const lines: string[] = [];
    const logger = { ...silentLogger, info: (line: string) => lines.push(line) };
    const reopened = await open([v1], { dataDir: nested, logger });
    assert.equal(modeOf(nested), 0o700);
    assert.equal(modeOf(join(nested, 'kb.sqlite')), 0o600);
    assert.equal(modeOf(join(nested, 'notes.txt')), 0o600);
    assert.ok(
      lines.some(
        (l) =>
          l.includes(`made the data directory ${nested} private`) &&
          l.includes('kb.sqlite') &&
          l.includes('notes.txt'),
      ),
      lines.join('\n'),
    );
    await reopened.close();
  },
);

test('an idle spell snapshots a journal past a megabyte, not a few small edits', async () => {
  const store = await open([v1], { snapshotIdleMs: 30 });
  const pause = () => new Promise((resolve) => setTimeout(resolve, 300));
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['small edit']));
  await pause();
  assert.ok(!existsSync(join(dir, 'kb.sqlite')), 'a small journal waits for the stop');
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', ['x'.repeat(1024 * 1024)]));
  // The snapshot is built on a worker thread: waited for, not timed.
  const snapshotted = () =>
    existsSync(join(dir, 'kb.sqlite')) &&
    readdirSync(dir).filter((n) => n.startsWith('journal-')).length === 0;
  for (let waited = 0; !snapshotted() && waited < 600; waited++) await pause();
  assert.ok(snapshotted(), 'a megabyte of journal is snapshotted when idle');
  await store.close();
});

test('a journal calls for a snapshot at once past the configured size; unconfigured, past 32 MB and the database', () => {
  const MB = 1024 * 1024;
  const database = (bytes: number) => () => bytes;
  assert.equal(journalDueForSnapshot(100_000, 100_000, database(500 * MB)), true);
  assert.equal(journalDueForSnapshot(99_999, 100_000, database(0)), false);
  assert.equal(journalDueForSnapshot(32 * MB, undefined, database(10 * MB)), true);
  assert.equal(journalDueForSnapshot(31 * MB, undefined, database(0)), false);
  // An import into a large database: a copy of everything only once the journal is as large.
  assert.equal(journalDueForSnapshot(100 * MB, undefined, database(300 * MB)), false);
  assert.equal(journalDueForSnapshot(300 * MB, undefined, database(300 * MB)), true);
});

test('the database lives in memory: opened from a snapshot, written, exported and opened again', async () => {
  const SQL = await loadSqlJs();
  const first = openDatabase(SQL, null);
  first.run('CREATE TABLE items (name TEXT)');
  first.run("INSERT INTO items VALUES ('one')");
  const bytes = first.export();
  // Still usable after an export (sql.js's export reads it through SQLite's backup API).
  first.run("INSERT INTO items VALUES ('two')");
  const second = openDatabase(SQL, bytes);
  second.run("INSERT INTO items VALUES ('three')");
  assert.deepEqual(second.exec('SELECT name FROM items ORDER BY name')[0]?.values, [
    ['one'],
    ['three'],
  ]);
  assert.deepEqual(first.exec('SELECT count(*) FROM items')[0]?.values, [[2]]);
  // No file of sql.js's in-memory file system behind it: SQLite says it has none.
  assert.deepEqual(
    second.exec("SELECT file FROM pragma_database_list WHERE name = 'main'")[0]?.values,
    [['']],
  );
  first.close();
  second.close();
});
