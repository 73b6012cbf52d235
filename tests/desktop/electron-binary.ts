import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Electron's binary, or why there is none: the electron package's index throws when the binary
 * was skipped at install (no path.txt), and the path may point to a deleted dist/.
 */
export function findElectronBinary(): { path: string } | { reason: string } {
  let path: unknown;
  try {
    path = createRequire(import.meta.url)('electron');
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      reason: `Electron's binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1?): ${detail}`,
    };
  }
  if (typeof path !== 'string' || !existsSync(path))
    return { reason: `Electron's binary is missing at ${String(path)}` };
  return { path };
}
