/**
 * Serves the built editor at `/`. Without a build, `/` says how to make one instead of a 404.
 *
 * The build is a handful of files (index.html and hashed assets): each is a GET route of its own,
 * listed once at start, and read from disk on each request with its content type. This is what
 * @fastify/static did with `wildcard: false`, without loading it and its dependencies and
 * globbing the folder on every start (a tenth of a second of the service's start).
 *
 * Every answer carries a Content-Security-Policy (scripts, styles, workers and requests from
 * the service itself only; no framing), `X-Frame-Options`, `Referrer-Policy: no-referrer` (the
 * editor's first address holds the console token) and `nosniff`. Source maps are not served.
 * The routes answer only to the service's own host names (http/host-allow-list.ts).
 * @module
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { EDITOR_CONTENT_SECURITY_POLICY } from '../../editor-policy';
import type { FastifyInstance, FastifyReply } from 'fastify';

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>KB Studio</title>
<p>The KB Studio service is running. The editor has not been built: run <code>npm run build</code>
and restart. The API is under <code>/v1/openapi/</code>.</p>`;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

const SECURITY_HEADERS = {
  'content-security-policy': EDITOR_CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

/** Source maps describe the code to whoever asks; the editor ships without them. */
const SERVED = /^[\w./-]+$/;
const isServed = (name: string) => SERVED.test(name) && !name.endsWith('.map');

/** Paths of the files below `dir`, relative, with `/` separators. */
function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return listFiles(dir, path);
    return entry.isFile() ? [path] : [];
  });
}

export async function registerEditorRoutes(
  app: FastifyInstance,
  editorDir: string | null,
): Promise<void> {
  const editor = { config: { editor: true } };
  if (editorDir && existsSync(join(editorDir, 'index.html'))) {
    // Plain names only: a route path gives `:` and `*` a meaning (Vite's names never have them).
    for (const file of listFiles(editorDir).filter(isServed)) {
      const path = join(editorDir, file);
      const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      // Vite names assets by their content: they never change under a name. The rest (the page)
      // is checked again on every load.
      const cache = file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      const handler = async (_request: unknown, reply: FastifyReply) =>
        reply
          .type(type)
          .headers(SECURITY_HEADERS)
          .header('cache-control', cache)
          .send(await readFile(path));
      app.get(`/${file}`, editor, handler);
      if (file === 'index.html') app.get('/', editor, handler);
    }
    return;
  }
  app.get('/', editor, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').headers(SECURITY_HEADERS).send(NOT_BUILT),
  );
}
