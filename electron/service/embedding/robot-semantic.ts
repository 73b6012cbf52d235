/**
 * One robot's embedding model at work: the vectors of its texts (one space shared by its draft
 * and published indexes), the embedder that fills them in the background after writes (from the
 * vector cache first, then the provider, in batches), the calibration of each index's fusion
 * once its vectors are complete (after the space's inverted lists are trained, when it is large
 * enough to have them), the recent questions' vectors, and the counts the robot's status shows.
 * Nothing here runs in a request's turn but a question's own call.
 * @module
 */
import type { EmbeddingStatus } from '../console-types';
import type { Logger } from '../logger';
import { fusionActive } from '../matching/fusion';
import { FusionTraffic } from '../matching/fusion-traffic';
import type { FusionCalibrationRun } from '../matching/semantic-index';
import { SemanticIndex } from '../matching/semantic-index';
import type { RobotIndex } from '../matching/types';
import type { ListLayout, ListTraining } from '../matching/vector-lists';
import { VectorSpace, quantize } from '../matching/vector-space';
import type { FusionExampleStore } from '../store/contract/fusion-examples';
import type { RobotKey } from '../store/contract/records';
import type { VectorCache } from '../store/contract/vectors';
import { decodeFusionExamples, encodeFusionExamples, providerKey } from './fusion-example-codec';
import { WorkerTrainingPort } from './list-training-port';
import { EmbeddingFailure, embedTexts } from './provider-client';
import type { EmbeddingFailureKind, EmbeddingProvider } from './provider-client';
import { QuestionVectors } from './question-vectors';

/** Texts per call to the provider while embedding rules. */
const BATCH = 64;
/** Deadline of a batch (a provider loading its model may take a while on the first one). */
const BATCH_TIMEOUT_MS = 60_000;
/**
 * Quiet after the last write before embedding (an import comes in batches, one after the other,
 * with the client's turn between them): the embedding's work (the provider's answers parsed, the
 * vectors kept) would otherwise share the main thread with the import and halve its rate
 * (decision 151). Under writes that never stop, a batch still goes every MAX_QUIET_WAIT_MS: 30 s,
 * not 5 (decision 160), since each such batch (64 texts parsed, cached, their rules followed)
 * cost an import ~5% of its main thread; the trickle it embeds meanwhile never kept up anyway.
 */
const SETTLE_MS = 1_000;
const MAX_QUIET_WAIT_MS = 30_000;
/** Wait before trying again after a failed batch: doubled up to the last. */
const RETRY_MS = [1_000, 5_000, 30_000, 120_000];
/** Indexes of a robot followed at most (the draft, the published edition, an older one). */
const INDEXES_MAX = 3;
/** Longest slice of the fusion's self-test, and the pause between slices. */
const SLICE_MS = 2;
/** Longest slice of the queued writes followed before each batch (decision 160). */
const FOLLOW_MS = 4;
const GAP_MS = 5;
/**
 * Wait after the traffic's examples changed before saving them (one write however many came;
 * a clean stop saves at once).
 */
const SAVE_MS = 10_000;

export type FailureKind = EmbeddingFailureKind | 'dimension';

export interface RobotSemanticOptions {
  provider: EmbeddingProvider;
  timeoutMs: number;
  source: 'default' | 'custom';
  cache: VectorCache;
  /** Where the traffic's examples are kept across restarts, and whose they are. */
  examples?: { store: FusionExampleStore; robot: RobotKey };
  logger: Logger;
  /** Whether a write of the robot's is queued or running (the embedding waits for it). */
  writing?: () => boolean;
  /** The robot's BESTMATCH threshold and margin now (the fusion's offset is fitted for them). */
  decision: () => { bestmatchThreshold: number; margin: number };
}

