/**
 * The vectors of a robot's recent questions: FAQ traffic repeats itself, and a repeated question
 * costs no call to the provider.
 * @module
 */

const CAPACITY = 1024;

export class QuestionVectors {
  private readonly entries = new Map<string, number[]>();

  get(question: string): number[] | undefined {
    const vector = this.entries.get(question);
    if (vector !== undefined) {
      // Most recently used last: the oldest goes first.
      this.entries.delete(question);
      this.entries.set(question, vector);
    }
    return vector;
  }

  set(question: string, vector: number[]): void {
    if (this.entries.size >= CAPACITY) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(question, vector);
  }
}
