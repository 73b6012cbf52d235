/**
 * Inverse rule frequency, the term weight of both the question vector and the rules' vectors.
 * @module
 */

export function idf(ruleCount: number, ruleDf: number): number {
  return Math.log((ruleCount + 1) / (ruleDf + 1)) + 1;
}

/**
 * idf by rule frequency, computed on first use and kept until the rule count changes: stage 2
 * needs it for every term and gram of every shortlisted phrasing, and Math.log dominated.
 */
export class IdfTable {
  private values = new Float64Array(0);
  private ruleCount = -1;

  get(ruleCount: number, ruleDf: number): number {
    if (ruleCount !== this.ruleCount) {
      this.ruleCount = ruleCount;
      this.values = new Float64Array(ruleCount + 2);
    }
    const df = Math.min(ruleDf, ruleCount + 1);
    let value = this.values[df] ?? 0;
    if (value === 0) {
      value = idf(ruleCount, df);
      this.values[df] = value;
    }
    return value;
  }
}
