/**
 * A robot bundle read as it arrives (domain/robot-bundles.ts): the JSON is tokenized by
 * stream-json, the `rules` array handed over one rule at a time, everything else of the bundle
 * (its name and settings, categories, test cases: small) assembled whole. A bundle of 100 MB is
 * never one string nor one object in memory, and a slice of the event loop is given back every
 * `SLICE_MS`, so the questions asked meanwhile wait for one slice, not the whole bundle.
 * @module
 */
import { once } from 'node:events';
import { parserStream } from 'stream-json';
import type { Token } from 'stream-json/parser.js';
import Assembler from 'stream-json/assembler.js';
import { ServiceError } from '../errors';
import { SLICE_MS, nextTurn } from '../time-slices';

/** The top-level fields assembled whole; any other is skipped unread. */
const HEAD_FIELDS = new Set(['format', 'version', 'robot', 'categories', 'testCases']);

/** The bundle but its rules: the top-level fields it has, assembled. */
export interface BundleHead {
  fields: Record<string, unknown>;
  /** Whether the document had a `rules` array (its elements went to `onRule`). */
  hasRules: boolean;
}

/** Called for each rule in order; awaited before the next is read (so writes hold the reading). */
export type RuleSink = (rule: unknown, index: number) => void | Promise<void>;

function malformed(detail: string): ServiceError {
  return new ServiceError('malformed-json', `The request body is not valid JSON (${detail}).`);
}

/** The text of the body's bytes, chunk by chunk; bytes that are not UTF-8 are refused. */
async function* textOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
    yield decoder.decode();
  } catch (error) {
    if (error instanceof TypeError) {
      throw new ServiceError('invalid-field', 'The request body is not valid UTF-8 text.');
    }
    throw error;
  }
}

/**
 * Reads a bundle from its bytes: each element of the top-level `rules` array to `onRule`, the
 * other fields into the head. Refuses a body that is not one JSON object (400 `malformed-json`),
 * a top-level field given twice and more rules than `maxRules` (400 `invalid-field`).
 */
export async function readBundle(
  chunks: AsyncIterable<Uint8Array>,
  onRule: RuleSink,
  maxRules: number,
): Promise<BundleHead> {
  const tokens = parserStream({ streamValues: false });
  // Fed as the bytes arrive, no faster than read; an error of the source (bytes not UTF-8, a
  // connection lost) reaches the loop below through the parser.
  void (async () => {
    for await (const text of textOf(chunks)) {
      if (tokens.destroyed) return;
      if (!tokens.write(text)) await once(tokens, 'drain');
    }
    tokens.end();
  })().catch((error: unknown) => tokens.destroy(error instanceof Error ? error : undefined));
  let sinkError: unknown;
  const fields: Record<string, unknown> = {};
  const seen = new Set<string>();
  let hasRules = false;
  let depth = 0;
  let key: string | null = null;
  /** What the tokens at depth ≥ 1 go to: a field assembled, a rule, or nothing (skipped). */
  let target: { asm: Assembler; field: string | null } | null = null;
  let inRules = false;
  let rules = 0;
  let sliceStart = performance.now();
  let started = false;
  try {
    for await (const item of tokens) {
      const token: Token = item;
      if (performance.now() - sliceStart >= SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
      if (!started) {
        if (token.name !== 'startObject') throw malformed('a robot bundle is a JSON object');
        started = true;
        depth = 1;
        continue;
      }
      const opens = token.name === 'startObject' || token.name === 'startArray';
      const closes = token.name === 'endObject' || token.name === 'endArray';
      if (depth === 1 && key === null) {
        // Between the bundle's fields: a key, or the bundle's end.
        if (token.name === 'keyValue') {
          const name = token.value;
          if (seen.has(name)) {
            throw new ServiceError(
              'invalid-field',
              `The bundle has the field ${name} twice.`,
              name,
            );
          }
          seen.add(name);
          key = name;
        } else if (token.name === 'endObject') depth = 0;
        continue;
      }
      if (depth === 1 && key === 'rules' && token.name === 'startArray' && !inRules) {
        inRules = true;
        hasRules = true;
        depth = 2;
        continue;
      }
      if (inRules && depth === 2 && target === null) {
        if (token.name === 'endArray') {
          inRules = false;
          depth = 1;
          key = null;
          continue;
        }
        rules += 1;
        if (rules > maxRules) {
          throw new ServiceError(
            'invalid-field',
            `rules must NOT have more than ${maxRules} items. Nothing was imported.`,
            'rules',
            { keyword: 'maxItems', params: { limit: maxRules } },
          );
        }
        target = { asm: new Assembler(), field: null };
      }
      if (depth === 1 && target === null) {
        // The value of a field: assembled when the head needs it, else skipped ('').
        const field = key === 'rules' || HEAD_FIELDS.has(key ?? '') ? (key ?? '') : '';
        target = { asm: new Assembler(), field };
      }
      if (!target) continue;
      if (target.field !== '') target.asm.consume(token);
      if (opens) depth += 1;
      else if (closes) depth -= 1;
      const valueDepth = inRules ? 2 : 1;
      if (depth > valueDepth) continue;
      // The value is complete.
      const value = target.asm.current;
      if (inRules) {
        try {
          await onRule(value, rules - 1);
        } catch (error) {
          sinkError = error;
          throw error;
        }
      } else {
        if (target.field) fields[target.field] = value;
        key = null;
      }
      target = null;
    }
  } catch (error) {
    tokens.destroy();
    if (error === sinkError || error instanceof ServiceError) throw error;
    throw malformed(error instanceof Error ? error.message : String(error));
  }
  if (!started || depth !== 0) throw malformed('the body ends before the bundle does');
  return { fields, hasRules };
}
