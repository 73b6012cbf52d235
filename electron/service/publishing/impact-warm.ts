/**
 * The published side of the next impact preview worked out before anyone asks for it (decision
 * 179). A preview published → draft asks each logged question of both sides; the published
 * index changes only at a publish (or a rollback, a change of mode or of settings), so its
 * outcomes for last week's questions are worked out in the background once it is built or has
 * followed a publish, on one worker thread at nice 10 (impact-worker.ts), and kept where the
 * preview looks for them (impact-from-cache.ts). The first preview the editor runs then asks
 * the draft only. Exact by construction: the kept outcomes are the matcher's own, and dropped
 * on any change of what they depend on. A machine without a usable worker (memory, budget) is
 * not warmed: the loop's slices would take a core from the asks for a preview nobody ran yet.
 * @module
 */
import type { DomainContext } from '../domain/context';
import { robotKey } from '../domain/robot-directory';
import type { Robot } from '../domain/robot-directory';
import { DAY_MS } from '../store/contract/question-log';
import type { MatchSettings, RobotIndex } from '../matching/types';
import { forEachInSlices, pause } from '../time-slices';
import { CALIBRATION_WAIT_MS, calibrating } from './calibration-wait';
import type { ImpactSide, ReplayedQuestion } from './impact-compare';
import { fromOutcomesFor } from './impact-from-cache';
import { IMPACT_CAP, IMPACT_DAYS, distinctQuestions, mostAsked } from './impact';
import type { LoggedAsks, ReplayOptions } from './impact';
import { compareOnWorker } from './impact-thread';
import type { WorkerOptions } from './impact-thread';

/**
 * Wait after a publish or the start before warming: the published index's self-test (whose
 * offset the outcomes depend on) and the start's own loading come first.
 */
export const WARM_DELAY_MS = 2000;
const CALIBRATION_POLL_MS = 500;

/** What a warm-up did: the questions it asked of the published side (0: nothing to do). */
export interface Warmed {
  asked: number;
  /** Outcomes kept for the published index once it ended. */
  kept: number;
}

export class ImpactWarmer {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<Warmed>>();
  private readonly closing = new AbortController();
  /**
   * Background warm-ups run one at a time across robots: a node that builds many robots'
   * published indexes at once (a start, a team node following publishes) would otherwise start
   * a worker for each. A preview's own warm-up (`settled`) does not queue behind them.
   */
  private background: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly ctx: DomainContext,
    private readonly asks: LoggedAsks | null,
    private readonly options: ReplayOptions = {},
    private readonly delayMs = WARM_DELAY_MS,
  ) {}

  /** Warms `robot`'s published side after the delay (once, however often asked meanwhile). */
  schedule(robot: Robot): void {
    if (this.asks === null || this.closing.signal.aborted) return;
    const key = robotKey(robot);
    clearTimeout(this.timers.get(key));
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.background = this.background.then(() =>
        this.warm(robot, 1).catch((error: unknown) => {
          this.ctx.logger.warn(`the impact preview's warm-up stopped: ${String(error)}`);
        }),
      );
    }, this.delayMs);
    timer.unref();
    this.timers.set(key, timer);
  }

  /**
   * Before a preview from the published side: the warm-up under way awaited, or the one
   * scheduled run now on every worker (it asks the preview's own half: the preview then asks
   * the draft only).
   */
  async settled(robot: Robot): Promise<void> {
    const key = robotKey(robot);
    const timer = this.timers.get(key);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.timers.delete(key);
      await this.warm(robot, this.options.workers).catch(() => undefined);
      return;
    }
    await this.running.get(key)?.catch(() => undefined);
  }

  /**
   * Warms `robot`'s published side now, after the warm-up under way if any, on `workers`
   * workers (default impact-thread.ts's).
   */
  warm(robot: Robot, workers?: number): Promise<Warmed> {
    const key = robotKey(robot);
    const previous = this.running.get(key) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(() => this.warmNow(robot, workers))
      .finally(() => {
        if (this.running.get(key) === run) this.running.delete(key);
      });
    this.running.set(key, run);
    return run;
  }

  /** Stops the timers and the warm-up under way (the service stops). */
  close(): void {
    this.closing.abort();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private async publishedIndex(robot: Robot): Promise<RobotIndex | undefined> {
    const signal = this.closing.signal;
    const until = performance.now() + CALIBRATION_WAIT_MS;
    for (;;) {
      // The directory's robot: a settings change since the schedule replaced it.
      const current = this.ctx.robots.get(robot.tenantId, robot.robotId) ?? robot;
      const index = this.ctx.publishing?.published(current)?.index;
      if (index === undefined || signal.aborted) return undefined;
      if (!calibrating(index) || performance.now() > until) return index;
      await pause(CALIBRATION_POLL_MS, signal);
    }
  }

  private async warmNow(robot: Robot, workers: number | undefined): Promise<Warmed> {
    const none = { asked: 0, kept: 0 };
    const asks = this.asks;
    const index = await this.publishedIndex(robot);
    if (asks === null || index === undefined) return none;
    const current = this.ctx.robots.get(robot.tenantId, robot.robotId) ?? robot;
    const settings = current.settings;
    const { distinct } = await distinctQuestions(
      asks,
      current,
      this.ctx.now() - IMPACT_DAYS * DAY_MS,
    );
    const questions = await mostAsked([...distinct.values()], IMPACT_CAP);
    return warmSide(index, questions, this.ctx.now(), settings, this.closing.signal, {
      reserve: (bytes) => this.ctx.indexes.reserve(bytes),
      ...this.options,
      ...(workers === undefined ? {} : { workers }),
    });
  }
}

/**
 * Asks `index` the `questions` whose outcome at `at` under `settings` is not kept yet, on
 * worker threads, and keeps them for the next preview from it (impact-from-cache.ts). Nothing
 * is asked when no worker can be used.
 */
export async function warmSide(
  index: RobotIndex,
  questions: readonly ReplayedQuestion[],
  at: number,
  settings: MatchSettings,
  signal: AbortSignal,
  options: WorkerOptions = {},
): Promise<Warmed> {
  const known = fromOutcomesFor(index, at, settings);
  if (known === null) return { asked: 0, kept: 0 };
  const missing: ReplayedQuestion[] = [];
  await forEachInSlices(questions, (question) => {
    if (known.get(question.text) === undefined) missing.push(question);
  });
  if (missing.length === 0 || signal.aborted) return { asked: 0, kept: known.size };
  const side: ImpactSide = { name: 'published', index, rules: new Map() };
  const done = await compareOnWorker(
    { a: side, b: side, questions: missing, reach: null, at, settings, known, warm: true },
    { signal },
    options,
  ).catch((error: unknown) => {
    if (signal.aborted) return null;
    throw error;
  });
  return { asked: done?.fromAsked ?? 0, kept: known.size };
}
