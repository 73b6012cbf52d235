/**
 * Bodies are JSON whatever their Content-Type says (curl's default form type included), so that
 * a client gets the same clear error for a bad body however it labels it. A body that is not
 * JSON is not rejected here: the contract checks the signature (401) before the body (400), so
 * the problem is carried to the route and raised after authentication.
 * @module
 */
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { ServiceError } from '../errors';

const MALFORMED = Symbol('malformed body');

interface MalformedBody {
  [MALFORMED]: string;
}

function isMalformed(body: unknown): body is MalformedBody {
  return typeof body === 'object' && body !== null && MALFORMED in body;
}

/**
 * A request body as the routes see it: undefined when empty (routes that need a body say so
 * through their schema), the parsed JSON, or a marker of malformed JSON raised after
 * authentication by `assertBodyWellFormed`.
 */
export function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    // Drops __proto__ and constructor keys: the body never reaches an object merge, but
    // nothing from a client should be able to reach a prototype either.
    return sjson.parse(text, null, { protoAction: 'remove', constructorAction: 'remove' });
  } catch (error) {
    return { [MALFORMED]: `The request body is not valid JSON (${(error as Error).message}).` };
  }
}

export function registerJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const parse: FastifyBodyParser<string> = (_request, text, done) => {
    done(null, parseBody(String(text)));
  };
  // The same parser twice: Fastify caches the parser it finds for a named type, but looks the
  // catch-all up again on every request (parsing the Content-Type header each time).
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, parse);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, parse);
}

/** Raises the deferred body error, once the request is authenticated. */
export function assertBodyWellFormed(body: unknown): void {
  if (isMalformed(body)) throw new ServiceError('malformed-json', body[MALFORMED]);
}
