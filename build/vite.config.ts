/**
 * Vite configuration of the editor (renderer/), built into dist/renderer and served by the
 * service at `/`. `base: './'` keeps asset URLs relative, so the same build works from the
 * service and from a file URL in the desktop shell.
 * @module
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = resolve(import.meta.dirname, '..');

export default defineConfig({
  root: resolve(root, 'renderer'),
  base: './',
  plugins: [react()],
  build: {
    outDir: resolve(root, 'dist', 'renderer'),
    emptyOutDir: true,
    target: 'es2022',
    // No source maps: the service would serve them to anyone who asks (the editor's routes skip
    // .map files as well). Turn them on locally to debug a production build.
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
  },
  worker: { format: 'es' },
});