export class RobotSemantic {
  readonly space = new VectorSpace();
  readonly questions = new QuestionVectors();
  /** Questions the lexical channel answered BESTMATCH: the fusion's examples (this model's). */
  readonly traffic = new FusionTraffic(
    () => this.wake(),
    undefined,
    () => this.saveSoon(),
  );
  private readonly indexes = new Map<RobotIndex, SemanticIndex>();
  private readonly failures: Record<FailureKind, number> = {
    timeout: 0,
    http: 0,
    network: 0,
    shape: 0,
    aborted: 0,
    dimension: 0,
  };
  private lastFailure: { kind: string; message: string; at: number } | null = null;
  private readonly asked = { withVector: 0, without: 0 };
  private timer: NodeJS.Timeout | null = null;
  private pumping = false;
  private retries = 0;
  /** When the robot's rules were last written, and the last batch embedded (performance.now). */
  private writtenAt = -Infinity;
  /** A write came since `work` last looked (it dates it: no clock read per written rule). */
  private wrote = false;
  private batchAt = -Infinity;
  private calibration: { semantic: SemanticIndex; run: FusionCalibrationRun } | null = null;
  private training: ListTraining | ListLayout | null = null;
  private readonly abort = new AbortController();
  private closed = false;
  /** The saved examples being read back, then each save in turn. */
  private saving: Promise<void>;
  private saveTimer: NodeJS.Timeout | null = null;
  private unsaved = false;

  constructor(private readonly options: RobotSemanticOptions) {
    this.saving = this.loadExamples();
  }

  /**
   * The examples saved before a restart, when of this model: the fusion is refitted from them
   * (a refit is due) instead of warming up again.
   */
  private async loadExamples(): Promise<void> {
    const kept = this.options.examples;
    if (!kept) return;
    try {
      const bytes = await kept.store.load(kept.robot);
      const saved = bytes && (await decodeFusionExamples(providerKey(this.provider), bytes));
      if (saved && !this.closed) this.traffic.restore(saved);
    } catch (error) {
      this.options.logger.warn(`the fusion's saved examples could not be read: ${String(error)}`);
    }
  }

