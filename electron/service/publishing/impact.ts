/**
 * What a publish changes for customers: the robot's logged questions of the last days (distinct,
 * weighted by how often they were asked) asked again of two targets (draft, published, a
 * version) with the matcher the openapi uses, and counted by how their answer changes — newly
 * answered, newly unanswered, another rule, another answer (same rule, its answer text changed).
 * Read a slice of the log at a time and replayed in time slices (time-slices.ts), so the asks
 * arriving meanwhile are answered within a slice (docs/publishing.md).
 * @module
 */
import type { ImpactReport } from '../publishing-types';
import type { LoggedQuestion } from '../question-log-types';
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import { ServiceError } from '../errors';
import { normalizeText } from '../matching/normalize';
import type { RobotIndex } from '../matching/types';
import type { RobotKey, StoredRule } from '../store/contract/records';
import { DAY_MS } from '../store/contract/question-log';
import { SLICE_MS, forEachInSlices, nextTurn } from '../time-slices';
import { calibrationSettled } from './calibration-wait';
import { ReplayPlan, changesBetween } from './impact-bound';
import { ImpactTally, QuestionReplay, answerDiffers, nameExamples } from './impact-compare';
import type {
  Comparison,
  ImpactSide,
  ImpactWatch,
  Replay,
  ReplayedQuestion,
} from './impact-compare';
import { fromOutcomesFor } from './impact-from-cache';
import { ReachableQuestions, foundByText } from './impact-reach';
import { compareOnWorker } from './impact-thread';
import type { WorkerOptions } from './impact-thread';
import { rulesOf, withTargetIndex } from './targets';
import type { TargetIndex } from './targets';
import type { Target } from './targets';

/** The question log's entries since `from` (ms, within its retention), a slice at a time. */
export type LoggedAsks = (
  robot: RobotKey,
  from: number,
) => AsyncIterable<readonly LoggedQuestion[]>;

/** Distinct questions replayed at most, the most asked first (the rest are counted, not asked). */
export const IMPACT_CAP = 100_000;
export { IMPACT_EXAMPLES } from './impact-compare';
export type { Comparison, ImpactSide, ImpactWatch, Replay } from './impact-compare';
/** Days of the log read when none are given (and by the publish gate: "last week"). */
export const IMPACT_DAYS = 7;

export interface Distinct {
  text: string;
  asks: number;
  /** Asks of the spelling in `text` (the most asked spelling names the question). */
  best: number;
}

/** Whether a log entry is a customer's question: openapi asks, menu replies ("2") left out. */
const isCustomerQuestion = (entry: LoggedQuestion): boolean =>
  entry.source === 'api' && entry.menuEntry === null;

/**
 * The distinct customer questions since `from`, by the matcher's normalised text (the same
 * answer for each spelling), and how many asks there were. Counted by exact text first (cheap
 * per entry), then merged by normalised text once per distinct spelling.
 */
export async function distinctQuestions(
  asks: LoggedAsks,
  robot: RobotKey,
  from: number,
): Promise<{ total: number; distinct: Map<string, Distinct> }> {
  const spellings = new Map<string, number>();
  let total = 0;
  for await (const slice of asks(robot, from)) {
    await forEachInSlices(slice, (entry) => {
      if (!isCustomerQuestion(entry)) return;
      total++;
      spellings.set(entry.question, (spellings.get(entry.question) ?? 0) + 1);
    });
  }
  const distinct = new Map<string, Distinct>();
  await forEachInSlices([...spellings], ([text, count]) => {
    const key = normalizeText(text);
    const known = distinct.get(key);
    if (!known) distinct.set(key, { text, asks: count, best: count });
    else {
      known.asks += count;
      if (count > known.best) Object.assign(known, { text, best: count });
    }
  });
  return { total, distinct };
}

/**
 * The `cap` most asked questions (all of them when there are fewer), by buckets of ask counts:
 * linear, in slices, where a sort of a million questions would hold the event loop.
 */
export async function mostAsked(questions: readonly Distinct[], cap: number): Promise<Distinct[]> {
  if (questions.length <= cap) return [...questions];
  const byCount = new Map<number, Distinct[]>();
  await forEachInSlices(questions, (question) => {
    const bucket = byCount.get(question.asks);
    if (bucket) bucket.push(question);
    else byCount.set(question.asks, [question]);
  });
  const chosen: Distinct[] = [];
  for (const count of [...byCount.keys()].sort((a, b) => b - a)) {
    for (const question of byCount.get(count) as Distinct[]) {
      if (chosen.length === cap) return chosen;
      chosen.push(question);
    }
  }
  return chosen;
}

