/**
 * Request bodies. Bodies are JSON whatever their Content-Type says (curl's default form type
 * included), so that a client gets the same clear error for a bad body however it labels it;
 * except that a route whose body is one flat object (ask, register, add and update
 * administrator, create robot) also reads `application/x-www-form-urlencoded` bodies, as fields
 * of strings (contract.md, "Browsers and body encodings"). A body that cannot be read is not
 * rejected here: the contract checks the signature (401) before the body (400), so the problem is
 * carried to the route and raised after authentication.
 * @module
 */
import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { ServiceError } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body is one flat object: a form-encoded body is read as its fields. */
    formBody?: boolean;
  }
}

const MALFORMED = Symbol('malformed body');

interface MalformedBody {
  [MALFORMED]: string;
}

function isMalformed(body: unknown): body is MalformedBody {
  return typeof body === 'object' && body !== null && MALFORMED in body;
}

/**
 * A JSON body as the routes see it: undefined when empty (`assertBodyPresent` says what was
 * needed), the parsed JSON, or a marker of malformed JSON raised after authentication by
 * `assertBodyWellFormed`.
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

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(?:;|$)/i;

/** Whether a Content-Type header names a form-encoded body. */
export function isFormType(contentType: string | undefined): boolean {
  return contentType !== undefined && FORM_TYPE.test(contentType);
}

/**
 * A form-encoded body as an object of strings (a field given twice is an array of them, which
 * validation refuses as it would in JSON). Text that opens like JSON is read as JSON: `curl -d`
 * labels every body as a form unless told otherwise, and no form field begins with `{` or `[`.
 */
export function parseFormBody(text: string): unknown {
  const start = text.trimStart()[0];
  if (start === undefined) return undefined;
  if (start === '{' || start === '[') return parseBody(text);
  const fields: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (key === '__proto__') continue;
    const held = fields[key];
    fields[key] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
  }
  return fields;
}

/** The body of a request with this Content-Type, on a route that reads forms or not. */
export function parseRequestBody(
  text: string,
  contentType: string | undefined,
  formBody: boolean,
): unknown {
  return formBody && isFormType(contentType) ? parseFormBody(text) : parseBody(text);
}

export function registerBodyParsers(app: FastifyInstance, bodyLimit: number): void {
  app.removeAllContentTypeParsers();
  const parse: FastifyBodyParser<string> = (_request, text, done) => {
    done(null, parseBody(String(text)));
  };
  const parseForm: FastifyBodyParser<string> = (request, text, done) => {
    done(
      null,
      request.routeOptions.config.formBody === true
        ? parseFormBody(String(text))
        : parseBody(String(text)),
    );
  };
  // The same parser twice: Fastify caches the parser it finds for a named type, but looks the
  // catch-all up again on every request (parsing the Content-Type header each time).
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, parse);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    parseForm,
  );
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit }, parse);
}

/** Raises the deferred body error, once the request is authenticated. */
export function assertBodyWellFormed(body: unknown): void {
  if (isMalformed(body)) throw new ServiceError('malformed-json', body[MALFORMED]);
}

/**
 * Refuses an empty body where the route needs one, saying what it needs (`expected`, such as
 * "a JSON object with userId, question, channel and questionType").
 */
export function assertBodyPresent(body: unknown, expected: string): void {
  if (body === undefined) {
    throw new ServiceError('malformed-json', `The request body is empty: send ${expected}.`);
  }
}
