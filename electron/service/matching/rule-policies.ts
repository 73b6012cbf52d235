/**
 * Per-rule match policies (docs/conversation.md): rules matched only by an exact phrasing or by
 * a keyword found anywhere in the question, and negative keywords that keep a rule from being
 * answered. Rules with the default policy and no negative keyword are not held here: a robot
 * without policies pays nothing.
 * @module
 */
import { decide } from './decide';
import { normalizeText } from './normalize';
import type {
  Candidate,
  Exclusion,
  MatchDecision,
  MatchPolicy,
  MatchSettings,
  MatchableRule,
} from './types';

/** Score of a rule whose keyword the question contains (an exact phrasing scores 1). */
export const CONTAINS_SCORE = 0.99;

export interface PolicyEntry {
  ruleId: string;
  policy: MatchPolicy;
  /** Normalised phrasings (the name included): the exact forms, or the keywords. */
  keys: string[];
  /** The phrasings as written, parallel to `keys` (what the explanation shows). */
  texts: string[];
  /** Normalised negative keywords. */
  negative: string[];
  /** The negative keywords as written, parallel to `negative`. */
  negativeTexts: string[];
  active: boolean;
  begin: number | null;
  end: number | null;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACED = /[a-z0-9]/;

/**
 * Whether normalised `text` holds normalised `key`: anywhere for Han text, on word boundaries
 * where the key starts or ends with a letter of a spaced script ("card" is not in "discard").
 */
export function containsKey(text: string, key: string): boolean {
  if (key === '') return false;
  let from = 0;
  for (;;) {
    const at = text.indexOf(key, from);
    if (at < 0) return false;
    const before = text[at - 1];
    const after = text[at + key.length];
    const startOk = !SPACED.test(key[0] ?? '') || before === undefined || !WORD_CHAR.test(before);
    const endOk =
      !SPACED.test(key[key.length - 1] ?? '') || after === undefined || !WORD_CHAR.test(after);
    if (startOk && endOk) return true;
    from = at + 1;
  }
}

function eligible(entry: PolicyEntry, nowMs: number): boolean {
  if (!entry.active) return false;
  return (
    !(entry.begin !== null && nowMs < entry.begin) && !(entry.end !== null && nowMs > entry.end)
  );
}

export class PolicyTable {
  private readonly entries = new Map<string, PolicyEntry>();

  get isEmpty(): boolean {
    return this.entries.size === 0;
  }

  /** Whether the engine's similarity scoring should see the rule (its policy is `similarity`). */
  upsert(rule: MatchableRule): boolean {
    const policy = rule.matchPolicy ?? 'similarity';
    const negativeTexts = (rule.negativeKeywords ?? []).filter(
      (word) => normalizeText(word) !== '',
    );
    if (policy === 'similarity' && negativeTexts.length === 0) {
      this.entries.delete(rule.ruleId);
      return true;
    }
    const texts = [...rule.questions, rule.ruleName];
    this.entries.set(rule.ruleId, {
      ruleId: rule.ruleId,
      policy,
      keys: texts.map(normalizeText),
      texts,
      negative: negativeTexts.map(normalizeText),
      negativeTexts,
      active: rule.active,
      begin: rule.effectBeginMs,
      end: rule.effectEndMs,
    });
    return policy === 'similarity';
  }

  /** Whether `upsert(rule)` would leave the table as it is (the same rule again). */
  holds(rule: MatchableRule): boolean {
    const policy = rule.matchPolicy ?? 'similarity';
    const negativeTexts = (rule.negativeKeywords ?? []).filter(
      (word) => normalizeText(word) !== '',
    );
    const entry = this.entries.get(rule.ruleId);
    if (policy === 'similarity' && negativeTexts.length === 0) return entry === undefined;
    return (
      entry !== undefined &&
      entry.policy === policy &&
      entry.active === rule.active &&
      entry.begin === rule.effectBeginMs &&
      entry.end === rule.effectEndMs &&
      sameTexts(entry.texts, [...rule.questions, rule.ruleName]) &&
      sameTexts(entry.negativeTexts, negativeTexts)
    );
  }

  remove(ruleId: string): void {
    this.entries.delete(ruleId);
  }

  /** Whether the rule's negative keywords keep it from answering `question`. */
  refuses(ruleId: string, question: string): boolean {
    const entry = this.entries.get(ruleId);
    if (entry === undefined || entry.negative.length === 0) return false;
    const key = normalizeText(question);
    return entry.negative.some((word) => containsKey(key, word));
  }

  /** What the saved index keeps. */
  saved(): PolicyEntry[] {
    return [...this.entries.values()];
  }

  restore(entries: readonly PolicyEntry[]): void {
    for (const entry of entries) this.entries.set(entry.ruleId, entry);
  }

  /**
   * The decision once policies apply to the similarity candidates of `question`: rules whose
   * negative keyword the question contains are left out; exact rules answer only an equal
   * phrasing (score 1), contains rules a phrasing found in the question (`CONTAINS_SCORE`),
   * ahead of every inexact similarity candidate. The longest keyword found wins; two as long
   * are a genuine ambiguity (RECOMMEND).
   */
  decide(
    question: string,
    similar: readonly Candidate[],
    nowMs: number,
    settings: MatchSettings,
  ): MatchDecision {
    const key = normalizeText(question);
    const excluded: Exclusion[] = [];
    const refused = (entry: PolicyEntry): boolean => {
      const at = entry.negative.findIndex((word) => containsKey(key, word));
      if (at < 0) return false;
      excluded.push({ ruleId: entry.ruleId, keyword: entry.negativeTexts[at] ?? '' });
      return true;
    };
    const hits: { candidate: Candidate; length: number }[] = [];
    for (const entry of this.entries.values()) {
      if (entry.policy === 'similarity' || !eligible(entry, nowMs)) continue;
      let best = -1;
      for (let i = 0; i < entry.keys.length; i += 1) {
        const form = entry.keys[i] ?? '';
        const found = entry.policy === 'exact' ? form === key : containsKey(key, form);
        if (found && (best < 0 || form.length > (entry.keys[best] ?? '').length)) best = i;
      }
      if (best < 0 || refused(entry)) continue;
      const exact = entry.keys[best] === key;
      hits.push({
        length: exact ? Number.MAX_SAFE_INTEGER : (entry.keys[best] ?? '').length,
        candidate: {
          ruleId: entry.ruleId,
          question: entry.texts[best] ?? '',
          score: exact ? 1 : CONTAINS_SCORE,
          parts: {},
          policy: entry.policy,
          ...(exact ? {} : { keyword: entry.texts[best] ?? '' }),
        },
      });
    }
    const kept = similar.filter((candidate) => {
      const entry = this.entries.get(candidate.ruleId);
      return entry === undefined || !refused(entry);
    });
    hits.sort((a, b) => b.length - a.length);
    const first = hits[0];
    let decision: MatchDecision;
    const exactSimilar = kept[0]?.score === 1;
    if (first === undefined || exactSimilar) {
      decision = decide([...kept, ...hits.map((hit) => hit.candidate)].sort(byScore), settings);
    } else {
      const candidates = [...hits.map((hit) => hit.candidate), ...kept];
      const tie = hits[1] !== undefined && hits[1].length === first.length;
      decision = tie
        ? decide(candidates, { ...settings, bestmatchThreshold: 1.1 })
        : { kind: 'bestmatch', top: first.candidate, candidates };
    }
    if (excluded.length > 0) decision.excluded = excluded;
    return decision;
  }
}

const byScore = (a: Candidate, b: Candidate) => b.score - a.score;

function sameTexts(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((text, i) => text === b[i]);
}
