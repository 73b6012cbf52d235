// `npm run sign`: runs the built sign CLI (dist/sign.js) in this process, a fraction of the
// start-up of running its TypeScript through tsx. When the bundle is missing or older than one of
// the files it was built from (dist/sign.inputs.json), it is rebuilt first, alone (esbuild).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NODE_BUNDLE, SIGN_ENTRY, SIGN_INPUTS, writeSignInputs } from './node-bundles.mjs';

const root = join(import.meta.dirname, '..');
const bundle = join(root, 'dist', 'sign.js');

function isStale() {
  const list = join(root, SIGN_INPUTS);
  if (!existsSync(bundle) || !existsSync(list)) return true;
  const built = statSync(bundle).mtimeMs;
  return JSON.parse(readFileSync(list, 'utf8')).some((input) => {
    const file = join(root, input);
    return !existsSync(file) || statSync(file).mtimeMs > built;
  });
}

if (isStale()) {
  const { build } = await import('esbuild');
  const result = await build({ ...NODE_BUNDLE, entryPoints: SIGN_ENTRY, absWorkingDir: root });
  writeSignInputs(result.metafile, root);
}
await import(pathToFileURL(bundle).href);
