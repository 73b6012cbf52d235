/**
 * A robot bundle read as it arrives (domain/robot-bundles.ts): the JSON is tokenized by
 * stream-json's parser, the `rules` array handed over one rule at a time, everything else of
 * the bundle (its name and settings, categories, test cases: small) assembled whole. A bundle of
 * 100 MB is never one string nor one object in memory, and the event loop gets a turn every
 * `SLICE_MS`, so the questions asked meanwhile wait for one slice, not the whole bundle.
 * @module
 */
import Assembler from 'stream-json/assembler.js';
import { jsonParser } from 'stream-json/core/parser.js';
import type { Token } from 'stream-json/core/parser.js';
import { ServiceError } from '../errors';
import { SLICE_MS, nextTurn } from '../time-slices';

/** The top-level fields assembled whole; any other is skipped unread. */
const HEAD_FIELDS = new Set(['format', 'version', 'robot', 'categories', 'testCases', 'rules']);

/** Text given to the tokenizer at once: a few milliseconds of its work at most. */
const TEXT_SLICE = 16 * 1024;

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
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw new ServiceError('invalid-field', 'The request body is not valid UTF-8 text.');
    }
  };
  for await (const chunk of chunks) yield decode(chunk);
  yield decode();
}

/**
 * The bundle's tokens, one at a time, as a state machine: which top-level field a token is
 * part of, and when a rule or a field is complete.
 */
class BundleTokens {
  readonly fields: Record<string, unknown> = {};
  hasRules = false;
  rules = 0;
  /** 0 before the bundle's `{` and after its `}`. */
  depth = 0;
  started = false;
  private readonly seen = new Set<string>();
  private key: string | null = null;
  private inRules = false;
  /** The value being read: assembled, or skipped (`asm` null). */
  private value: { asm: Assembler | null } | null = null;

  constructor(private readonly maxRules: number) {}

  /** Takes a token; returns a rule when one is complete, else undefined. */
  push(token: Token): { rule: unknown } | undefined {
    if (!this.started) {
      if (token.name !== 'startObject') throw malformed('a robot bundle is a JSON object');
      this.started = true;
      this.depth = 1;
      return undefined;
    }
    if (this.depth === 0) return undefined;
    if (this.depth === 1 && this.key === null) {
      // Between the bundle's fields: a key, or the bundle's end.
      if (token.name === 'keyValue') this.startField(token.value);
      else if (token.name === 'endObject') this.depth = 0;
      return undefined;
    }
    if (this.depth === 1 && this.key === 'rules' && token.name === 'startArray') {
      if (!this.inRules && !this.hasRules) {
        this.inRules = true;
        this.hasRules = true;
        this.depth = 2;
        return undefined;
      }
    }
    if (this.inRules && this.depth === 2 && this.value === null) {
      if (token.name === 'endArray') {
        this.inRules = false;
        this.depth = 1;
        this.key = null;
        return undefined;
      }
      this.rules += 1;
      if (this.rules > this.maxRules) {
        throw new ServiceError(
          'invalid-field',
          `rules must NOT have more than ${this.maxRules} items. Nothing was imported.`,
          'rules',
          { keyword: 'maxItems', params: { limit: this.maxRules } },
        );
      }
      this.value = { asm: new Assembler() };
    }
    if (this.depth === 1 && this.value === null) {
      this.value = { asm: HEAD_FIELDS.has(this.key ?? '') ? new Assembler() : null };
    }
    const value = this.value;
    if (!value) return undefined;
    value.asm?.consume(token);
    if (token.name === 'startObject' || token.name === 'startArray') this.depth += 1;
    else if (token.name === 'endObject' || token.name === 'endArray') this.depth -= 1;
    if (this.depth > (this.inRules ? 2 : 1)) return undefined;
    // The value is complete.
    this.value = null;
    if (this.inRules) return { rule: value.asm?.current };
    if (value.asm && this.key !== null) this.fields[this.key] = value.asm.current;
    this.key = null;
    return undefined;
  }

  private startField(name: string): void {
    if (this.seen.has(name)) {
      throw new ServiceError('invalid-field', `The bundle has the field ${name} twice.`, name);
    }
    this.seen.add(name);
    this.key = name;
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
  const tokenize = jsonParser({ streamValues: false });
  const state = new BundleTokens(maxRules);
  let sliceStart = performance.now();
  let empty = true;
  for await (const text of textOf(chunks)) {
    for (let at = 0; at < text.length; at += TEXT_SLICE) {
      if (empty && text.trim() !== '') empty = false;
      let out: ReturnType<typeof tokenize>;
      try {
        out = tokenize(text.slice(at, at + TEXT_SLICE));
      } catch (error) {
        throw malformed(error instanceof Error ? error.message : String(error));
      }
      if (typeof out === 'symbol') continue;
      for (const token of out.values) {
        const done = state.push(token);
        if (done) await onRule(done.rule, state.rules - 1);
      }
      if (performance.now() - sliceStart >= SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
    }
  }
  if (empty) {
    throw new ServiceError(
      'malformed-json',
      'The request body is empty: send a robot bundle (a JSON object with format, version, robot, categories, rules and testCases).',
    );
  }
  if (!state.started || state.depth !== 0) {
    throw malformed('the body ends before the bundle does');
  }
  return { fields: state.fields, hasRules: state.hasRules };
}
