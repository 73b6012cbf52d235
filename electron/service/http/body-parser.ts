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
import { SLICE_MS, mapInSlices, nextTurn } from '../time-slices';

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

/** `String.prototype.isWellFormed` (Node 20; not in TypeScript's ES2023 library). */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** The message of a form body that is not UTF-8 (raised as `invalid-field`). */
const NOT_UTF8 = 'The request body is not valid UTF-8 text.';

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

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Whether `bytes[at]` is a UTF-8 continuation byte between `low` and `high`. */
function continues(bytes: Uint8Array, at: number, low = 0x80, high = 0xbf): boolean {
  const byte = bytes[at];
  return byte !== undefined && byte >= low && byte <= high;
}

/** The length of the well-formed UTF-8 sequence at `bytes[i]`, or 0 when it is not one. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] ?? 0;
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return continues(bytes, i + 1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // No overlong forms (E0 80–9F) and no encoded surrogates (ED A0–BF).
    const low = lead === 0xe0 ? 0xa0 : 0x80;
    const high = lead === 0xed ? 0x9f : 0xbf;
    return continues(bytes, i + 1, low, high) && continues(bytes, i + 2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xf4 ? 0x8f : 0xbf;
    return continues(bytes, i + 1, low, high) && continues(bytes, i + 2) && continues(bytes, i + 3)
      ? 4
      : 0;
  }
  return 0;
}

/**
 * A body's bytes as text. Bytes that are not UTF-8 are not replaced by U+FFFD (two different
 * names would become one): each becomes a lone surrogate (U+DC80–U+DCFF, as Python's
 * `surrogateescape`), which validation refuses as it refuses `\udc80` in JSON, with 400
 * `invalid-field` naming the field (validation/well-formed.ts). Outside a string the JSON
 * does not parse: 400 `malformed-json`.
 */
export function decodeBody(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    // Not UTF-8: the rare case, decoded sequence by sequence.
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts: string[] = [];
  let runStart = 0;
  let i = 0;
  while (i < buffer.length) {
    const length = sequenceLength(buffer, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (runStart < i) parts.push(buffer.toString('utf8', runStart, i));
    parts.push(String.fromCharCode(0xdc00 + (buffer[i] ?? 0)));
    i += 1;
    runStart = i;
  }
  if (runStart < buffer.length) parts.push(buffer.toString('utf8', runStart));
  return parts.join('');
}

/** Bodies from this length on are parsed in slices (`parseBodyInSlices`). */
const SLICED_BODY_CHARS = 64 * 1024;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COMMA = 44;

function isJsonSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/**
 * Where each element of the top-level JSON array in `text` starts and ends, or null when the
 * text is not one array whose elements can be told apart this way (then it is parsed whole,
 * which also gives the error of a malformed body). Scans a slice of text per turn of the event
 * loop.
 */
async function arrayElements(text: string): Promise<[number, number][] | null> {
  let i = 0;
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== OPEN_BRACKET) return null;
  i++;
  const elements: [number, number][] = [];
  let start = -1;
  let depth = 0;
  let inString = false;
  let sliceStart = performance.now();
  for (; i < text.length; i++) {
    if ((i & 0x3fff) === 0 && performance.now() - sliceStart >= SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (start < 0 && !isJsonSpace(code)) start = i;
    if (code === QUOTE) inString = true;
    else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if (code === CLOSE_BRACE || (code === CLOSE_BRACKET && depth > 0)) depth--;
    else if (depth === 0 && (code === COMMA || code === CLOSE_BRACKET)) {
      // `start === i`: no element before this delimiter, allowed only as `[]`.
      const empty = start === i;
      if (empty && !(code === CLOSE_BRACKET && elements.length === 0)) return null;
      if (!empty) elements.push([start, i]);
      start = -1;
      if (code === CLOSE_BRACKET) break;
    }
  }
  if (i >= text.length) return null;
  for (i++; i < text.length; i++) if (!isJsonSpace(text.charCodeAt(i))) return null;
  return elements;
}

/**
 * `parseBody`, for a long body a slice at a time: a batch import's half a megabyte of JSON,
 * parsed in one go, holds up the questions asked meanwhile. An array is parsed element by
 * element with turns of the event loop between slices; anything else, and any body that does
 * not parse that way, is parsed whole (same result, same error).
 */
export async function parseBodyInSlices(text: string): Promise<unknown> {
  if (text.length < SLICED_BODY_CHARS) return parseBody(text);
  const elements = await arrayElements(text);
  if (!elements) return parseBody(text);
  try {
    return await mapInSlices(elements, ([start, end]) =>
      sjson.parse(text.slice(start, end), null, {
        protoAction: 'remove',
        constructorAction: 'remove',
      }),
    );
  } catch {
    return parseBody(text);
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
  // URLSearchParams would turn bytes that are not UTF-8 into U+FFFD.
  if (!isWellFormed(text)) return { [MALFORMED]: NOT_UTF8 };
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
  // Bodies arrive as bytes: Fastify's `parseAs: 'string'` would replace what is not UTF-8.
  const parse: FastifyBodyParser<Buffer> = (_request, bytes, done) => {
    void parseBodyInSlices(decodeBody(bytes)).then((body) => done(null, body));
  };
  const parseForm: FastifyBodyParser<Buffer> = (request, bytes, done) => {
    const text = decodeBody(bytes);
    done(
      null,
      request.routeOptions.config.formBody === true ? parseFormBody(text) : parseBody(text),
    );
  };
  // The same parser twice: Fastify caches the parser it finds for a named type, but looks the
  // catch-all up again on every request (parsing the Content-Type header each time).
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, parse);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer', bodyLimit },
    parseForm,
  );
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, parse);
}

/** Raises the deferred body error, once the request is authenticated. */
export function assertBodyWellFormed(body: unknown): void {
  if (!isMalformed(body)) return;
  const message = body[MALFORMED];
  throw new ServiceError(message === NOT_UTF8 ? 'invalid-field' : 'malformed-json', message);
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
