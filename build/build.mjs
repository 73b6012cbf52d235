// Bundles the Node entry points (headless service, CLIs) with esbuild into dist/.
// Dependencies stay external: they are installed next to the bundle (node_modules).
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
