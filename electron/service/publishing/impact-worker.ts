/**
 * The worker thread that replays an impact preview's questions (decision 128): it opens the two
 * sides' saved indexes (the event loop wrote them from the live ones, calibration and all),
 * rebuilds the replay's filter, asks each question sent as impact.ts would on the loop, and
 * posts its progress and, once every question is in, the count (impact-compare.ts). The asks
 * of the openapi meanwhile wait for nothing of it. Built to dist/impact-worker.js
 * (build/build.mjs).
 * @module
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { loadRobotIndex } from '../matching/index';
import type { RobotIndex } from '../matching/types';
import { ReplayPlan } from './impact-bound';
import { ImpactTally, QuestionReplay } from './impact-compare';
import type { KnownOutcomes, Outcome } from './impact-outcome';
import type { FromWorker, Outcomes, PlanSource, ReplayStart } from './impact-messages';
import { packOutcomes, toWorker, unpackOutcome } from './impact-messages';
import { ReachableQuestions } from './impact-reach';

/** Progress is posted at most this often (the job's poll and its cancellation read it). */
const PROGRESS_MS = 50;

/**
 * The `from` side's outcomes the loop sent with the chunk being asked, and those this worker
 * works out, handed back at the end for the loop to keep (impact-from-cache.ts).
 */
class ChunkOutcomes implements KnownOutcomes {
  private sent: Outcomes = { kinds: new Uint8Array(0), rules: [] };
  private texts: readonly string[] = [];
  /** The current question's place in the chunk, and the chunk's among all replayed. */
  at = 0;
  private from = 0;
  private readonly positions: number[] = [];
  private readonly learned: Outcome[] = [];

  chunk(texts: readonly string[], sent: Outcomes, from: number): void {
    this.texts = texts;
    this.sent = sent;
    this.from = from;
  }

  get(question: string): Outcome | undefined {
    return this.texts[this.at] === question ? unpackOutcome(this.sent, this.at) : undefined;
  }

  learn(question: string, outcome: Outcome): void {
    if (this.texts[this.at] !== question) return;
    this.positions.push(this.from + this.at);
    this.learned.push(outcome);
  }

  result() {
    return { ...packOutcomes(this.learned), positions: Int32Array.from(this.positions) };
  }
}

interface Replay {
  start: ReplayStart;
  asker: QuestionReplay;
  known: ChunkOutcomes;
  tally: ImpactTally;
  done: number;
  posted: number;
}

/**
 * The replay's niceness (decision 157): below the event loop's, so that on a machine whose
 * cores are all busy the openapi's asks get the core first and the replay the rest.
 */
const REPLAY_NICE = 10;

/**
 * Lowers this thread's priority alone (Linux: a thread's id, read from /proc/thread-self, is a
 * `setpriority` target of its own); the niceness it has then, or null where that cannot be done.
 */
function yieldToTheLoop(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    setPriority(tid, REPLAY_NICE);
    return REPLAY_NICE;
  } catch {
    return null;
  }
}

const nice = yieldToTheLoop();

let replay: Replay | null = null;

const reply = (message: FromWorker): void => parentPort?.postMessage(message);

/** A side's index from its pieces, with no self-test of its own (its calibration is the loop's). */
function open(pieces: readonly Uint8Array[]): RobotIndex {
  const bytes = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  const index = loadRobotIndex(bytes);
  if (index === null) throw new Error('the saved index was written by another engine');
  index.close?.();
  return index;
}

/**
 * The `from` side when the loop kept all its outcomes and sent none of it: any use is a broken
 * promise, reported as a failure (the loop then replays itself).
 */
const unsent = new Proxy({} as RobotIndex, {
  get: () => {
    throw new Error('the from side was not sent: its outcomes were all kept');
  },
});

function planOf(source: PlanSource | null): ReplayPlan | null {
  if (source === null) return null;
  const reach = new ReachableQuestions(source.synonyms);
  for (const rule of source.rules) reach.add(rule);
  return new ReplayPlan(reach, source.answers);
}

function finishIfDone(run: Replay): void {
  if (run.done < run.start.total) return;
  reply({
    type: 'done',
    comparison: run.tally.result(),
    positions: run.tally.positions(),
    learned: run.known.result(),
  });
  replay = null;
}

function ask(
  run: Replay,
  texts: readonly string[],
  asks: Float64Array,
  from: number,
  known: Outcomes,
): void {
  run.known.chunk(texts, known, from);
  for (let i = 0; i < texts.length; i++) {
    run.known.at = i;
    run.asker.replay({ text: texts[i] as string, asks: asks[i] as number }, from + i, run.tally);
    run.done++;
    const now = performance.now();
    if (now - run.posted >= PROGRESS_MS) {
      run.posted = now;
      reply({ type: 'progress', done: run.done });
    }
  }
  reply({ type: 'progress', done: run.done });
}

parentPort?.on('message', (data: unknown) => {
  try {
    const message = toWorker(data);
    if (message === null) throw new Error('not an impact message');
    if (message.type === 'start') {
      const [from, to] = message.sides;
      const known = new ChunkOutcomes();
      const { at, settings } = message;
      const warm = message.warm === true;
      // No `from` side sent: every outcome of it comes kept with the questions.
      const fromIndex = from.length === 0 ? unsent : open(from);
      // A warm-up asks one side: the other is not sent, nor opened.
      const toIndex = warm ? fromIndex : open(to);
      replay = {
        start: message,
        asker: new QuestionReplay(
          planOf(message.plan),
          fromIndex,
          toIndex,
          at,
          settings,
          known,
          warm,
        ),
        known,
        tally: new ImpactTally(new Set(message.differs)),
        done: 0,
        posted: performance.now(),
      };
      // The pieces were joined into each index's bytes: let them go.
      message.sides = [[], []];
      reply({ type: 'ready', nice });
      finishIfDone(replay);
      return;
    }
    if (replay === null) throw new Error('no replay started');
    ask(replay, message.texts, message.asks, message.from, message.known);
    finishIfDone(replay);
  } catch (error) {
    replay = null;
    reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
