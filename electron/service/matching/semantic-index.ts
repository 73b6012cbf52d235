/**
 * An index's semantic channel under one embedding model: its rules' vectors (following the
 * index's writes), the fusion model its self-test fitted, and the channel that fuses a question's
 * nearest phrasings into the lexical candidates (docs/matching.md, "Fusion").
 * @module
 */
import type { FusionModel } from './fusion';
import { NO_FUSION, SEMANTIC_COUNT, fuseRows, fusionRows } from './fusion';
import type { FusionProbe } from './fusion-calibration';
import { fitFusionInSteps } from './fusion-calibration';
import { FusionTraffic } from './fusion-traffic';
import { RuleVectors } from './rule-vectors';
import type { VectorSearch } from './rule-vectors';
import type { Candidate, CandidateChannel, ProbeSource, RobotIndex } from './types';
import { quantize } from './vector-space';
import type { VectorSpace } from './vector-space';

/** Phrasings the fusion's self-test asks at most… */
const PROBES_MAX = 1000;
/** …and fewer in a large knowledge base: about this many vector components compared in all. */
const PROBE_WORK = 400_000_000;
const PROBES_MIN = 100;

/** The BESTMATCH rule the fusion is fitted for, and the teacher's examples are chosen by. */
export interface DecisionRule {
  bestmatchThreshold: number;
  margin: number;
}

/**
 * Whether the lexical channel alone answers BESTMATCH with its top candidate, as decide.ts
 * decides it (an exact phrasing left out: it teaches the fusion nothing).
 */
export function lexicalBestmatch(
  candidates: readonly Candidate[],
  decision: DecisionRule,
): boolean {
  const top = candidates[0];
  if (top === undefined || top.score >= 1) return false;
  const runnerUp = candidates[1]?.score ?? 0;
  return top.score >= decision.bestmatchThreshold && top.score - runnerUp >= decision.margin;
}

/** The state of the channel's calibration, for the robot's status and the try pane. */
export interface SemanticCalibration {
  model: FusionModel;
  /** The model was fitted on the rules and vectors as they are now. */
  current: boolean;
}

export class SemanticIndex {
  readonly vectors: RuleVectors;
  private model: FusionModel = NO_FUSION;
  /** The rules' and vectors' state the model was fitted at. */
  private fittedAt = '';
  private readonly stop: () => void;
  /** The last self-test's probes and the rules' state they were asked at (refits reuse them). */
  private probes: { at: string; probes: FusionProbe[] } | null = null;
  /** Writes told since the index was first followed (queued ones included). */
  private writes = 0;

  /**
   * `changed`: told after every write to the index's rules (`followWrites` catches up with it).
   * `traffic`: the robot's examples (shared by its indexes under one model).
   */
  constructor(
    readonly index: RobotIndex,
    readonly space: VectorSpace,
    private readonly changed: () => void = () => undefined,
    readonly traffic = new FusionTraffic(),
  ) {
    this.vectors = new RuleVectors(space);
    // The rules held now are followed at once (not writes). A write after is only queued: an
    // acknowledged write does no vector work (a rule's texts held in the space cost ~15 µs and
    // heap, decision 160); the rule is left out of searches until `followWrites` reaches it, and
    // its traffic examples may be stale (decision 151). An index that cannot tell a rule later
    // is followed at once.
    let held = true;
    const vectors = this.vectors;
    const queued = index.rule !== undefined;
    const written = (ruleId: string): void => {
      this.writes += 1;
      if (queued) vectors.markWritten(ruleId);
      traffic.forgetRule(ruleId);
      this.changed();
    };
    this.stop =
      index.observe?.({
        upsert: (rule) => {
          if (held || !queued) vectors.upsert(rule);
          if (!held) written(rule.ruleId);
        },
        remove: (ruleId) => {
          if (!queued) vectors.remove(ruleId);
          written(ruleId);
        },
      }) ?? (() => undefined);
    held = false;
  }

  /** Rules written whose rows are not followed yet. */
  get unfollowed(): number {
    return this.vectors.unfollowed;
  }

  /**
   * Follows queued writes (oldest first) until `enough` says stop or none is left; returns
   * whether none is left. Each rule is followed as the index holds it now (a rule written many
   * times costs one update; a rule removed meanwhile lets its rows go).
   */
  followWrites(enough: () => boolean = () => false): boolean {
    const vectors = this.vectors;
    while (vectors.unfollowed > 0) {
      if (enough()) return false;
      const ruleId = vectors.nextWritten() as string;
      const rule = this.index.rule?.(ruleId);
      if (rule) vectors.upsert(rule);
      else vectors.remove(ruleId);
    }
    return true;
  }

  /** The rules' state the self-test reads: rules (written or followed), vectors, lexical offset. */
  private rulesState(): string {
    const offset = this.index.calibration?.offset ?? 0;
    return `${this.vectors.version}:${this.writes}:${this.space.generation}:${offset}`;
  }

  /** What the calibration reads: the rules' state, and enough new traffic, refit. */
  private state(): string {
    return `${this.rulesState()}:${this.traffic.version}`;
  }

  /** Keeps a finished self-test's probes for the refits that only new traffic asks for. */
  probed(probes: FusionProbe[], state: string): void {
    if (state === this.state()) this.probes = { at: this.rulesState(), probes };
  }

  get calibration(): SemanticCalibration {
    return { model: this.model, current: this.fittedAt === this.state() };
  }

