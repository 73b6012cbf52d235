/**
 * The impact preview's count of changed answers, shared by its two runners: the event loop's
 * slices (impact.ts) and the worker thread (impact-worker.ts, decision 128). Both ask each
 * question the same way and count it the same way; the examples' rule names are filled in on
 * the event loop, where the sides' rules are.
 * @module
 */
import type { ImpactAnswer, ImpactExample, ImpactKind, ImpactKindName } from '../publishing-types';
import { IMPACT_KINDS } from '../publishing-types';
import type { MatchDecision, MatchSettings, RobotIndex } from '../matching/types';
import type { StoredRule } from '../store/contract/records';
import { forEachInSlices } from '../time-slices';
import { ReplayPlan } from './impact-bound';
import { outcomeOf } from './impact-outcome';
import type { KeptOutcomes, KnownOutcomes, Outcome } from './impact-outcome';
import type { ReachableQuestions } from './impact-reach';

/** Examples kept per kind of change, the most asked first. */
export const IMPACT_EXAMPLES = 10;

/** One side of the comparison: its index, and its rules' answers and names. */
export interface ImpactSide {
  name: string;
  index: RobotIndex;
  rules: Map<string, Pick<StoredRule, 'ruleName' | 'answer'>>;
}

export interface Comparison {
  kinds: Record<ImpactKindName, ImpactKind>;
  /** Questions asked of both sides (the others cannot change answer). */
  matched: number;
  /**
   * Questions asked of the `from` side by this replay: the others' outcomes were kept from an
   * earlier preview or the warm-up (impact-warm.ts), or not needed.
   */
  fromAsked: number;
  replayedAsks: number;
}

/** What follows a preview run as a job (impact-jobs.ts): its progress, and its cancellation. */
export interface ImpactWatch {
  /** Questions replayed so far of those to replay, after each slice. */
  progress?: (done: number, total: number) => void;
  /** Aborted: the replay stops at its next slice, rejecting with the signal's reason. */
  signal?: AbortSignal;
}

/** A logged question to replay: its text and how often it was asked. */
export interface ReplayedQuestion {
  text: string;
  asks: number;
}

/** One replay: the questions asked of both sides, which may change, at what time, how matched. */
export interface Replay {
  a: ImpactSide;
  b: ImpactSide;
  questions: readonly ReplayedQuestion[];
  /** Which questions may change answer; null: every one is asked. */
  reach: ReplayPlan | ReachableQuestions | null;
  at: number;
  settings: MatchSettings;
  /** The `from` side's outcomes kept from earlier previews (impact-from-cache.ts), if any. */
  known?: KeptOutcomes | null;
  /**
   * Only the `from` side is asked (its outcomes learned into `known`) and nothing is counted:
   * the warm-up of the published side before any preview (impact-warm.ts).
   */
  warm?: boolean;
}

/**
 * The rules whose answer text differs between the sides (in one side only included): a
 * question answered by the same rule on both changes answer only through one of them.
 */
export async function answerDiffers(a: ImpactSide, b: ImpactSide): Promise<Set<string>> {
  const differs = new Set<string>();
  const check = (ruleId: string) => {
    if (a.rules.get(ruleId)?.answer !== b.rules.get(ruleId)?.answer) differs.add(ruleId);
  };
  await forEachInSlices([...a.rules.keys()], check);
  await forEachInSlices([...b.rules.keys()], check);
  return differs;
}

/**
 * The matcher's decision for a replayed question. Not `match`: a replay of 100,000 questions
 * would evict the real traffic's recent questions and count as traffic (postponing the
 * self-test) for its whole length.
 */
export const decideOf = (
  index: RobotIndex,
  question: string,
  at: number,
  settings: MatchSettings,
): MatchDecision =>
  index.decide?.(question, at, settings) ??
  index.matchExact?.(question, at) ??
  index.match(question, at, settings);

/**
 * A replayed question's outcome: `decideOf`'s kind and rule, by the matcher's `decideKind`
 * where it has one (the same answer without fuse.js where it cannot change it, decision 192).
 */