async function sideOf(
  ctx: DomainContext,
  robot: Robot,
  target: Target,
  { name, index }: TargetIndex,
): Promise<{ side: ImpactSide; stored: StoredRule[] }> {
  const stored = await rulesOf(ctx, robot, target);
  const rules = new Map<string, StoredRule>();
  await forEachInSlices(stored, (rule) => rules.set(rule.ruleId, rule));
  return { side: { name, index, rules }, stored };
}

const share = (asks: number, total: number): number =>
  total === 0 ? 0 : Math.round((asks / total) * 10_000) / 10_000;

const sameGroups = (a: RobotIndex, b: RobotIndex): boolean =>
  JSON.stringify(a.synonyms ?? []) === JSON.stringify(b.synonyms ?? []);

/**
 * The questions worth replaying between two sides: those a rule whose matchable form changed
 * can reach, or that a rule whose answer alone changed can answer (impact-bound.ts), or null
 * (every question) when something moves every answer: other synonyms, another calibration
 * offset, or a changed rule found by substring (decisions 94, 116).
 */
export async function reachOf(
  a: { index: RobotIndex; stored: readonly StoredRule[] },
  b: { index: RobotIndex; stored: readonly StoredRule[] },
): Promise<ReplayPlan | null> {
  if (!sameGroups(a.index, b.index)) return null;
  if ((a.index.calibration?.offset ?? 0) !== (b.index.calibration?.offset ?? 0)) return null;
  const changes = await changesBetween(a.stored, b.stored);
  if (changes.matchable.some(foundByText)) return null;
  const reach = new ReachableQuestions(a.index.synonyms ?? []);
  await forEachInSlices(changes.matchable, (rule) => reach.add(rule));
  return new ReplayPlan(reach, changes.answers);
}

/**
 * Questions to replay from which a preview runs on a worker thread (impact-thread.ts): below,
 * the loop's slices finish sooner than the indexes are written out and opened (decision 128).
 */
export const IMPACT_WORKER_MIN_QUESTIONS = 1000;

/** Where a replay runs: on a worker from `workerMinQuestions` questions (tests set 0). */
export interface ReplayOptions extends WorkerOptions {
  workerMinQuestions?: number;
}

/**
 * Asks `questions` of both sides (only those `reach` says may change, every one without it) and
 * counts how their answers change: on a worker thread past `workerMinQuestions` questions,
 * falling back to the loop's slices when the worker cannot be used.
 */
export async function compareSides(
  replay: Replay,
  watch: ImpactWatch = {},
  options: ReplayOptions = {},
): Promise<Comparison> {
  const count = replay.questions.length;
  if (count > 0 && count >= (options.workerMinQuestions ?? IMPACT_WORKER_MIN_QUESTIONS)) {
    const off = await compareOnWorker(replay, watch, options);
    if (off !== null) return off;
  }
  return compareInSlices(replay, watch);
}

/** `compareSides` on the event loop, in time slices (time-slices.ts). */
export async function compareInSlices(
  { a, b, questions, reach, at, settings, known, warm }: Replay,
  watch: ImpactWatch = {},
): Promise<Comparison> {
  const tally = new ImpactTally(await answerDiffers(a, b));
  const replay = new QuestionReplay(reach, a.index, b.index, at, settings, known ?? null, warm);
  let done = 0;
  while (done < questions.length) {
    // Thousands of questions asked twice must not hold up the openapi: a slice, then a turn.
    const sliceEnd = performance.now() + SLICE_MS;
    do {
      const position = done++;
      replay.replay(questions[position] as ReplayedQuestion, position, tally);
    } while (done < questions.length && performance.now() < sliceEnd);
    watch.progress?.(done, questions.length);
    if (done < questions.length) {
      await nextTurn();
      watch.signal?.throwIfAborted();
    }
  }
  // A change seen after the last slice (impact-jobs.ts) still makes the result stale.
  watch.signal?.throwIfAborted();
  return nameExamples(tally.result(), a, b);
}

export interface ImpactRequest {
  from: Target;
  to: Target;
  days: number;
  cap?: number;
}

/**
 * Replays the customers' questions of the last `days` days against `from` and `to`: only
 * those a rule that differs between them can reach. Without a question log every count is 0.
 */
