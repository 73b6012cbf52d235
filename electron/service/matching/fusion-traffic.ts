/**
 * The robot's own traffic as the fusion's teacher (docs/matching.md, "Learning from traffic").
 * A question the lexical channel alone answers BESTMATCH is right ≥ 97% of the time (its
 * calibration), so it is a labelled example that costs nobody anything: its rule is the lexical
 * answer, its rows are both channels' features as the fusion read them. A robot whose rules have
 * one phrasing each has no self-test probe that keeps another text of its rule, so without these
 * its model could never be weighed, however good. A bounded sample of the most recent such
 * questions is kept per robot (one per distinct question), and the fusion is refitted on the
 * self-test's probes and these examples once WARM_UP of them exist, then each time they have
 * doubled (at most every LIMIT / 2 new ones). Kept in memory beside the fusion's calibration,
 * and made anew with the robot's model (robot-semantic.ts).
 * @module
 */
import type { FusionFeatures } from './fusion';

/** One question answered BESTMATCH by the lexical channel: its rule and both channels' rows. */
export interface FusionExample {
  ruleId: string;
  rows: FusionFeatures[];
}

/** Examples before the first refit that uses them. */
export const WARM_UP = 20;
/** Examples kept per robot (the most recent distinct questions). */
export const LIMIT = 1000;

export class FusionTraffic {
  private readonly examples = new Map<string, FusionExample>();
  private added = 0;
  private atFit = 0;
  /** Grows by one each time enough new examples came for a refit (0: still warming up). */
  version = 0;

  /** `due`: told when a refit is due. */
  constructor(
    private readonly due?: () => void,
    readonly limit = LIMIT,
  ) {}

  get size(): number {
    return this.examples.size;
  }

  /**
   * Keeps `rows` as what `question` was answered with. A question kept already is only moved to
   * the most recent (asking it again teaches nothing new).
   */
  record(question: string, ruleId: string, rows: readonly FusionFeatures[]): void {
    const known = this.examples.get(question);
    if (known) {
      this.examples.delete(question);
      this.examples.set(question, known);
      return;
    }
    this.examples.set(question, {
      ruleId,
      rows: rows.map(({ ruleId: id, exact, lexical, cosine, gap }) => ({
        ruleId: id,
        exact,
        lexical,
        cosine,
        gap,
      })),
    });
    if (this.examples.size > this.limit) {
      const oldest = this.examples.keys().next().value;
      if (oldest !== undefined) this.examples.delete(oldest);
    }
    this.added += 1;
    if (this.added >= Math.max(WARM_UP, Math.min(this.atFit, this.limit / 2))) {
      this.version += 1;
      this.atFit = this.examples.size;
      this.added = 0;
      this.due?.();
    }
  }

  /** The examples a fit uses: none while warming up. */
  sample(): FusionExample[] {
    return this.version === 0 ? [] : [...this.examples.values()];
  }
}
