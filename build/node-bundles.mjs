// The esbuild settings of the Node entry points (the headless service and the CLIs), shared by
// build/build.mjs and by build/run-cli.mjs, which rebuilds a CLI alone when it is stale.
// Node dependencies stay external: they are installed next to the bundle (node_modules).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

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

/** The command-line tools, each built to dist/<name>.js. */
export const CLI_ENTRIES = {
  sign: 'electron/cli/sign.ts',
  repair: 'electron/cli/repair.ts',
};

/**
 * The source files dist/<name>.js was built from (relative to the project's root), for
 * `runCli` to tell whether it is stale.
 */
const inputsOf = (name) => `dist/${name}.inputs.json`;

/** Records, for every CLI in an esbuild result, the files it was built from. */
export function writeCliInputs(metafile, root = '.') {
  for (const name of Object.keys(CLI_ENTRIES)) {
    const output = metafile.outputs[`dist/${name}.js`];
    if (output)
      writeFileSync(join(root, inputsOf(name)), JSON.stringify(Object.keys(output.inputs)));
  }
}

function isStale(bundle, list, root) {
  if (!existsSync(bundle) || !existsSync(list)) return true;
  const built = statSync(bundle).mtimeMs;
  return JSON.parse(readFileSync(list, 'utf8')).some((input) => {
    const file = join(root, input);
    return !existsSync(file) || statSync(file).mtimeMs > built;
  });
}

/**
 * Runs the built CLI `name` in this process, a fraction of the start-up of running its
 * TypeScript through tsx. When the bundle is missing or older than one of the files it was built
 * from, it is rebuilt first, alone (esbuild).
 */
export async function runCli(name, root) {
  const bundle = join(root, 'dist', `${name}.js`);
  if (isStale(bundle, join(root, inputsOf(name)), root)) {
    const { build } = await import('esbuild');
    const entryPoints = { [name]: CLI_ENTRIES[name] };
    const result = await build({ ...NODE_BUNDLE, entryPoints, absWorkingDir: root });
    writeCliInputs(result.metafile, root);
  }
  await import(pathToFileURL(bundle).href);
}
