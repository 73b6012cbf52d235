/**
 * What a publish changes for customers: the robot's logged questions of the last days (distinct,
 * weighted by how often they were asked) asked again of two targets (draft, published, a
 * version) with the matcher the openapi uses, and counted by how their answer changes — newly
 * answered, newly unanswered, another rule, another answer (same rule, its answer text changed).
 * Read a slice of the log at a time and replayed in time slices (time-slices.ts), so the asks
 * arriving meanwhile are answered within a slice (docs/publishing.md).
 * @module
 */
import type {
  ImpactAnswer,
  ImpactExample,
  ImpactKind,
  ImpactKindName,
  ImpactReport,
} from '../publishing-types';
import { IMPACT_KINDS } from '../publishing-types';
import type { LoggedQuestion } from '../question-log-types';
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import { ServiceError } from '../errors';
import { normalizeText } from '../matching/normalize';
import type { MatchDecision, MatchSettings, RobotIndex } from '../matching/types';
import type { RobotKey, StoredRule } from '../store/contract/records';
import { DAY_MS } from '../store/contract/question-log';
import { SLICE_MS, forEachInSlices, nextTurn } from '../time-slices';
import { ReplayPlan, changesBetween } from './impact-bound';
import { ReachableQuestions, foundByText } from './impact-reach';
import { rulesOf, targetIndex } from './targets';
import type { Target } from './targets';

/** The question log's entries since `from` (ms, within its retention), a slice at a time. */
export type LoggedAsks = (
  robot: RobotKey,
  from: number,
) => AsyncIterable<readonly LoggedQuestion[]>;

