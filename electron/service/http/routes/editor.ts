/**
 * Serves the built editor at `/`. Without a build, `/` says how to make one instead of a 404.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>KB Studio</title>
<p>The KB Studio service is running. The editor has not been built: run <code>npm run build</code>
and restart. The API is under <code>/v1/openapi/</code>.</p>`;

export async function registerEditorRoutes(
  app: FastifyInstance,
  editorDir: string | null,
): Promise<void> {
  if (editorDir && existsSync(join(editorDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: editorDir,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
    });
    return;
  }
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(NOT_BUILT));
}
