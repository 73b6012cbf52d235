// `npm start`: runs the desktop app (package.json's `main`, dist/main.cjs) with Electron's binary.
// Where the binary was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD=1), says so in one line and
// points to `npm run serve`, exiting non-zero. Arguments are passed on: `npm start -- --data DIR`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The binary's path, or null: the electron package throws when its path.txt is missing. */
function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
if (!binary) {
  console.error(
    'kb-studio: the Electron binary is not installed here (ELECTRON_SKIP_BINARY_DOWNLOAD); run `npm run serve` for the service and the editor in a browser.',
  );
  process.exit(1);
}

// Set in some shells and CI images; it would make the binary a plain Node.
const env = { ...process.env };
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(binary, [root, ...process.argv.slice(2)], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
