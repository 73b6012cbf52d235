/**
 * The ask route for plain requests, answered before Fastify's request pipeline: a signed ask is
 * small and needs none of routing, request and reply objects, hooks or content-type lookup, which
 * together cost as much as the work itself. The lane takes only requests whose every part is of
 * the plain kind (the path's ids, the query's characters, a Content-Length of at most 64 KiB, no
 * Transfer-Encoding, no Content-Type or a plain one) and hands them to the same ask handler as
 * Fastify's route (ask-handler.ts), with the same body and query parsers and the same CORS
 * headers; anything else goes to Fastify.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AskHandler } from './ask-handler';
import { decodeBody, parseRequestBody } from './body-parser';
import type { CorsPolicy, Headers } from './cors';
import { parseQueryString } from './query-string';

/**
 * The ask path with ids Fastify's router would take as they are (no percent-encoding, a robot id
 * within its 100-character parameter limit) and a query of characters that need no decoding.
 */
const PLAIN_ASK =
  /^(\/v1\/openapi\/tenants\/([1-9]\d{0,14})\/robots\/([A-Za-z0-9_-]{1,100})\/robot\/ask)\?([A-Za-z0-9_.~=&-]*)$/;
const MAX_BODY = 64 * 1024;
/**
 * Content-Types the lane reads as Fastify would (JSON, a browser's default text, a form); others,
 * valid or not, are Fastify's to judge.
 */
const PLAIN_TYPE =
  /^(?:application\/json|text\/plain|application\/x-www-form-urlencoded)(?:\s*;\s*charset=[\w-]+)?$/i;

/** How many requests the lane has taken (observability and tests). */
export const fastLaneStats = { taken: 0 };

function send(res: ServerResponse, status: number, body: unknown, headers: Headers): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

/**
 * Returns the request handler's front: true when the lane took the request (and answers it),
 * false when Fastify must.
 */
export function askFastLane(
  handle: AskHandler,
  cors: CorsPolicy,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'POST' || req.headers['transfer-encoding'] !== undefined) return false;
    const length = Number(req.headers['content-length']);
    if (!(length >= 0 && length <= MAX_BODY)) return false;
    const type = req.headers['content-type'];
    if (type !== undefined && !PLAIN_TYPE.test(type)) return false;
    const match = PLAIN_ASK.exec(req.url ?? '');
    if (!match) return false;
    const [, uri = '', tenantId = '', robotId = '', query = ''] = match;
    fastLaneStats.taken += 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const body = parseRequestBody(decodeBody(Buffer.concat(chunks)), type, true);
      void handle({ tenantId, robotId, uri, query: parseQueryString(query), body }).then((reply) =>
        send(res, reply.status, reply.body, cors.answerHeaders(req.headers.origin)),
      );
    });
    return true;
  };
}
