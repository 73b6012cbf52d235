// `npm run serve`: builds what changed since the last build (build/build.mjs, in a child
// process), then runs the headless service (dist/headless.js) in this process.
//
// npm runs a script through a shell (`sh -c`), which does not pass signals on: a SIGTERM sent to
// npm's pid (a supervisor, `kill $!`) reaches npm, which forwards it to the shell, which dies and
// leaves the service running under init. So the service also stops, as on SIGTERM, when the
// process that started it is gone. Run `node dist/headless.js` directly (after `npm run build`)
// to have neither npm nor the shell in between: docs and README show it under systemd.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const SOURCES = ['electron', 'renderer', 'build', 'package.json', 'package-lock.json'];
const OUTPUTS = ['dist/headless.js', 'dist/main.cjs', 'dist/renderer/index.html'];
const PARENT_CHECK_MS = 500;

/** The newest modification time under `path` (a file or a folder), 0 when it is missing. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), 0);
}

function isStale() {
  const outputs = OUTPUTS.map((file) => join(root, file));
  if (!outputs.every((file) => existsSync(file))) return true;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return SOURCES.some((source) => newest(join(root, source)) > built);
}

if (isStale()) {
  const build = spawnSync(process.execPath, [join(root, 'build', 'build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The shell npm started this from is gone (killed with npm): stop as on SIGTERM.
if (process.platform !== 'win32') {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, PARENT_CHECK_MS);
  watch.unref();
}

await import(pathToFileURL(join(root, 'dist', 'headless.js')).href);