export function replayedOutcome(
  index: RobotIndex,
  question: string,
  at: number,
  settings: MatchSettings,
): Outcome {
  return (
    index.decideKind?.(question, at, settings) ?? outcomeOf(decideOf(index, question, at, settings))
  );
}

/** One replay's asking of a question, on the loop or a worker: the same calls, the same counts. */
export class QuestionReplay {
  constructor(
    private readonly filter: ReplayPlan | ReachableQuestions | null,
    private readonly from: RobotIndex,
    private readonly to: RobotIndex,
    private readonly at: number,
    private readonly settings: MatchSettings,
    private readonly known: KnownOutcomes | null = null,
    private readonly warm = false,
  ) {}

  /** The `from` side's outcome: known, or decided once (the filter and the tally share it). */
  private before(question: string, tally: ImpactTally): Outcome {
    const known = this.known?.get(question);
    if (known !== undefined) return known;
    tally.fromAsked++;
    const outcome = replayedOutcome(this.from, question, this.at, this.settings);
    this.known?.learn(question, outcome);
    return outcome;
  }

  /** Asks `question` (its place among those replayed: `position`) and counts it in `tally`. */
  replay(question: ReplayedQuestion, position: number, tally: ImpactTally): void {
    const { filter, from, at, settings } = this;
    if (this.warm) {
      // The filter is the next preview's business: a warm-up learns every question's outcome.
      this.before(question.text, tally);
      tally.skipped(question);
      return;
    }
    let before: Outcome | undefined = this.known?.get(question.text);
    const known = before;
    const was = (): Outcome => (before ??= this.before(question.text, tally));
    const asked =
      filter === null ||
      (filter instanceof ReplayPlan
        ? filter.mayChange(question.text, from, at, settings, was, known)
        : filter.reaches(question.text));
    if (!asked) {
      tally.skipped(question);
      return;
    }
    const after = replayedOutcome(this.to, question.text, at, settings);
    tally.asked(question, was(), after, position);
  }
}

const ruleOf = (outcome: Outcome): string | null =>
  outcome.kind === 'bestmatch' ? outcome.ruleId : null;

/** An answer as an example shows it, its rule's name filled in later (`nameExamples`). */
const answerOf = (outcome: Outcome): ImpactAnswer => ({
  kind: outcome.kind,
  ruleId: ruleOf(outcome),
  ruleName: null,
});

const emptyKind = (): ImpactKind => ({ questions: 0, asks: 0, share: 0, examples: [] });

/** An example and the place of its question among those replayed (ties: the earlier first). */
interface Kept {
  example: ImpactExample;
  position: number;
}

const ranksBefore = (x: Kept, y: Kept): boolean =>
  x.example.asks > y.example.asks || (x.example.asks === y.example.asks && x.position < y.position);

/**
 * Keeps `kept` among the most asked (at most IMPACT_EXAMPLES, most asked first, the earlier
 * question first among equals): the same examples whichever thread counted which questions.
 */
function keepExample(examples: Kept[], kept: Kept): void {
  const last = examples.at(-1);
  if (examples.length === IMPACT_EXAMPLES && last !== undefined && !ranksBefore(kept, last)) return;
  let at = examples.length;
  while (at > 0 && ranksBefore(kept, examples[at - 1] as Kept)) at--;
  examples.splice(at, 0, kept);
  if (examples.length > IMPACT_EXAMPLES) examples.pop();
}

/** The examples' places among the replayed questions, by kind (what merges two tallies). */
export type ExamplePositions = Record<ImpactKindName, number[]>;

/** The count of changed answers, question by question. */
export class ImpactTally {
  readonly kinds = Object.fromEntries(IMPACT_KINDS.map((kind) => [kind, emptyKind()])) as Record<
    ImpactKindName,
    ImpactKind
  >;
  private readonly kept = Object.fromEntries(
    IMPACT_KINDS.map((kind): [ImpactKindName, Kept[]] => [kind, []]),
  ) as Record<ImpactKindName, Kept[]>;
  matched = 0;
  fromAsked = 0;
  replayedAsks = 0;

