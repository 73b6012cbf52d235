// `npm run repair`: the built repair CLI (dist/repair.js), rebuilt first when stale
// (node-bundles.mjs), so that it starts as plain Node, without a TypeScript loader.
import { join } from 'node:path';
import { runCli } from './node-bundles.mjs';

await runCli('repair', join(import.meta.dirname, '..'));
