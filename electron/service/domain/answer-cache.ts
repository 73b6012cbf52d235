/**
 * Answers of recently answered rules, in memory (by count and by total characters): a repeated
 * question costs no store read. Rule ids are unique across robots. Every rule change forgets the
 * rules it touched (rule-changes.ts).
 * @module
 */

const CACHE_RULES = 2048;
const CACHE_CHARS = 2_000_000;

export class AnswerCache {
  /** ruleId → answer, oldest first (a Map keeps insertion order). */
  private readonly answers = new Map<string, string>();
  private chars = 0;
  private forgets = 0;

  /**
   * Changes with every `forget`: an answer read from the store is remembered only if no rule
   * was forgotten while it was read (it may be the answer before that change).
   */
  get generation(): number {
    return this.forgets;
  }

  /** The remembered answer, marked as most recently used. */
  get(ruleId: string): string | undefined {
    const known = this.answers.get(ruleId);
    if (known !== undefined) {
      this.answers.delete(ruleId);
      this.answers.set(ruleId, known);
    }
    return known;
  }

  remember(ruleId: string, answer: string): void {
    const known = this.answers.get(ruleId);
    if (known !== undefined) {
      this.answers.delete(ruleId);
      this.chars -= known.length;
    }
    this.answers.set(ruleId, answer);
    this.chars += answer.length;
    while (this.answers.size > CACHE_RULES || this.chars > CACHE_CHARS) {
      const [oldest, text] = this.answers.entries().next().value as [string, string];
      this.answers.delete(oldest);
      this.chars -= text.length;
    }
  }

  /** Forgets every answer (a team server's node that lost track of the others' writes). */
  clear(): void {
    this.forgets += 1;
    this.answers.clear();
    this.chars = 0;
  }

  forget(ruleIds: Iterable<string>): void {
    this.forgets += 1;
    for (const ruleId of ruleIds) {
      const text = this.answers.get(ruleId);
      if (text === undefined) continue;
      this.answers.delete(ruleId);
      this.chars -= text.length;
    }
  }
}
