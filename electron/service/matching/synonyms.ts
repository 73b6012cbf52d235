/**
 * A robot's synonym table: groups of words or phrases that mean the same thing in its
 * knowledge base. Every member is rewritten to its group's first member before indexing and
 * before matching, so "recharge" in a question meets "top up" in a rule at full weight.
 * @module
 */
import { normalizeText } from './normalize';

const HAN = /\p{Script=Han}/u;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class SynonymTable {
  private readonly canonical = new Map<string, string>();
  private readonly pattern: RegExp | null;

  constructor(groups: readonly (readonly string[])[]) {
    for (const group of groups) {
      const members = group.map((member) => normalizeText(member)).filter((m) => m.length > 0);
      const head = members[0];
      if (head === undefined) continue;
      for (const member of members) {
        if (member !== head && !this.canonical.has(member)) this.canonical.set(member, head);
      }
    }
    // Longest first, so "top up card" wins over "top up" where both are members.
    const members = [...this.canonical.keys()].sort((a, b) => b.length - a.length);
    const alternatives = members.map((member) =>
      // Han text has no spaces: members match anywhere. Other scripts match whole words only.
      HAN.test(member)
        ? escapeRegExp(member)
        : `(?<![\\p{L}\\p{N}])${escapeRegExp(member)}(?![\\p{L}\\p{N}])`,
    );
    this.pattern = alternatives.length > 0 ? new RegExp(alternatives.join('|'), 'gu') : null;
  }

  get isEmpty(): boolean {
    return this.pattern === null;
  }

  /** Normalises `text` and rewrites synonyms to their canonical member. */
  rewrite(text: string): string {
    const normalized = normalizeText(text);
    if (this.pattern === null) return normalized;
    return normalized.replace(this.pattern, (member) => this.canonical.get(member) ?? member);
  }
}
