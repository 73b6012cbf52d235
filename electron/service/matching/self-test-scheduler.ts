/**
 * Runs a robot's self-test in the background after its rules change, in short slices between
 * questions, so that asking never waits for it: writes restart the wait, questions postpone the
 * next slice (a slice still runs every MAX_WAIT_MS under sustained traffic, so the test ends).
 * Timers are unref'd: a pending self-test never keeps the process alive.
 * @module
 */
import type { Probe, ProbeTarget } from './self-test';
import { SelfTestRun, probedPhrasings } from './self-test';

/** Quiet time after the last write before the self-test starts (imports come in batches). */
const QUIET_MS = 1000;
/** Longest slice of probing. */
const SLICE_MS = 2;
/** Pause between slices while nobody asks. */
const GAP_MS = 4;
/** A question in the last IDLE_MS postpones the next slice… */
const IDLE_MS = 50;
/** …but never by more than this. */
const MAX_WAIT_MS = 250;

export interface SelfTestHost extends ProbeTarget {
  /** Changes with every write to the rules (a run of an older version is dropped). */
  readonly version: number;
  /** Receives the probes of a finished run for `version`. */
  selfTestDone(probes: Probe[], version: number): void;
}

export class SelfTestScheduler {
  private timer: NodeJS.Timeout | null = null;
  private run: { version: number; test: SelfTestRun } | null = null;
  private lastAsk = -Infinity;
  private lastSlice = -Infinity;
  private lastWrite = -Infinity;

  constructor(
    private readonly host: SelfTestHost,
    private readonly limit: number,
  ) {}

  /** Whether a self-test is waiting or under way. */
  get pending(): boolean {
    return this.timer !== null;
  }

  /** Called for every question: slices give way to traffic. */
  noteAsk(): void {
    this.lastAsk = performance.now();
  }

  /**
   * (Re)starts the self-test once writes have paused for QUIET_MS. Called by every write: a
   * timestamp, the timer only when none is set (an import of 100k rules sets it once).
   */
  schedule(): void {
    this.lastWrite = performance.now();
    this.run = null;
    if (this.timer !== null) return;
    this.timer = setTimeout(() => this.tick(), QUIET_MS);
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.run = null;
  }

  private tick(): void {
    this.timer = null;
    const quiet = performance.now() - this.lastWrite;
    if (quiet < QUIET_MS) {
      this.timer = setTimeout(() => this.tick(), QUIET_MS - quiet);
      this.timer.unref();
      return;
    }
    const host = this.host;
    if (this.run === null || this.run.version !== host.version) {
      const phrasings = probedPhrasings(host.ruleStore, this.limit);
      this.run = { version: host.version, test: new SelfTestRun(host, phrasings, Date.now()) };
    }
    const now = performance.now();
    const busy = now - this.lastAsk < IDLE_MS && now - this.lastSlice < MAX_WAIT_MS;
    if (!busy) {
      this.lastSlice = now;
      const { test, version } = this.run;
      if (test.step(SLICE_MS)) {
        this.run = null;
        host.selfTestDone(test.probes, version);
        return;
      }
    }
    this.timer = setTimeout(() => this.tick(), busy ? IDLE_MS : GAP_MS);
    this.timer.unref();
  }
}
