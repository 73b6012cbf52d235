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

export function registerJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const parse: FastifyBodyParser<string> = (_request, text, done) => {
    const body = String(text);
    if (body.trim() === '') {
      // No body at all: routes that need one say so through their schema ("must be an object").
      done(null, undefined);
      return;
    }
    try {
      // Drops __proto__ and constructor keys: the body never reaches an object merge, but
      // nothing from a client should be able to reach a prototype either.
      done(null, sjson.parse(body, null, { protoAction: 'remove', constructorAction: 'remove' }));
    } catch (error) {
      done(null, {
        [MALFORMED]: `The request body is not valid JSON (${(error as Error).message}).`,
      });
    }
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