/** Distinct questions replayed at most, the most asked first (the rest are counted, not asked). */
export const IMPACT_CAP = 100_000;
/** Examples kept per kind of change, the most asked first. */
export const IMPACT_EXAMPLES = 10;
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
async function distinctQuestions(
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
async function mostAsked(questions: readonly Distinct[], cap: number): Promise<Distinct[]> {
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

/** One side of the comparison: its index, and its rules' answers and names. */
export interface ImpactSide {
  name: string;
  index: RobotIndex;
  rules: Map<string, Pick<StoredRule, 'ruleName' | 'answer'>>;
}

async function sideOf(
  ctx: DomainContext,
  robot: Robot,
  target: Target,
): Promise<{ side: ImpactSide; stored: StoredRule[] }> {
  const { name, index } = await targetIndex(ctx, robot, target);
  const stored = await rulesOf(ctx, robot, target);
  const rules = new Map<string, StoredRule>();
  await forEachInSlices(stored, (rule) => rules.set(rule.ruleId, rule));
  return { side: { name, index, rules }, stored };
}

const ruleOf = (decision: MatchDecision): string | null =>
  decision.kind === 'bestmatch' ? decision.top.ruleId : null;

function answerOf(decision: MatchDecision, side: ImpactSide): ImpactAnswer {
  const ruleId = ruleOf(decision);
  return {
    kind: decision.kind,
    ruleId,
    ruleName: ruleId === null ? null : (side.rules.get(ruleId)?.ruleName ?? null),
  };
}

/** How a question's answer changes between two decisions, or null when it does not. */
function changeOf(before: MatchDecision, after: MatchDecision, a: ImpactSide, b: ImpactSide) {
  const was = ruleOf(before);
  const is = ruleOf(after);
  if (was === null) return is === null ? null : 'newlyAnswered';
  if (is === null) return 'newlyUnanswered';
  if (was !== is) return 'otherRule';
  return a.rules.get(was)?.answer === b.rules.get(is)?.answer ? null : 'otherAnswer';
}

const emptyKind = (): ImpactKind => ({ questions: 0, asks: 0, share: 0, examples: [] });

/** Keeps `example` among the most asked of `kind` (at most IMPACT_EXAMPLES, most asked first). */
function keepExample(kind: ImpactKind, example: ImpactExample): void {
  const { examples } = kind;
  if (examples.length === IMPACT_EXAMPLES && example.asks <= (examples.at(-1)?.asks ?? 0)) return;
  let at = examples.length;
  while (at > 0 && (examples[at - 1] as ImpactExample).asks < example.asks) at--;
  examples.splice(at, 0, example);
  if (examples.length > IMPACT_EXAMPLES) examples.pop();
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

export interface Comparison {
  kinds: Record<ImpactKindName, ImpactKind>;
  /** Questions asked of both sides (the others cannot change answer). */
  matched: number;
  replayedAsks: number;
}

/**
 * Asks `questions` of both sides (only those `reach` says may change, every one without it) and counts
 * how their answers change, in slices.
 */
export async function compareSides(
  a: ImpactSide,
  b: ImpactSide,
  questions: readonly Pick<Distinct, 'text' | 'asks'>[],
  reach: ReplayPlan | ReachableQuestions | null,
  at: number,
  settings: MatchSettings,
  watch: ImpactWatch = {},
): Promise<Comparison> {
  const kinds = Object.fromEntries(IMPACT_KINDS.map((kind) => [kind, emptyKind()])) as Record<
    ImpactKindName,
    ImpactKind
  >;
  // Not `match`: a replay of 100,000 questions would evict the real traffic's recent questions
  // and count as traffic (postponing the self-test) for its whole length.
  const decide = (index: RobotIndex, question: string) =>
    index.decide?.(question, at, settings) ??
    index.matchExact?.(question, at) ??
    index.match(question, at, settings);
  const mayChange = (filter: ReplayPlan | ReachableQuestions, text: string) =>
    filter instanceof ReplayPlan
      ? filter.mayChange(text, a.index, at, settings)
      : filter.reaches(text);
  let done = 0;
  let matched = 0;
  let replayedAsks = 0;
  while (done < questions.length) {
    // Thousands of questions asked twice must not hold up the openapi: a slice, then a turn.
    const sliceEnd = performance.now() + SLICE_MS;
    do {
      const question = questions[done++] as Distinct;
      replayedAsks += question.asks;
      if (reach !== null && !mayChange(reach, question.text)) continue;
      matched++;
      const before = decide(a.index, question.text);
      const after = decide(b.index, question.text);
      const change = changeOf(before, after, a, b);
      if (change === null) continue;
      const kind = kinds[change];
      kind.questions++;
      kind.asks += question.asks;
      keepExample(kind, {
        question: question.text,
        asks: question.asks,
        before: answerOf(before, a),
        after: answerOf(after, b),
      });
    } while (done < questions.length && performance.now() < sliceEnd);
    watch.progress?.(done, questions.length);
    if (done < questions.length) {
      await nextTurn();
      watch.signal?.throwIfAborted();
    }
  }
  // A change seen after the last slice (impact-jobs.ts) still makes the result stale.
  watch.signal?.throwIfAborted();
  return { kinds, matched, replayedAsks };
}

export interface ImpactRequest {
  from: Target;
  to: Target;
  days: number;
  cap?: number;
}

/** What follows a preview run as a job (impact-jobs.ts): its progress, and its cancellation. */
export interface ImpactWatch {
  /** Questions replayed so far of those to replay, after each slice. */
  progress?: (done: number, total: number) => void;
  /** Aborted: the replay stops at its next slice, rejecting with the signal's reason. */
  signal?: AbortSignal;
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
): Promise<ImpactReport> {
  const started = performance.now();
  const cap = request.cap ?? IMPACT_CAP;
  const since = ctx.now() - request.days * DAY_MS;
  const from = await sideOf(ctx, robot, request.from);
  const to = await sideOf(ctx, robot, request.to);
  const [a, b] = [from.side, to.side];
  const reach = await reachOf(
    { index: a.index, stored: from.stored },
    { index: b.index, stored: to.stored },
  );
  const { total, distinct } = asks
    ? await distinctQuestions(asks, robot, since)
    : { total: 0, distinct: new Map<string, Distinct>() };
  const replayed = await mostAsked([...distinct.values()], cap);
  const { kinds, matched, replayedAsks } = await compareSides(
    a,
    b,
    replayed,
    reach,
    ctx.now(),
    robot.settings,
    watch,
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
export function impactGate(ctx: DomainContext, asks: LoggedAsks | null): PublishGate {
  return async (robot) => {
    const limit = robot.settings.impactGatePercent;
    if (limit >= 100 || asks === null || !(await ctx.store.versions.latest(robot))) return;
    const report = await impactOf(ctx, asks, robot, {
      from: 'published',
      to: 'draft',
      days: IMPACT_DAYS,
    });
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
