/**
 * The messages between an impact preview on the event loop (impact-thread.ts) and its worker
 * thread (impact-worker.ts), and the guards that read them back.
 * @module
 */
import type { MatchSettings } from '../matching/types';
import type { StoredRule } from '../store/contract/records';
import type { Comparison, ExamplePositions } from './impact-compare';
import type { Outcome } from './impact-outcome';
import { IMPACT_KINDS } from '../publishing-types';

/** What the worker rebuilds the replay's filter from (impact-bound.ts's `ReplayPlan`). */
export interface PlanSource {
  synonyms: readonly (readonly string[])[];
  rules: readonly Pick<StoredRule, 'ruleName' | 'questions'>[];
  answers: readonly string[];
}

export interface ReplayStart {
  /** Each side's saved index (matching's `writeRobotIndex`), in pieces of shared memory. */
  sides: [Uint8Array[], Uint8Array[]];
  /** Null: every question is asked of both sides. */
  plan: PlanSource | null;
  /** The rules whose answer text differs (impact-compare.ts's `answerDiffers`). */
  differs: string[];
  at: number;
  settings: MatchSettings;
  /** Questions that will be sent to this worker (its share of them). */
  total: number;
  /**
   * Only the `from` side is asked, its outcomes learned, nothing counted (impact-warm.ts): the
   * second side's pieces are empty, the first is opened once.
   */
  warm?: boolean;
}

/**
 * Outcomes of the `from` side, one per question (impact-from-cache.ts): each question's kind
 * (OUTCOME_KINDS' index + 1, 0 where unknown) and the rule that answered ('' but for BESTMATCH).
 */
export interface Outcomes {
  kinds: Uint8Array;
  rules: string[];
}

/** The kinds of an outcome, by their code in `Outcomes` (minus 1). */
const OUTCOME_KINDS: readonly Outcome['kind'][] = ['none', 'recommend', 'bestmatch'];

/** `outcomes` (undefined where unknown) as a message carries them. */
export function packOutcomes(outcomes: readonly (Outcome | undefined)[]): Outcomes {
  const kinds = new Uint8Array(outcomes.length);
  const rules = outcomes.map((outcome, i) => {
    if (outcome === undefined) return '';
    kinds[i] = OUTCOME_KINDS.indexOf(outcome.kind) + 1;
    return outcome.ruleId ?? '';
  });
  return { kinds, rules };
}

/** The `i`th outcome of `packed`, undefined where unknown. */
export function unpackOutcome(packed: Outcomes, i: number): Outcome | undefined {
  const kind = OUTCOME_KINDS[(packed.kinds[i] ?? 0) - 1];
  if (kind === undefined) return undefined;
  return { kind, ruleId: kind === 'bestmatch' ? (packed.rules[i] ?? '') : null };
}

export type ToWorker =
  | ({ type: 'start' } & ReplayStart)
  /**
   * `from`: the first question's place among all those replayed (the examples' order);
   * `known`: the `from` side's outcomes already known, one per text.
   */
  | { type: 'questions'; texts: string[]; asks: Float64Array; from: number; known: Outcomes };

/** The `from` side's outcomes a worker worked out, by the questions' places among all replayed. */
export interface Learned extends Outcomes {
  positions: Int32Array;
}

export type FromWorker =
  /** `nice`: the worker's niceness, null when it could not lower it (not Linux). */
  | { type: 'ready'; nice: number | null }
  | { type: 'progress'; done: number }
  | { type: 'done'; comparison: Comparison; positions: ExamplePositions; learned: Learned }
  | { type: 'failed'; message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

const isPieces = (value: unknown): value is Uint8Array[] =>
  Array.isArray(value) && value.every((piece) => piece instanceof Uint8Array);

function isPlan(value: unknown): value is PlanSource | null {
  if (value === null) return true;
  return (
    isObject(value) &&
    Array.isArray(value['synonyms']) &&
    value['synonyms'].every(isStrings) &&
    Array.isArray(value['rules']) &&
    value['rules'].every(
      (rule) =>
        isObject(rule) && typeof rule['ruleName'] === 'string' && isStrings(rule['questions']),
    ) &&
    isStrings(value['answers'])
  );
}

function isSettings(value: unknown): value is MatchSettings {
  return (
    isObject(value) &&
    ['bestmatchThreshold', 'recommendThreshold', 'margin', 'maxRecommend'].every(
      (key) => typeof value[key] === 'number',
    )
  );
}

function isStart(value: unknown): value is { type: 'start' } & ReplayStart {
  if (!isObject(value)) return false;
  const sides = value['sides'];
  return (
    value['type'] === 'start' &&
    Array.isArray(sides) &&
    sides.length === 2 &&
    sides.every(isPieces) &&
    isPlan(value['plan']) &&
    isStrings(value['differs']) &&
    typeof value['at'] === 'number' &&
    isSettings(value['settings']) &&
    typeof value['total'] === 'number' &&
    (value['warm'] === undefined || typeof value['warm'] === 'boolean')
  );
}

/** A message to the worker, or null when it is not one. */
export function toWorker(data: unknown): ToWorker | null {
  if (!isObject(data)) return null;
  if (isStart(data)) return data;
  if (
    data['type'] === 'questions' &&
    isStrings(data['texts']) &&
    data['asks'] instanceof Float64Array &&
    typeof data['from'] === 'number' &&
    isOutcomes(data['known'])
  )
    return {
      type: 'questions',
      texts: data['texts'],
      asks: data['asks'],
      from: data['from'],
      known: data['known'],
    };
  return null;
}

const isOutcomes = (value: unknown): value is Outcomes =>
  isObject(value) &&
  value['kinds'] instanceof Uint8Array &&
  isStrings(value['rules']) &&
  value['rules'].length === value['kinds'].length;

const isLearned = (value: unknown): value is Learned =>
  isOutcomes(value) &&
  (value as { positions?: unknown }).positions instanceof Int32Array &&
  (value as Learned).positions.length === value.kinds.length;

function isComparison(value: unknown): value is Comparison {
  return (
    isObject(value) &&
    isObject(value['kinds']) &&
    typeof value['matched'] === 'number' &&
    typeof value['fromAsked'] === 'number' &&
    typeof value['replayedAsks'] === 'number'
  );
}

const isPositions = (value: unknown): value is ExamplePositions =>
  isObject(value) &&
  IMPACT_KINDS.every(
    (kind) => Array.isArray(value[kind]) && value[kind].every((item) => typeof item === 'number'),
  );

/** A message from the worker, or null when it is not one. */
export function fromWorker(data: unknown): FromWorker | null {
  if (!isObject(data)) return null;
  const { type } = data;
  if (type === 'ready' && (data['nice'] === null || typeof data['nice'] === 'number'))
    return { type, nice: data['nice'] };
  if (type === 'progress' && typeof data['done'] === 'number') return { type, done: data['done'] };
  if (
    type === 'done' &&
    isComparison(data['comparison']) &&
    isPositions(data['positions']) &&
    isLearned(data['learned'])
  )
    return {
      type,
      comparison: data['comparison'],
      positions: data['positions'],
      learned: data['learned'],
    };
  if (type === 'failed' && typeof data['message'] === 'string')
    return { type, message: data['message'] };
  return null;
}
