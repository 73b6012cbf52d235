/**
 * The editor's token on this computer (the console API's bearer token when editors do not sign
 * in): kept in the data directory (`editor-token`, mode 0600) so that the editor's address stays
 * the same across restarts (bookmarks and open tabs keep working), and replaced on demand (the
 * API access page), which ends every other tab's access at once. Never written to the log.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_MODE, narrowMode, writeFileAtomic, writeFileAtomicAsync } from '../files/durable-fs';
import { randomToken } from './credentials';

export const EDITOR_TOKEN_FILE = 'editor-token';

/** 32 random bytes, URL-safe base64: what `randomToken(32)` makes. */
const TOKEN_BYTES = 32;
const WELL_FORMED = /^[A-Za-z0-9_-]{43,}$/;

export interface EditorToken {
  /** The token in force. */
  readonly current: string;
  /** A new token replaces the old one (kept on disk first when it lives in a file). */
  rotate(): Promise<string>;
}

/** A token the host chose (tests, a team server's unused one): in memory only. */
export function fixedEditorToken(token: string): EditorToken {
  let current = token;
  return {
    get current() {
      return current;
    },
    async rotate() {
      current = randomToken(TOKEN_BYTES);
      return current;
    },
  };
}

/**
 * The data directory's token, made on first start. A file that cannot be read or holds no
 * well-formed token is replaced by a new token (`replaced` says so, for a warning): a new editor
 * address is all it costs, unlike new credentials.
 */
export function openEditorToken(dataDir: string): { token: EditorToken; replaced: boolean } {
  const path = join(dataDir, EDITOR_TOKEN_FILE);
  let stored: string | null = null;
  let replaced = false;
  try {
    stored = readFileSync(path, 'utf8').trim();
    narrowMode(path, FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') replaced = true;
  }
  if (stored !== null && !WELL_FORMED.test(stored)) {
    stored = null;
    replaced = true;
  }
  let current = stored ?? randomToken(TOKEN_BYTES);
  if (stored === null) writeFileAtomic(path, `${current}\n`, FILE_MODE);
  let writing: Promise<unknown> = Promise.resolve();
  const token: EditorToken = {
    get current() {
      return current;
    },
    rotate() {
      // One at a time: both would write the same temporary file.
      const run = async () => {
        const next = randomToken(TOKEN_BYTES);
        await writeFileAtomicAsync(path, Buffer.from(`${next}\n`, 'utf8'), FILE_MODE);
        current = next;
        return next;
      };
      const rotated = writing.then(run, run);
      writing = rotated;
      return rotated;
    },
  };
  return { token, replaced };
}
