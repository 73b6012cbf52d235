/**
 * The robot's own traffic as the fusion's teacher (docs/matching.md, "Learning from traffic").
 * A question the lexical channel alone answers BESTMATCH is right ≥ 97% of the time (its
 * calibration), so it is a labelled example that costs nobody anything: its rule is the lexical
 * answer, its rows are both channels' features as the fusion read them. A robot whose rules have
 * one phrasing each has no self-test probe that keeps another text of its rule, so without these
 * its model could never be weighed, however good. A bounded sample of the most recent such
 * questions is kept per robot (one per distinct question), and the fusion is refitted on the
 * self-test's probes and these examples once WARM_UP of them exist, then each time they have
 * doubled (at most every LIMIT / 2 new ones). Kept beside the fusion's calibration, made anew
 * with the robot's model, and saved by the store across restarts (robot-semantic.ts,
 * decision 150); an example whose rule is written afterwards is dropped (decision 151).
 * @module
 */
import { createHash } from 'node:crypto';
import type { FusionFeatures } from './fusion';

/** One question answered BESTMATCH by the lexical channel: its rule and both channels' rows. */
export interface FusionExample {
  ruleId: string;
  rows: FusionFeatures[];
}

/**
 * The examples as saved (store/contract/fusion-examples.ts): each under a digest of its question
 * (the question's text is not kept: the question log's retention governs texts), oldest first.
 */
export interface FusionTrafficSnapshot {
  /** The warm-up is over: the examples take part in the fit. */
  warmed: boolean;
  examples: { key: string; example: FusionExample }[];
}

/** Examples before the first refit that uses them. */
export const WARM_UP = 20;
/** Examples kept per robot (the most recent distinct questions). */
export const LIMIT = 1000;

/** The key a question's example is kept under (one per distinct question). */
function keyOf(question: string): string {
  return createHash('sha256').update(question).digest('base64url').slice(0, 22);
}

export class FusionTraffic {
  private readonly examples = new Map<string, FusionExample>();
  /** The keys of each rule's examples (a write to the rule drops them). */
  private readonly byRule = new Map<string, Set<string>>();
  private added = 0;
  private atFit = 0;
  /** Grows by one each time enough new examples came for a refit (0: still warming up). */
  version = 0;

  /** `due`: told when a refit is due; `changed`: told when the examples changed (to save them). */
  constructor(
    private readonly due?: () => void,
    readonly limit = LIMIT,
    private readonly changed?: () => void,
  ) {}

  get size(): number {
    return this.examples.size;
  }

  /** Whether the warm-up is over (the examples take part in the fit). */
  get warmed(): boolean {
    return this.version > 0;
  }

  /**
   * Keeps `rows` as what `question` was answered with. A question kept already is only moved to
   * the most recent (asking it again teaches nothing new).
   */
  record(question: string, ruleId: string, rows: readonly FusionFeatures[]): void {
    const key = keyOf(question);
    const known = this.examples.get(key);
    if (known) {
      this.examples.delete(key);
      this.examples.set(key, known);
      return;
    }
    this.keep(key, {
      ruleId,
      rows: rows.map(({ ruleId: id, exact, lexical, cosine, gap }) => ({
        ruleId: id,
        exact,
        lexical,
        cosine,
        gap,
      })),
    });
    this.added += 1;
    if (this.added >= Math.max(WARM_UP, Math.min(this.atFit, this.limit / 2))) {
      this.version += 1;
      this.atFit = this.examples.size;
      this.added = 0;
      this.due?.();
    }
    this.changed?.();
  }

  /** Adds an example as the most recent, letting go of the oldest beyond the limit. */
  private keep(key: string, example: FusionExample): void {
    this.examples.set(key, example);
    let keys = this.byRule.get(example.ruleId);
    if (!keys) this.byRule.set(example.ruleId, (keys = new Set()));
    keys.add(key);
    if (this.examples.size > this.limit) {
      const oldest = this.examples.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const example = this.examples.get(key);
    if (!example) return;
    this.examples.delete(key);
    const keys = this.byRule.get(example.ruleId);
    keys?.delete(key);
    if (keys?.size === 0) this.byRule.delete(example.ruleId);
  }

  /**
   * The rule was written (edited, deleted, overwritten, rolled back): its examples' label or
   * features may no longer hold, so they go. The refit follows the rule change itself.
   */
  forgetRule(ruleId: string): void {
    const keys = this.byRule.get(ruleId);
    if (!keys) return;
    for (const key of keys) this.examples.delete(key);
    this.byRule.delete(ruleId);
    this.changed?.();
  }

  /** The examples a fit uses: none while warming up. */
  sample(): FusionExample[] {
    return this.version === 0 ? [] : [...this.examples.values()];
  }

  /** What the store keeps, oldest first. */
  snapshot(): FusionTrafficSnapshot {
    return {
      warmed: this.warmed,
      examples: [...this.examples].map(([key, example]) => ({ key, example })),
    };
  }

  /**
   * Takes back the examples saved before a restart, as older than any that came meanwhile. A
   * sample that was past its warm-up is used at once (a refit is due); one still warming up
   * counts towards it.
   */
  restore(saved: FusionTrafficSnapshot): void {
    const meanwhile = [...this.examples];
    this.examples.clear();
    this.byRule.clear();
    for (const { key, example } of saved.examples.slice(-this.limit)) this.keep(key, example);
    for (const [key, example] of meanwhile) {
      this.delete(key);
      this.keep(key, example);
    }
    if (saved.warmed || this.examples.size >= WARM_UP) {
      this.version += 1;
      this.atFit = this.examples.size;
      this.added = 0;
      this.due?.();
    } else {
      this.added = this.examples.size;
    }
  }
}
