import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built editor (dist/renderer), found from the running bundle or from the source tree. */
export function resolveEditorDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, 'renderer'), join(here, '..', 'dist', 'renderer')]) {
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  return null;
}