  /** Whether every write is followed and every phrasing has its vector. */
  get complete(): boolean {
    if (this.vectors.unfollowed > 0) return false;
    const { phrasings, embedded } = this.vectors.coverage();
    return embedded === phrasings;
  }

  /** Lets go of the index and the vectors' rows. */
  close(): void {
    this.stop();
    this.vectors.clear();
  }

  search(vector: ArrayLike<number>, nowMs: number, k = SEMANTIC_COUNT): VectorSearch {
    return this.vectors.search(quantize(vector), k, nowMs);
  }

  /**
   * The channel for a question's vector (its length is the space's: checked by the caller).
   * `asked`: the question as asked, and the robot's decision rule: when the lexical channel
   * alone answers it BESTMATCH, it is kept as an example for the fusion (fusion-traffic.ts).
   */
  channel(
    vector: ArrayLike<number>,
    asked?: { question: string; decision: DecisionRule },
  ): CandidateChannel & { search?: VectorSearch } {
    const holder: CandidateChannel & { search?: VectorSearch } = {
      fuse: (candidates, nowMs) => {
        const search = this.search(vector, nowMs);
        holder.search = search;
        const rows = fusionRows(candidates, search);
        const top = candidates[0];
        // A rule not followed since its write has no cosine here: not an example of the model.
        if (
          asked &&
          top &&
          !this.vectors.isStale(top.ruleId) &&
          lexicalBestmatch(candidates, asked.decision)
        ) {
          this.traffic.record(asked.question.trim(), top.ruleId, rows);
        }
        return fuseRows(rows, this.model);
      },
    };
    return holder;
  }

  /** A calibration run over the index's probes, to be stepped (`FusionCalibrationRun`). */
  calibrationRun(
    nowMs: number,
    decision?: { bestmatchThreshold: number; margin: number },
  ): FusionCalibrationRun | null {
    const state = this.state();
    if (this.probes?.at === this.rulesState()) {
      // Only the traffic is new: the last self-test's probes stand.
      return new FusionCalibrationRun(this, null, nowMs, state, decision, this.probes.probes);
    }
    const source = this.index.probeSource?.(this.probeLimit());
    if (!source) return null;
    return new FusionCalibrationRun(this, source, nowMs, state, decision);
  }

  private probeLimit(): number {
    const work = Math.max(1, this.vectors.coverage().phrasings * this.space.dimensions);
    return Math.max(PROBES_MIN, Math.min(PROBES_MAX, Math.floor(PROBE_WORK / work)));
  }

  /** Receives a finished run: applied if nothing changed meanwhile. */
  fitted(model: FusionModel, state: string): void {
    if (state !== this.state()) return;
    this.model = model;
    this.fittedAt = state;
  }

  /** Runs the calibration at once (tests, evaluation). */
  calibrate(nowMs: number, decision?: { bestmatchThreshold: number; margin: number }): void {
    this.calibrationRun(nowMs, decision)?.step();
  }
}

/** The fusion's self-test spread over time, as the lexical one is (self-test.ts). */
export class FusionCalibrationRun {
  private next = 0;
  private fitting: Generator<void, FusionModel> | null = null;

  /** `source` null: `probes` were asked already (the rules have not changed since). */
  constructor(
    private readonly semantic: SemanticIndex,
    private readonly source: ProbeSource | null,
    private readonly nowMs: number,
    private readonly state: string,
    private readonly decision?: { bestmatchThreshold: number; margin: number },
    private readonly probes: FusionProbe[] = [],
  ) {}

  private finished = false;

  /** Whether the run is complete: its probes asked and its fit made (and applied). */
  get done(): boolean {
    return this.finished;
  }

  private get asked(): boolean {
    return this.next >= (this.source?.phrasings.length ?? 0);
  }

  /** Runs probes for about `budgetMs`; returns whether the run is complete (and applied). */
  step(budgetMs = Infinity): boolean {
    const start = performance.now();
    const { space, vectors } = this.semantic;
    if (this.finished) return true;
    while (this.source && !this.asked) {
      const phrasing = this.source.phrasings[this.next] as number;
      this.next += 1;
      const asked = this.source.ask(phrasing, this.nowMs);
      const row = asked ? space.rowOfText(asked.text.trim()) : -1;
      if (asked && row >= 0 && space.has(row)) {
        const search = vectors.search(space.vectorOf(row), SEMANTIC_COUNT, this.nowMs, {
          ruleId: asked.ruleId,
          row,
        });
        this.probes.push({ ruleId: asked.ruleId, rows: fusionRows(asked.candidates, search) });
      }
      if (performance.now() - start >= budgetMs) break;
    }
    if (!this.asked) return false;
    // The fit too is spread over turns (a refit of 1,000 probes and 1,000 examples is tens of ms).
    this.fitting ??= fitFusionInSteps(this.probes, this.decision, this.semantic.traffic.sample());
    let fitted = this.fitting.next();
    while (!fitted.done) {
      if (performance.now() - start >= budgetMs) return false;
      fitted = this.fitting.next();
    }
    const model = fitted.value;
    this.semantic.probed(this.probes, this.state);
    this.semantic.fitted(model, this.state);
    // Not before: a run whose probes are asked but whose fit is under way (a loaded machine, a
    // fit of many steps) is carried on, not started again from its first probe.
    this.finished = true;
    return true;
  }
}
