/**
 * A full disk, injected (ENOSPC from node:fs), so that it runs everywhere; the same on a real
 * small tmpfs is tests/api/disk-full.spec.ts. A failed snapshot removes its temporary file,
 * wedges no write, and is retried by itself once space returns; a write that cannot be journaled
 * is refused and nothing of it is kept; every atomic write leaves the target as it was.
 */
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { StorageFailure } from '../../../electron/service/store/contract/errors';
import type { Logger } from '../../../electron/service/logger';
import { Store } from '../../../electron/service/store/embedded/database';
import {
  writeFileAtomic,
  writeFileAtomicAsync,
  writeFileAtomicWith,
} from '../../../electron/service/files/durable-fs';
import type { Migration } from '../../../electron/service/store/sql/migrations/runner';
import { injectEnospc } from '../../helpers/inject-enospc';
import type { DiskFull } from '../../helpers/inject-enospc';

let dir: string;
let full: DiskFull | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'disk-full-'));
});
afterEach(() => {
  full?.restore();
  full = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const items: Migration = {
  version: 1,
  name: 'items',
  sql: 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
};

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };
}

const temporaryFiles = () => readdirSync(dir).filter((n) => n.includes('.tmp-'));
const insert = (store: Store, name: string) =>
  store.write((tx) => tx.run('INSERT INTO items (name) VALUES (?)', [name]));

async function until(what: string, check: () => boolean): Promise<void> {
  // A state waited for, not a timing: generous, as a snapshot is built on a worker thread
  // (under tsx, a loaded machine takes seconds to start it).
  const end = Date.now() + 120_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a snapshot that hits a full disk leaves no temporary file, wedges no write, and is written by itself once space returns', async () => {
  const logger = recordingLogger();
  const store = await Store.open({ dataDir: dir, logger, migrations: [items] });
  for (let i = 0; i < 50; i++) insert(store, `before ${i}`);
  full = injectEnospc((path) => path.includes('kb.sqlite.tmp-'), 4096);
  await store.snapshot();
  assert.ok(full.refused > 0, 'the snapshot met the full disk');
  assert.ok(logger.lines.some((l) => l.startsWith('snapshot failed (1 in a row)')));
  assert.deepEqual(temporaryFiles(), [], 'the failed snapshot left its temporary file');
  assert.ok(!existsSync(join(dir, 'kb.sqlite')), 'no half snapshot');
  for (let i = 0; i < 5; i++) insert(store, `after ${i}`); // not wedged
  // Retried 1 s later, the disk still full: it fails again, and cleans up again.
  await until('the second attempt', () =>
    logger.lines.some((l) => l.startsWith('snapshot failed (2 in a row)')),
  );
  assert.deepEqual(temporaryFiles(), []);

  full.restore();
  // The third attempt (2 s later) comes by itself: no write, no restart.
  await until('the snapshot written again', () =>
    logger.lines.some((l) => l.startsWith('snapshot written again after 2 failed attempt')),
  );
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.startsWith('journal-')),
    [],
    'the segments the snapshot covers are deleted',
  );
  await store.close();
  const reopened = await Store.open({ dataDir: dir, logger, migrations: [items] });
  assert.equal(reopened.all('SELECT * FROM items').length, 55);
  await reopened.close();
});

test('a write that cannot be journaled is refused with storage-failure and leaves nothing; the next one works once space returns', async () => {
  const logger = recordingLogger();
  const store = await Store.open({ dataDir: dir, logger, migrations: [items] });
  insert(store, 'kept');
  full = injectEnospc((path) => path.includes('journal-'), 10);
  // A snapshot rotates the journal: its next segment is opened through the patched fs.
  await store.snapshot();
  const journalBytes = () =>
    readdirSync(dir)
      .filter((n) => n.startsWith('journal-'))
      .reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);
  assert.throws(
    () => insert(store, 'refused'),
    (error: unknown) => error instanceof StorageFailure,
  );
  assert.ok(full.refused > 0);
  assert.deepEqual(
    store.all('SELECT name FROM items').map((r) => r.name),
    ['kept'],
  );
  assert.equal(journalBytes(), 0, 'the partial record is cut back out');
  full.restore();
  insert(store, 'after');
  await store.close();
  const reopened = await Store.open({ dataDir: dir, logger, migrations: [items] });
  assert.deepEqual(
    reopened.all('SELECT name FROM items ORDER BY id').map((r) => r.name),
    ['kept', 'after'],
  );
  await reopened.close();
});

test('every atomic write that fails leaves the old file and no temporary file', async () => {
  const target = join(dir, 'file.json');
  writeFileSync(target, 'old');
  full = injectEnospc((path) => path.startsWith(`${target}.tmp-`), 3);
  assert.throws(() => writeFileAtomic(target, 'a longer new content'), /ENOSPC/);
  assert.throws(
    () =>
      writeFileAtomicWith(target, (write) => {
        write(Buffer.from('part one, '));
        write(Buffer.from('part two'));
      }),
    /ENOSPC/,
  );
  await assert.rejects(writeFileAtomicAsync(target, Buffer.from('a longer new content')), /ENOSPC/);
  assert.equal(readFileSync(target, 'utf8'), 'old');
  assert.deepEqual(temporaryFiles(), []);
  full.restore();
  await writeFileAtomicAsync(target, Buffer.from('new'));
  assert.equal(readFileSync(target, 'utf8'), 'new');
  assert.equal(
    statSync(target).mode & 0o777,
    process.platform === 'win32' ? statSync(target).mode & 0o777 : 0o600,
  );
});
