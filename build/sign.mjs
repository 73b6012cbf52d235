// `npm run sign`: the built sign CLI (dist/sign.js), rebuilt first when stale (node-bundles.mjs).
import { join } from 'node:path';
import { runCli } from './node-bundles.mjs';

await runCli('sign', join(import.meta.dirname, '..'));