export async function impactOf(
  ctx: DomainContext,
  asks: LoggedAsks | null,
  robot: Robot,
  request: ImpactRequest,
  watch: ImpactWatch = {},
  options: ReplayOptions = {},
): Promise<ImpactReport> {
  const started = performance.now();
  // Both sides' indexes are held for the whole replay: an old version's counts in the budget.
  return withTargetIndex(ctx, robot, request.from, (fromIndex) =>
    withTargetIndex(ctx, robot, request.to, async (toIndex) => {
      await calibrationSettled(fromIndex.index, toIndex.index, watch.signal);
      watch.signal?.throwIfAborted();
      const from = await sideOf(ctx, robot, request.from, fromIndex);
      const to = await sideOf(ctx, robot, request.to, toIndex);
      return impactBetween(ctx, asks, robot, request, from, to, watch, options, started);
    }),
  );
}

async function impactBetween(
  ctx: DomainContext,
  asks: LoggedAsks | null,
  robot: Robot,
  request: ImpactRequest,
  from: { side: ImpactSide; stored: StoredRule[] },
  to: { side: ImpactSide; stored: StoredRule[] },
  watch: ImpactWatch,
  options: ReplayOptions,
  started: number,
): Promise<ImpactReport> {
  const cap = request.cap ?? IMPACT_CAP;
  const since = ctx.now() - request.days * DAY_MS;
  const [a, b] = [from.side, to.side];
  const reach = await reachOf(
    { index: a.index, stored: from.stored },
    { index: b.index, stored: to.stored },
  );
  const { total, distinct } = asks
    ? await distinctQuestions(asks, robot, since)
    : { total: 0, distinct: new Map<string, Distinct>() };
  const replayed = await mostAsked([...distinct.values()], cap);
  const at = ctx.now();
  const known = fromOutcomesFor(a.index, at, robot.settings);
  const { kinds, matched, fromAsked, replayedAsks } = await compareSides(
    { a, b, questions: replayed, reach, at, settings: robot.settings, known },
    watch,
    { reserve: (bytes) => ctx.indexes.reserve(bytes), ...options },
  );
  let changedQuestions = 0;
  let changedAsks = 0;
  for (const kind of Object.values(kinds)) {
    kind.share = share(kind.asks, total);
    changedQuestions += kind.questions;
    changedAsks += kind.asks;
  }
  return {
    from: a.name,
    to: b.name,
    days: request.days,
    since,
    asks: total,
    questions: distinct.size,
    replayed: replayed.length,
    replayedAsks,
    matched,
    fromAsked,
    cap,
    capped: distinct.size > cap,
    changed: {
      questions: changedQuestions,
      asks: changedAsks,
      share: share(changedAsks, total),
    },
    kinds,
    ms: Math.round(performance.now() - started),
  };
}

/** A check run before a publish, in the robot's write queue: throws to refuse it. */
export type PublishGate = (robot: Robot) => Promise<void>;

/**
 * The publish gate on customers' questions: refuses (`publish-impact-too-large`, 409, with the
 * figures) when more than the robot's `impactGatePercent` of last week's asks would be answered
 * differently by the draft than by the latest version. Off at 100 (the default), before the
 * first version, and without a question log.
 */
export function impactGate(
  ctx: DomainContext,
  asks: LoggedAsks | null,
  options: ReplayOptions = {},
): PublishGate {
  return async (robot) => {
    const limit = robot.settings.impactGatePercent;
    if (limit >= 100 || asks === null || !(await ctx.store.versions.latest(robot))) return;
    const report = await impactOf(
      ctx,
      asks,
      robot,
      {
        from: 'published',
        to: 'draft',
        days: IMPACT_DAYS,
      },
      {},
      options,
    );
    const percent = Math.round(report.changed.share * 1000) / 10;
    if (percent <= limit) return;
    throw new ServiceError(
      'publish-impact-too-large',
      `${percent}% of the last ${IMPACT_DAYS} days' questions (${report.changed.asks} of ${report.asks} asks) would be answered differently, more than the ${limit}% this robot allows: confirm to publish anyway.`,
      'confirmImpact',
      {
        keyword: 'publish-impact-too-large',
        params: {
          percent,
          limit,
          asks: report.asks,
          changedAsks: report.changed.asks,
          changedQuestions: report.changed.questions,
          days: IMPACT_DAYS,
        },
      },
    );
  };
}
