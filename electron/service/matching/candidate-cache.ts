/**
 * Recently asked questions and their scored candidates. FAQ traffic repeats itself (the same
 * few hundred questions make most of it), and scoring is the costly part of an answer, while
 * the decision on top of the candidates is cheap and depends on per-robot settings, so the
 * candidates are what is kept. An entry is good only for the index state it was computed on
 * (any write changes the generation) and only within the stretch of time where no rule enters
 * or leaves its effective window.
 * @module
 */
import type { Candidate } from './types';

/** Questions kept per robot; the oldest entry goes first when full. */
const CAPACITY = 2048;

interface Entry {
  candidates: Candidate[];
  generation: number;
  /** Open interval of times for which the set of eligible rules is the same. */
  after: number;
  before: number;
}

export class CandidateCache {
  private readonly entries = new Map<string, Entry>();

  get(question: string, generation: number, nowMs: number): Candidate[] | undefined {
    const entry = this.entries.get(question);
    if (entry === undefined) return undefined;
    if (entry.generation !== generation || !(nowMs > entry.after && nowMs < entry.before)) {
      this.entries.delete(question);
      return undefined;
    }
    return entry.candidates;
  }

  set(
    question: string,
    candidates: Candidate[],
    generation: number,
    window: { after: number; before: number },
  ): void {
    if (this.entries.size >= CAPACITY) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    // Shared by every answer to this question until evicted: nobody may change it.
    Object.freeze(candidates);
    this.entries.set(question, { candidates, generation, ...window });
  }

  clear(): void {
    this.entries.clear();
  }
}
