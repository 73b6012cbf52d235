// The esbuild settings of the Node entry points (the headless service and the CLIs), shared by
// build/build.mjs and by build/sign.mjs, which rebuilds the sign CLI alone when it is stale.
// Node dependencies stay external: they are installed next to the bundle (node_modules).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NODE_BUNDLE = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
};

export const SIGN_ENTRY = { sign: 'electron/cli/sign.ts' };

/**
 * The source files dist/sign.js was built from (relative to the project's root), for
 * build/sign.mjs to tell whether it is stale.
 */
export const SIGN_INPUTS = 'dist/sign.inputs.json';

export function writeSignInputs(metafile, root = '.') {
  const inputs = Object.keys(metafile.outputs['dist/sign.js']?.inputs ?? {});
  writeFileSync(join(root, SIGN_INPUTS), JSON.stringify(inputs));
}
