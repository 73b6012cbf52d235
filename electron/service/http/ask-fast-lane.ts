/**
 * The ask route for plain requests, answered before Fastify's request pipeline: a signed ask is
 * small and needs none of routing, request and reply objects, hooks or content-type lookup, which
 * together cost as much as the work itself. The lane takes only requests whose every part is of
 * the plain kind (the path's ids, the query's characters, a Content-Length of at most 64 KiB, no
 * Transfer-Encoding); anything else goes to Fastify's route, which stays the reference. Both run
 * the same steps in the contract's order with the same functions: signature and robot
 * (auth/verify.ts), deferred body error (body-parser.ts), body schema (the route's Ajv
 * validator), ask (domain/ask.ts), envelopes and error mapping (app.ts).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ValidateFunction } from 'ajv';
import { verifySignedRequest } from '../auth/verify';
import type { VerifierDeps } from '../auth/verify';
import { ask } from '../domain/ask';
import type { DomainContext } from '../domain/context';
import { requireRobot } from '../domain/robots';
import { assertBodyWellFormed, parseBody } from './body-parser';
import { success } from './envelope';
import { parseTenantId } from './path-params';

/**
 * The ask path with ids Fastify's router would take as they are (no percent-encoding, a robot id
 * within its 100-character parameter limit) and a query of characters that need no decoding.
 */
const PLAIN_ASK =
  /^\/v1\/openapi\/tenants\/([1-9]\d{0,14})\/robots\/([A-Za-z0-9_-]{1,100})\/robot\/ask\?([A-Za-z0-9_.~=&-]*)$/;
const MAX_BODY = 64 * 1024;

/** How many requests the lane has taken (observability and tests). */
export const fastLaneStats = { taken: 0 };

export interface FastLaneDeps {
  ctx: DomainContext;
  verifier: VerifierDeps;
  /** The ask route's body validator. */
  validateBody: ValidateFunction;
  /** Status and envelope of a failure (app.ts); null for an unexpected one. */
  failureOf(error: Error): { status: number; body: unknown } | null;
  unexpected: unknown;
}

/** As Fastify's query parser has it: a repeated key gives an array, `key` alone an empty string. */
function parseQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, never>;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    const known = out[key];
    if (known === undefined) out[key] = value;
    else if (Array.isArray(known)) known.push(value);
    else out[key] = [known, value];
  }
  return out;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
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
  deps: FastLaneDeps,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'POST' || req.headers['transfer-encoding'] !== undefined) return false;
    const length = Number(req.headers['content-length']);
    if (!(length >= 0 && length <= MAX_BODY)) return false;
    const match = PLAIN_ASK.exec(req.url ?? '');
    if (!match) return false;
    const [, tenantId = '', robotId = '', query = ''] = match;
    const uri = (req.url ?? '').slice(0, (req.url ?? '').indexOf('?'));
    fastLaneStats.taken += 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      try {
        const body = parseBody(Buffer.concat(chunks).toString('utf8'));
        let robot = null as ReturnType<typeof requireRobot> | null;
        verifySignedRequest(deps.verifier, 2, { query: parseQuery(query), uri }, () => {
          robot = requireRobot(deps.ctx, parseTenantId(tenantId), robotId);
          return robot.secret;
        });
        assertBodyWellFormed(body);
        // Fastify validates a missing body as null.
        if (!deps.validateBody(body === undefined ? null : body)) {
          throw Object.assign(new Error('body validation'), {
            validation: deps.validateBody.errors ?? [],
            validationContext: 'body',
          });
        }
        if (!robot) throw new Error('ask reached without a resolved robot');
        const { question } = body as { question: string };
        send(res, 200, success(ask(deps.ctx, robot, question).result));
      } catch (error) {
        const known = deps.failureOf(error as Error);
        if (known) {
          send(res, known.status, known.body);
          return;
        }
        deps.ctx.logger.error(`unexpected fault on POST ${uri}`, error);
        send(res, 500, deps.unexpected);
      }
    });
    return true;
  };
}
