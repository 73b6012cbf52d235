/**
 * The body of a robot bundle import, checked as it arrives while it is written to a temporary
 * file, then read from there to be written (domain/robot-bundles.ts reads it twice): a bundle
 * of 100 MB is never held in memory whole, and a bad one is refused as soon as it is known bad
 * (docs/api.md, "Copying a robot").
 * @module
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { BundleSource } from '../domain/robot-bundles';
import { ServiceError } from '../errors';
import { LIMITS } from '../limits';
import { liftRequestDeadline } from './connection-limits';

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
 * than `limit` (413) and one that is empty. The first reading is the body as it arrives, each
 * chunk written to a temporary file before it is handed on: the check reads the upload itself,
 * so a bundle is refused as soon as it is known bad, not once 100 MB have arrived (an invalid
 * 116 MB upload was answered 408 at 62 s under load, its check never reached). Later readings
 * read the file, once the rest of the body is in it. The request has no deadline of its own
 * (connection-limits.ts): a large valid upload is read as fast as the check goes, however long
 * that takes on a loaded machine; a client silent for the idle timeout is still cut off. The
 * temporary copy is removed after, and a body not read to its end (refused half-way) is read
 * and discarded, so that the answer reaches the client.
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
  liftRequestDeadline(request);
  const dir = await mkdtemp(join(tmpdir(), 'kb-bundle-'));
  const path = join(dir, 'bundle.json');
  // Not destroyed when a reading stops early: the request's answer still has to go out on it.
  const chunks = request.iterator({ destroyOnReturn: false });
  let copy: FileHandle | null = await open(path, 'w');
  let bytes = 0;
  /** The next chunk of the body, written to the file first; null at its end. */
  const next = async (): Promise<Buffer | null> => {
    const { value, done } = await chunks.next();
    if (done) return null;
    const chunk: Buffer = value;
    bytes += chunk.length;
    if (bytes > limit) throw tooLarge(limit);
    await copy?.write(chunk);
    return chunk;
  };
  let received: Promise<void> | null = null;
  /** The rest of the body into the file: it is whole, and the connection silent until the answer. */
  const receiveRest = async () => {
    while (await next());
    await copy?.close();
    copy = null;
    // Silent until the answer, for as long as the import takes (the idle timeout is for
    // clients that send nothing; Node restores keep-alive's after).
    request.socket.setTimeout(0);
  };
  let first = true;
  const source: BundleSource = {
    read: () => {
      if (first) {
        first = false;
        return (async function* arriving() {
          for (let chunk = await next(); chunk; chunk = await next()) yield chunk;
        })();
      }
      return (async function* fromFile() {
        await (received ??= receiveRest());
        yield* createReadStream(path, { highWaterMark: 64 * 1024 });
      })();
    },
  };
  try {
    return await use(source);
  } finally {
    await copy?.close().catch(() => undefined);
    if (!request.readableEnded) {
      await chunks.return?.();
      request.resume();
    }
    await rm(dir, { recursive: true, force: true });
  }
}
