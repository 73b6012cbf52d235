// Builds everything that runs: the Node entry points (headless service, CLIs) bundled by esbuild
// into dist/, and the editor (renderer/) bundled by Vite into dist/renderer/.
// Node dependencies stay external: they are installed next to the bundle (node_modules).
import { existsSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: { headless: 'electron/headless.ts', sign: 'electron/cli/sign.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});

if (existsSync('build/vite.config.ts')) {
  const { build: viteBuild } = await import('vite');
  await viteBuild({ configFile: 'build/vite.config.ts', logLevel: 'warn' });
}
