/**
 * One query-string parser for every entrance (Fastify's routes and the ask fast lane): a
 * repeated key gives an array, `key` alone an empty string, percent-encoding decoded.
 * @module
 */
import { parse } from 'node:querystring';

export function parseQueryString(query: string): Record<string, string | string[]> {
  return parse(query) as Record<string, string | string[]>;
}
