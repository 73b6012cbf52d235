/**
 * The editor asks in its own dialogs (components/ConfirmDialog.tsx), in its language and style,
 * never with the browser's confirm(), alert() or prompt() (issue 29: the rollback, the log's
 * clearing, a secret's rotation and leaving unsaved settings used confirm()).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const RENDERER = join(import.meta.dirname, '..', '..', '..', 'renderer');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

test('no screen of the editor uses the browser’s own dialogs', () => {
  const found = sources(RENDERER).flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        /\b(?:window\.)?(?:confirm|alert|prompt)\(/.test(line) && !/^\s*(?:\/\/|\*)/.test(line)
          ? [`${relative(RENDERER, path)}:${i + 1}: ${line.trim()}`]
          : [],
      ),
  );
  assert.deepEqual(found, []);
});
