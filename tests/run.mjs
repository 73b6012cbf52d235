// Runs node's test runner (with tsx for TypeScript) over the test files below the given folders.
// Node 20 does not expand globs itself, hence this small finder.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  if (!statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return /\.(test|spec)\.ts$/.test(name) ? [path] : [];
  });
}

const dirs = process.argv.slice(2);
const files = dirs.flatMap(findTests).sort();
if (files.length === 0) {
  console.error(`no test files under ${dirs.join(', ')}`);
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
