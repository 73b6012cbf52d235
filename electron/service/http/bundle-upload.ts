/**
 * The body of a robot bundle import, written to a temporary file as it arrives, then read from
 * there (twice, by domain/robot-bundles.ts: once to check it, once to write it): a bundle of
 * 100 MB is never held in memory whole (docs/api.md, "Copying a robot").
 * @module
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BundleSource } from '../domain/robot-bundles';
import { ServiceError } from '../errors';
import { LIMITS } from '../limits';

const MIB = 1024 * 1024;

function tooLarge(limit: number): ServiceError {
  return new ServiceError(
    'body-too-large',
    `The request body is larger than ${LIMITS.bodyBytesMax / MIB} MiB (a robot bundle: ${limit / MIB} MiB).`,
    undefined,
    { keyword: 'maxBytes', params: { limit } },
  );
}

/**
 * In `scope` (a plugin of the bundle routes only), request bodies are not read by Fastify: the
 * route gets the request stream itself as its body.
 */
export function streamBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
}

/**
 * Runs `use` with the request's body as a `BundleSource`; refuses one announced or found larger
 * than `limit` (413) and one that is empty. The temporary copy is removed after, and a body not
 * read to its end (refused half-way) is discarded as it arrives.
 */
export async function withBundleBody<T>(
  body: unknown,
  limit: number,
  use: (source: BundleSource) => Promise<T>,
): Promise<T> {
  if (!(body instanceof IncomingMessage)) {
    throw new ServiceError(
      'malformed-json',
      'The request body is empty: send a robot bundle (a JSON object with format, version, robot, categories, rules and testCases).',
    );
  }
  const request = body;
  const announced = Number(request.headers['content-length'] ?? Number.NaN);
  if (announced > limit) {
    request.resume();
    throw tooLarge(limit);
  }
  const dir = await mkdtemp(join(tmpdir(), 'kb-bundle-'));
  const path = join(dir, 'bundle.json');
  const source: BundleSource = {
    read: () => createReadStream(path, { highWaterMark: 64 * 1024 }),
  };
  try {
    // Received whole first, as fast as it comes: the request must end within the server's
    // request timeout, however long the checking and writing take after.
    const copy = await open(path, 'w');
    try {
      let bytes = 0;
      for await (const data of request) {
        const chunk: Buffer = data;
        bytes += chunk.length;
        if (bytes > limit) throw tooLarge(limit);
        await copy.write(chunk);
      }
    } finally {
      await copy.close();
    }
    // Received: the connection is silent until the answer, for as long as the import takes
    // (the idle timeout is for clients that send nothing; Node restores keep-alive's after).
    request.socket.setTimeout(0);
    return await use(source);
  } finally {
    if (!request.readableEnded) request.resume();
    await rm(dir, { recursive: true, force: true });
  }
}