  /** The examples changed: saved once they have been quiet a while (or at a clean stop). */
  private saveSoon(): void {
    this.unsaved = true;
    if (this.closed || this.saveTimer !== null || !this.options.examples) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.saveExamples();
    }, SAVE_MS);
    this.saveTimer.unref();
  }

  /** Writes the examples if they changed since the last write (after any write under way). */
  saveExamples(): Promise<void> {
    const kept = this.options.examples;
    if (!kept || !this.unsaved) return this.saving;
    this.unsaved = false;
    const provider = providerKey(this.provider);
    this.saving = this.saving.then(async () => {
      try {
        const bytes = await encodeFusionExamples(provider, this.traffic.snapshot());
        await kept.store.save(kept.robot, bytes);
      } catch (error) {
        this.options.logger.warn(`the fusion's examples could not be saved: ${String(error)}`);
      }
    });
    return this.saving;
  }

  get provider(): EmbeddingProvider {
    return this.options.provider;
  }

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** The robot's BESTMATCH threshold and margin now. */
  decision(): { bestmatchThreshold: number; margin: number } {
    return this.options.decision();
  }

  /** The semantic channel of `index`, following its rules from now on. */
  semanticOf(index: RobotIndex): SemanticIndex {
    let semantic = this.indexes.get(index);
    if (semantic) {
      // Most recently used last.
      this.indexes.delete(index);
      this.indexes.set(index, semantic);
      return semantic;
    }
    semantic = new SemanticIndex(index, this.space, () => this.written(), this.traffic);
    this.indexes.set(index, semantic);
    if (this.indexes.size > INDEXES_MAX) {
      const [oldIndex, oldest] = this.indexes.entries().next().value as [RobotIndex, SemanticIndex];
      this.indexes.delete(oldIndex);
      oldest.close();
    }
    this.wake();
    return semantic;
  }

  noteFailure(kind: FailureKind, message: string): void {
    this.failures[kind] += 1;
    this.lastFailure = { kind, message, at: Date.now() };
  }

  noteQuestion(withVector: boolean): void {
    if (withVector) this.asked.withVector += 1;
    else this.asked.without += 1;
  }

  /**
   * Stops every timer and call; lets go of the indexes. The examples not yet saved are written
   * (the promise), unless the model changed (`save` false: they are of the old one).
   */
  close(save = true): Promise<void> {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    const saved = save ? this.saveExamples() : this.saving;
    this.closed = true;
    this.abort.abort();
    this.space.lists.stop();
    this.training = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const semantic of this.indexes.values()) semantic.close();
    this.indexes.clear();
    return saved;
  }

  /** A rule was written: its texts are embedded once the writes settle. */
  private written(): void {
    this.wrote = true;
    this.wake();
  }

  /** Something changed: embed (and calibrate) once writes settle. */
  private wake(delay = SETTLE_MS): void {
    if (this.closed || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.work();
    }, delay);
    this.timer.unref();
  }

  private async work(): Promise<void> {
    if (this.pumping || this.closed) return;
    const now = performance.now();
    if (this.wrote || this.options.writing?.() === true) this.writtenAt = now;
    this.wrote = false;
    const quiet = now - this.writtenAt;
    if (quiet < SETTLE_MS && now - this.batchAt < MAX_QUIET_WAIT_MS) {
      this.wake(Math.ceil(SETTLE_MS - quiet));
      return;
    }
    this.batchAt = now;
    this.pumping = true;
    try {
      const followed = this.followWrites();
      const more = await this.embedBatch();
      this.retries = 0;
      if (more || !followed) this.wake(0);
      else this.calibrateStep();
    } catch (error) {
      const failure = error instanceof EmbeddingFailure ? error : null;
      if (failure?.kind !== 'aborted') {
        const kind: FailureKind = failure?.kind ?? 'network';
        const message = error instanceof Error ? error.message : String(error);
        this.noteFailure(kind, message);
        if (this.retries === 0) {
          this.options.logger.warn(`embedding the rules' phrasings failed (${message}); retrying`);
        }
        const delay = RETRY_MS[Math.min(this.retries, RETRY_MS.length - 1)] ?? 1000;
        this.retries += 1;
        this.wake(delay);
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Follows the indexes' queued writes, in the embedder's turn (never a write's): until a batch
   * of new texts is waiting or a slice is spent. Returns whether none is left.
   */
  private followWrites(): boolean {
    const started = performance.now();
    const enough = () => this.space.missing >= BATCH || performance.now() - started >= FOLLOW_MS;
    for (const semantic of this.indexes.values()) {
      if (!semantic.followWrites(enough)) return false;
    }
    return true;
  }

  /** Rules written and not followed yet, over the indexes. */
  private get unfollowed(): number {
    let count = 0;
    for (const semantic of this.indexes.values()) count += semantic.unfollowed;
    return count;
  }

  /** One batch of texts without vectors: from the cache, else the provider. False: none left. */
  private async embedBatch(): Promise<boolean> {
    const texts = this.space.takeMissing(BATCH);
    if (texts.length === 0) return false;
    const { cache, provider } = this.options;
    try {
      const cached = await cache.get(provider.model, texts);
      for (const [text, vector] of cached) this.setVector(text, vector);
      const rest = texts.filter((text) => !cached.has(text));
      if (rest.length === 0) return true;
      const vectors = await embedTexts(provider, rest, BATCH_TIMEOUT_MS, this.abort.signal);
      const fresh = new Map(rest.map((text, i) => [text, quantize(vectors[i] ?? [])]));
      for (const [text, vector] of fresh) this.setVector(text, vector);
      await cache.put(provider.model, fresh);
      return true;
    } catch (error) {
      this.space.putBack(texts);
      throw error;
    }
  }

  private setVector(text: string, vector: { values: Int8Array; scale: number }): void {
    if (!this.space.set(text, vector)) {
      throw new EmbeddingFailure(
        'shape',
        `the provider gave a vector of ${vector.values.length} numbers, the others have ${this.space.dimensions}`,
      );
    }
  }

  /**
   * Calibrates, in slices, the first index whose vectors are complete and whose fusion is not
   * fitted to its rules as they are (after its lexical self-test, whose offset it builds on).
   */
  private calibrateStep(): void {
    if (this.closed) return;
    // The inverted lists first (a large space's searches, the self-test's included, use them),
    // trained in a worker thread; the loop copies the rows out and lays them out after.
    this.training ??= this.space.lists.trainingRun(() => new WorkerTrainingPort());
    if (this.training !== null) {
      if (this.training.step(SLICE_MS)) {
        this.training = null;
        if (this.space.lists.laidOut) {
          this.options.logger.info(
            `embedding model ${this.provider.model}: ${this.space.lists.lists} vector lists trained and laid out`,
          );
        }
      }
      this.nextStep();
      return;
    }
    let current = this.calibration;
    if (current === null || current.run.done) {
      current = null;
      for (const semantic of [...this.indexes.values()].reverse()) {
        if (semantic.calibration.current || !semantic.complete) continue;
        if (semantic.index.calibration?.current === false) {
          // The lexical self-test first: try again shortly.
          this.wake(1000);
          return;
        }
        const run = semantic.calibrationRun(Date.now(), this.options.decision());
        if (run) current = { semantic, run };
        break;
      }
      this.calibration = current;
      if (current === null) return;
    }
    const finished = current.run.step(SLICE_MS);
    if (finished) {
      this.calibration = null;
      const { model } = current.semantic.calibration;
      this.options.logger.info(
        fusionActive(model)
          ? `embedding model ${this.provider.model}: fused with weight ${model.gap.toFixed(2)} (offset ${model.offset}, ${model.probes} probes, ${model.examples} examples from traffic)`
          : `embedding model ${this.provider.model}: its self-test found it adds nothing (${model.probes} probes, ${model.examples} examples from traffic)`,
      );
    }
    this.nextStep();
  }

  /** The next slice of the lists' training or the calibration, after a pause. */
  private nextStep(): void {
    if (this.timer === null && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = null;
        // New texts (a write meanwhile) are embedded first; the calibration starts again after.
        if (this.space.missing > 0 || this.unfollowed > 0) void this.work();
        else if (!this.pumping) this.calibrateStep();
      }, GAP_MS);
      this.timer.unref();
    }
  }

  /** The draft's channel state and the counts, for `GET R/embedding`. */
  status(draft: RobotIndex | undefined): EmbeddingStatus {
    const semantic = draft ? this.indexes.get(draft) : undefined;
    // A rule written and not followed yet counts as one text without its vector: progress is
    // approximate while writes are followed, and complete only once every one is.
    const texts = this.space.size + this.unfollowed;
    const { model, current } = semantic?.calibration ?? { model: null, current: false };
    const { timeout, http, network, shape, dimension } = this.failures;
    const failures = { timeout, http, network, shape, dimension };
    return {
      source: this.options.source,
      api: this.provider.api,
      base: this.provider.base,
      model: this.provider.model,
      timeoutMs: this.timeoutMs,
      dimensions: this.space.dimensions,
      texts,
      embedded: this.space.size - this.space.missing,
      vectorBytes: this.space.bytes,
      failures,
      lastFailure: this.lastFailure && {
        ...this.lastFailure,
        at: new Date(this.lastFailure.at).toISOString(),
      },
      questions: { ...this.asked },
      examples: { kept: this.traffic.size, warmedUp: this.traffic.warmed },
      calibration:
        model && model.probes > 0
          ? {
              gap: Math.round(model.gap * 1000) / 1000,
              cosine: Math.round(model.cosine * 1000) / 1000,
              offset: model.offset,
              probes: model.probes,
              examples: model.examples,
              active: fusionActive(model),
              current,
            }
          : null,
    };
  }
}
