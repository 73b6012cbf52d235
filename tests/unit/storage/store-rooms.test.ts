/**
 * The two stores are peers (docs/storage.md, "Where the code is"): neither imports the other,
 * and what they share (store/sql) imports neither. Read from the sources' import statements,
 * dynamic imports included.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const STORE = resolve(import.meta.dirname, '../../../electron/service/store');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The rooms of the store each file of `room` imports from (relative imports only). */
function importedRooms(room: string): { file: string; imported: string }[] {
  return sources(join(STORE, room)).flatMap((file) =>
    ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(STORE, resolve(dirname(file), name)))
      .filter((target) => !target.startsWith('..'))
      .map((target) => ({ file: relative(STORE, file), imported: target.split('/')[0] ?? '' })),
  );
}

const offending = (room: string, forbidden: readonly string[]) =>
  importedRooms(room).filter(({ imported }) => forbidden.includes(imported));

test('the embedded store does not import the PostgreSQL store', () => {
  assert.ok(importedRooms('embedded').length > 0, 'the embedded store imports from the store');
  assert.deepEqual(offending('embedded', ['postgres']), []);
});

test('the PostgreSQL store does not import the embedded store', () => {
  assert.ok(importedRooms('postgres').length > 0, 'the PostgreSQL store imports from the store');
  assert.deepEqual(offending('postgres', ['embedded']), []);
});

test('what the stores share imports neither store', () => {
  assert.ok(importedRooms('sql').length > 0, 'store/sql imports from the store');
  assert.deepEqual(offending('sql', ['embedded', 'postgres']), []);
});
