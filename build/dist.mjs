// `npm run dist`: packages the desktop app for this platform with electron-builder, using the
// Electron binary that `npm install` put in node_modules (so no second download). Where that
// binary was not installed (ELECTRON_SKIP_BINARY_DOWNLOAD=1, offline machines), says so in one
// line and exits non-zero: there is nothing to package without it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const electronDist = join(root, 'node_modules', 'electron', 'dist');

if (!existsSync(electronDist)) {
  console.error(
    'kb-studio: cannot package here: the Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD); run `npm install` on a machine that can download it, then `npm run dist`.',
  );
  process.exit(1);
}
const result = spawnSync(
  'npx',
  [
    'electron-builder',
    '--config',
    'build/electron-builder.yml',
    `-c.electronDist=${electronDist}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
