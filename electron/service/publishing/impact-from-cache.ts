/**
 * The `from` side's outcomes kept from one impact preview to the next (decision 172). A preview
 * is mostly run published → draft, again after each edit and once more by the publish gate: the
 * published index does not change meanwhile, and asking it is over two thirds of a replay's
 * asks (every question the changed rules' terms do not reach is asked of it once, to see
 * whether a rule whose answer changed answers it). Its outcome for a question stays the same
 * while nothing its decision reads changes: the index's rules and synonyms (its `version`,
 * bumped by every write), its calibration offset, the matcher's settings, and the set of rules
 * inside their effective windows (the index's `eligibilityWindow`, the same test the recent-
 * question table keeps its candidates by). Kept per index object, weakly, for the last
 * KEPT_SIDES sides used; at most KNOWN_MAX questions each (the preview's own cap).
 * @module
 */
import type { MatchSettings, RobotIndex } from '../matching/types';
import type { KeptOutcomes, Outcome } from './impact-outcome';

/** Sides whose outcomes are kept (a node of many robots keeps the last previewed ones only). */
export const KEPT_SIDES = 2;
/** Questions kept per side: impact.ts's IMPACT_CAP, the most a preview replays. */
const KNOWN_MAX = 100_000;

/** What the outcomes were worked out under, besides the time. */
const conditionsOf = (index: RobotIndex, settings: MatchSettings): string =>
  JSON.stringify([
    index.version,
    index.calibration?.offset ?? 0,
    index.synonyms ?? [],
    settings.bestmatchThreshold,
    settings.recommendThreshold,
    settings.margin,
    settings.maxRecommend,
  ]);

/** One side's outcomes, good while its conditions hold and the time stays inside its window. */
export class FromOutcomes implements KeptOutcomes {
  private readonly outcomes = new Map<string, Outcome>();

  /** The index's version the outcomes were worked out at. */
  readonly version: number | undefined;

  constructor(
    private readonly index: RobotIndex,
    readonly conditions: string,
    private readonly window: { after: number; before: number },
  ) {
    this.version = index.version;
  }

  /** Whether the outcomes kept hold for a replay at `at` under `conditions`. */
  holds(conditions: string, at: number): boolean {
    return conditions === this.conditions && this.window.after < at && at < this.window.before;
  }

  /** Whether the index is still the one the outcomes were worked out on (no write since). */
  get current(): boolean {
    return this.index.version === this.version;
  }

  get size(): number {
    return this.outcomes.size;
  }

  get(question: string): Outcome | undefined {
    return this.outcomes.get(question);
  }

  /** Keeps an outcome worked out at `version` (dropped when a write came since). */
  learn(question: string, outcome: Outcome): void {
    if (this.outcomes.size < KNOWN_MAX && this.current) this.outcomes.set(question, outcome);
  }
}

const kept = new WeakMap<RobotIndex, FromOutcomes>();
/** The sides kept, the last used last (what ages them out). */
const order: WeakRef<RobotIndex>[] = [];

/**
 * The outcomes kept for replays asking `index` as their `from` side at `at` with `settings`
 * (empty when what they depend on changed); null for an index that cannot tell when its
 * outcomes change (no version or eligibility window: a stand-in), or at a window's boundary.
 */
export function fromOutcomesFor(
  index: RobotIndex,
  at: number,
  settings: MatchSettings,
): FromOutcomes | null {
  if (index.version === undefined || index.eligibilityWindow === undefined) return null;
  const conditions = conditionsOf(index, settings);
  const place = order.findIndex((ref) => ref.deref() === index);
  if (place >= 0) order.splice(place, 1);
  order.push(new WeakRef(index));
  const known = kept.get(index);
  if (known?.holds(conditions, at)) return known;
  const window = index.eligibilityWindow(at);
  if (!(window.after < at && at < window.before)) {
    kept.delete(index);
    return null;
  }
  const fresh = new FromOutcomes(index, conditions, window);
  kept.set(index, fresh);
  while (order.length > KEPT_SIDES) {
    const oldest = order.shift()?.deref();
    if (oldest !== undefined) kept.delete(oldest);
  }
  return fresh;
}
