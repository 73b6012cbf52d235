/**
 * An index's semantic channel under one embedding model: its rules' vectors (following the
 * index's writes), the fusion model its self-test fitted, and the channel that fuses a question's
 * nearest phrasings into the lexical candidates (docs/matching.md, "Fusion").
 * @module
 */
import type { FusionModel } from './fusion';
import { NO_FUSION, SEMANTIC_COUNT, fuse, fusionRows } from './fusion';
import type { FusionProbe } from './fusion-calibration';
import { fitFusion } from './fusion-calibration';
import { RuleVectors } from './rule-vectors';
import type { VectorSearch } from './rule-vectors';
import type { CandidateChannel, ProbeSource, RobotIndex } from './types';
import { quantize } from './vector-space';
import type { VectorSpace } from './vector-space';

/** Phrasings the fusion's self-test asks at most… */
const PROBES_MAX = 1000;
/** …and fewer in a large knowledge base: about this many vector components compared in all. */
const PROBE_WORK = 400_000_000;
const PROBES_MIN = 100;

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

  /** `changed`: told after every change of the index's rules (new texts may need vectors). */
  constructor(
    readonly index: RobotIndex,
    readonly space: VectorSpace,
    changed?: () => void,
  ) {
    this.vectors = new RuleVectors(space, changed);
    this.stop = index.observe?.(this.vectors) ?? (() => undefined);
  }

  /** What the calibration reads: a change of rules, vectors or lexical offset refits. */
  private state(): string {
    return `${this.vectors.version}:${this.space.generation}:${this.index.calibration?.offset ?? 0}`;
  }

  get calibration(): SemanticCalibration {
    return { model: this.model, current: this.fittedAt === this.state() };
  }

  /** Whether every phrasing has its vector. */
  get complete(): boolean {
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

  /** The channel for a question's vector (its length is the space's: checked by the caller). */
  channel(vector: ArrayLike<number>): CandidateChannel & { search?: VectorSearch } {
    const holder: CandidateChannel & { search?: VectorSearch } = {
      fuse: (candidates, nowMs) => {
        const search = this.search(vector, nowMs);
        holder.search = search;
        return fuse(candidates, search, this.model);
      },
    };
    return holder;
  }

  /** A calibration run over the index's probes, to be stepped (`FusionCalibrationRun`). */
  calibrationRun(
    nowMs: number,
    decision?: { bestmatchThreshold: number; margin: number },
  ): FusionCalibrationRun | null {
    const source = this.index.probeSource?.(this.probeLimit());
    if (!source) return null;
    return new FusionCalibrationRun(this, source, nowMs, this.state(), decision);
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
  private readonly probes: FusionProbe[] = [];
  private next = 0;

  constructor(
    private readonly semantic: SemanticIndex,
    private readonly source: ProbeSource,
    private readonly nowMs: number,
    private readonly state: string,
    private readonly decision?: { bestmatchThreshold: number; margin: number },
  ) {}

  get done(): boolean {
    return this.next >= this.source.phrasings.length;
  }

  /** Runs probes for about `budgetMs`; returns whether the run is complete (and applied). */
  step(budgetMs = Infinity): boolean {
    const start = performance.now();
    const { space, vectors } = this.semantic;
    while (!this.done) {
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
    if (!this.done) return false;
    this.semantic.fitted(fitFusion(this.probes, this.decision), this.state);
    return true;
  }
}
