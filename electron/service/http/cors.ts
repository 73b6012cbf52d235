/**
 * Cross-origin access to the openapi routes (contract.md, "Browsers and body encodings"): they
 * answer CORS preflights and carry `Access-Control-Allow-Origin`, so that a web page on another
 * origin can call them. By default any origin: the routes are signed and the secrets never travel.
 * The console API (the editor's) stays same-origin: it never carries these headers.
 * @module
 */

/** `*` (any origin), or the exact origins allowed (`https://shop.example.com`). */
export type CorsOrigins = '*' | readonly string[];

export const OPENAPI_PREFIX = '/v1/openapi/';

const ALLOWED_METHODS = 'GET, POST, PUT';
/** How long a browser may keep a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_S = '600';
/** A comma-separated list of header names, as `Access-Control-Request-Headers` sends it. */
const HEADER_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:\s*,\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

export type Headers = Record<string, string>;

export interface CorsPolicy {
  /** Headers of an answer to a request from `origin` (none when it is not allowed). */
  answerHeaders(origin: string | undefined): Headers;
  /** Headers of the answer to a preflight. */
  preflightHeaders(origin: string | undefined, requestHeaders: string | undefined): Headers;
}

/**
 * Reads the allowed origins from a `--cors-origins` or `KB_CORS_ORIGINS` value: `*`, or origins
 * separated by commas. Throws on an origin that is not `scheme://host[:port]`.
 */
export function parseCorsOrigins(value: string): CorsOrigins {
  const trimmed = value.trim();
  if (trimmed === '*' || trimmed === '') return '*';
  return trimmed.split(',').map((item) => {
    const origin = item.trim();
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // reported below
    }
    if (!parsed || parsed.origin !== origin) {
      throw new Error(
        `${origin} is not an origin: write scheme://host[:port], such as https://shop.example.com, with no path or trailing slash.`,
      );
    }
    return origin;
  });
}

export function corsPolicy(origins: CorsOrigins): CorsPolicy {
  const anyOrigin: Headers = { 'access-control-allow-origin': '*' };
  const allowed = origins === '*' ? null : new Set(origins);
  const answerHeaders = (origin: string | undefined): Headers => {
    if (!allowed) return anyOrigin;
    // The answer depends on the request's Origin: caches must keep one per origin.
    if (origin === undefined || !allowed.has(origin)) return { vary: 'Origin' };
    return { 'access-control-allow-origin': origin, vary: 'Origin' };
  };
  return {
    answerHeaders,
    preflightHeaders(origin, requestHeaders) {
      const headers = answerHeaders(origin);
      if (!('access-control-allow-origin' in headers)) return headers;
      return {
        ...headers,
        'access-control-allow-methods': ALLOWED_METHODS,
        // Any request headers: nothing in them is trusted (the signature is in the query).
        'access-control-allow-headers':
          requestHeaders !== undefined && HEADER_LIST.test(requestHeaders)
            ? requestHeaders
            : 'Content-Type',
        'access-control-max-age': PREFLIGHT_MAX_AGE_S,
      };
    },
  };
}

/** Whether a request path (before `?`) is one of the openapi routes'. */
export function isOpenApiPath(url: string): boolean {
  return url.startsWith(OPENAPI_PREFIX);
}