  /** `differs`: the rules whose answer text differs between the sides (`answerDiffers`). */
  constructor(private readonly differs: ReadonlySet<string>) {}

  /** How a question's answer changes between two decisions, or null when it does not. */
  private changeOf(before: Outcome, after: Outcome): ImpactKindName | null {
    const was = ruleOf(before);
    const is = ruleOf(after);
    if (was === null) return is === null ? null : 'newlyAnswered';
    if (is === null) return 'newlyUnanswered';
    if (was !== is) return 'otherRule';
    return this.differs.has(was) ? 'otherAnswer' : null;
  }

  /** A question replayed but known not to change (not asked). */
  skipped(question: ReplayedQuestion): void {
    this.replayedAsks += question.asks;
  }

  /**
   * A question asked of both sides; `position`: its place among the questions replayed (the
   * order examples of equal asks are kept in).
   */
  asked(question: ReplayedQuestion, before: Outcome, after: Outcome, position: number): void {
    this.replayedAsks += question.asks;
    this.matched++;
    const change = this.changeOf(before, after);
    if (change === null) return;
    const kind = this.kinds[change];
    kind.questions++;
    kind.asks += question.asks;
    const example = {
      question: question.text,
      asks: question.asks,
      before: answerOf(before),
      after: answerOf(after),
    };
    keepExample(this.kept[change], { example, position });
  }

  result(): Comparison {
    for (const name of IMPACT_KINDS) {
      this.kinds[name].examples = this.kept[name].map(({ example }) => example);
    }
    return {
      kinds: this.kinds,
      matched: this.matched,
      fromAsked: this.fromAsked,
      replayedAsks: this.replayedAsks,
    };
  }

  /** Where each kind's examples stand among the questions replayed (`mergeComparisons`). */
  positions(): ExamplePositions {
    return Object.fromEntries(
      IMPACT_KINDS.map((name) => [name, this.kept[name].map(({ position }) => position)]),
    ) as ExamplePositions;
  }
}

/** A comparison of some of the questions, and where its examples stand among all of them. */
export interface PartialComparison {
  comparison: Comparison;
  positions: ExamplePositions;
}

/**
 * The comparison of all the questions from those of parts of them (each question counted in
 * one part): the same counts and examples as one tally over all of them.
 */
export function mergeComparisons(parts: readonly PartialComparison[]): Comparison {
  const kinds = Object.fromEntries(IMPACT_KINDS.map((kind) => [kind, emptyKind()])) as Record<
    ImpactKindName,
    ImpactKind
  >;
  let matched = 0;
  let fromAsked = 0;
  let replayedAsks = 0;
  for (const name of IMPACT_KINDS) {
    const kept: Kept[] = [];
    for (const { comparison, positions } of parts) {
      const part = comparison.kinds[name];
      kinds[name].questions += part.questions;
      kinds[name].asks += part.asks;
      part.examples.forEach((example, i) => {
        keepExample(kept, { example, position: positions[name][i] ?? Number.MAX_SAFE_INTEGER });
      });
    }
    kinds[name].examples = kept.map(({ example }) => example);
  }
  for (const { comparison } of parts) {
    matched += comparison.matched;
    fromAsked += comparison.fromAsked;
    replayedAsks += comparison.replayedAsks;
  }
  return { kinds, matched, fromAsked, replayedAsks };
}

/** Fills in the examples' rule names from the sides' rules (`before` from `a`, `after` from `b`). */
export function nameExamples(comparison: Comparison, a: ImpactSide, b: ImpactSide): Comparison {
  const name = (answer: ImpactAnswer, side: ImpactSide) => {
    answer.ruleName =
      answer.ruleId === null ? null : (side.rules.get(answer.ruleId)?.ruleName ?? null);
  };
  for (const kind of Object.values(comparison.kinds)) {
    for (const example of kind.examples) {
      name(example.before, a);
      name(example.after, b);
    }
  }
  return comparison;
}
