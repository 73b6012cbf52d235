// Builds everything that runs: the Node entry points (headless service, CLIs) bundled by esbuild
// into dist/, and the editor (renderer/) bundled by Vite into dist/renderer/.
// Node dependencies stay external: they are installed next to the bundle (node_modules).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { build } from 'esbuild';
import { CLI_ENTRIES, NODE_BUNDLE, writeCliInputs } from './node-bundles.mjs';

// The snapshot's worker thread is a file of its own, found beside the bundle that starts it
// (electron/service/store/embedded/snapshot-thread.ts).
const node = await build({
  ...NODE_BUNDLE,
  entryPoints: {
    headless: 'electron/headless.ts',
    'snapshot-worker': 'electron/service/store/embedded/snapshot-worker.ts',
    // The vector lists' training worker, found next to the bundle that starts it (headless.js,
    // main.cjs): electron/service/embedding/list-training-port.ts.
    'list-training-worker': 'electron/service/embedding/list-training-worker.ts',
    // The impact preview's replay, found next to the bundle that starts it:
    // electron/service/publishing/impact-thread.ts.
    'impact-worker': 'electron/service/publishing/impact-worker.ts',
    // The team server's export worker: electron/service/store/postgres/question-log-export.ts.
    'question-log-export-worker': 'electron/service/store/postgres/question-log-export-worker.ts',
    ...CLI_ENTRIES,
  },
});
writeCliInputs(node.metafile);

// The desktop shell: Electron's main process and the window's preload, as CommonJS (a sandboxed
// preload must be CommonJS and may only require 'electron'; its own modules are bundled in).
// `import.meta.url` (electron/editor-dir.ts) has no CommonJS equivalent: it is given the file's
// URL so the editor is found next to the bundle.
await build({
  entryPoints: { main: 'electron/main.ts', preload: 'electron/preload.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  external: ['electron'],
  define: { 'import.meta.url': '__kbImportMetaUrl' },
  banner: { js: "const __kbImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
  sourcemap: true,
  logLevel: 'warning',
});

// The editor's field validators, compiled by Ajv ahead of time (its CSP has no 'unsafe-eval').
const validators = spawnSync(process.execPath, ['--import', 'tsx', 'build/field-validators.ts'], {
  stdio: 'inherit',
});
if (validators.status !== 0) process.exit(validators.status ?? 1);

if (existsSync('build/vite.config.ts')) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: 'build/vite.config.ts', logLevel: 'warn' });
}
