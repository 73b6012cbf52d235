/**
 * The inbox of missed questions: fallback answers, RECOMMEND lists and low BESTMATCH scores of
 * the openapi, grouped by similarity, with what users chose from the recommendations (click
 * feedback) offered first. Handled and dismissed questions are kept out by their marks.
 * @module
 */
import { normalizeText } from '../matching/normalize';
import type { InboxGroup, LoggedQuestion } from '../question-log-types';
import type { InboxMark } from '../store/contract/question-log';
import { groupSimilar } from './grouping';

/** A dismissed question stays out of the inbox for this long after its dismissal. */
export const DISMISS_MS = 30 * 86_400_000;
/** Distinct questions shown per group. */
const EXAMPLES_MAX = 10;

/**
 * Whether an entry is a miss: the fallback, a RECOMMEND, or a rule matched under `lowScore`.
 * Small talk (module CHAT) is not: it answered what the knowledge base is not for.
 */
export function isMissed(entry: LoggedQuestion, lowScore: number): boolean {
  if (entry.module === 'NONE') return true;
  if (entry.module !== 'KB') return false;
  if (entry.answerType === 'RECOMMEND') return true;
  return entry.menuEntry === null && entry.score < lowScore;
}

/** Until when a mark hides occurrences of its question (ms). */
const hiddenUntil = (mark: InboxMark) =>
  mark.kind === 'dismissed' ? mark.at + DISMISS_MS : mark.at;

export interface InboxInput {
  entries: readonly LoggedQuestion[];
  marks: readonly InboxMark[];
  lowScore: number;
}

/** The groups, without rule names (inbox groups name their suggested rule later). */
export function buildInbox(input: InboxInput): (Omit<InboxGroup, 'chosen' | 'suggestedRuleName'> & {
  chosen: { ruleId: string; count: number }[];
  /** Normalised texts of the group (what a mark is set on). */
  texts: string[];
})[] {
  const hidden = new Map<string, number>();
  const fallbackExpected = new Set<string>();
  /** Handled in review mode: occurrences answered by versions up to this one predate the fix. */
  const unfixedUpTo = new Map<string, number>();
  for (const mark of input.marks) {
    hidden.set(mark.key, Math.max(hidden.get(mark.key) ?? 0, hiddenUntil(mark)));
    if (mark.kind === 'fallback') fallbackExpected.add(mark.key);
    if (mark.kind !== 'dismissed' && typeof mark.version === 'number') {
      unfixedUpTo.set(mark.key, Math.max(unfixedUpTo.get(mark.key) ?? 0, mark.version));
    }
  }
  // Choices from recommendations, by the normalised question that got the RECOMMEND.
  const choices = new Map<string, Map<string, number>>();
  const missed: LoggedQuestion[] = [];
  for (const entry of input.entries) {
    if (entry.source !== 'api') continue;
    if (entry.chosenFrom !== null && entry.ruleId !== null) {
      const from = normalizeText(entry.chosenFrom);
      const rules = choices.get(from) ?? new Map<string, number>();
      rules.set(entry.ruleId, (rules.get(entry.ruleId) ?? 0) + 1);
      choices.set(from, rules);
    }
    if (isMissed(entry, input.lowScore)) missed.push(entry);
  }
  const visible = missed.filter((entry) => {
    if (hidden.size === 0) return true;
    const key = normalizeText(entry.question);
    if (entry.module === 'NONE' && fallbackExpected.has(key)) return false;
    const unfixed = unfixedUpTo.get(key);
    if (unfixed !== undefined && entry.version !== null && entry.version <= unfixed) return false;
    const until = hidden.get(key);
    return until === undefined || entry.at > until;
  });
  return groupSimilar(visible, (entry) => entry.question)
    .map((group) => {
      const chosen = new Map<string, number>();
      const recommended = new Map<string, number>();
      const outcomes = { fallback: 0, recommended: 0, lowScore: 0 };
      const examples: { question: string; count: number }[] = [];
      let lastAt = 0;
      for (const text of group.texts) {
        for (const [ruleId, count] of choices.get(text.key) ?? []) {
          chosen.set(ruleId, (chosen.get(ruleId) ?? 0) + count);
        }
        // The text as users typed it most often stands for its normalised form.
        const spellings = new Map<string, number>();
        for (const entry of text.items) {
          lastAt = Math.max(lastAt, entry.at);
          spellings.set(entry.question, (spellings.get(entry.question) ?? 0) + 1);
          if (entry.module === 'NONE') outcomes.fallback += 1;
          else if (entry.answerType === 'RECOMMEND') outcomes.recommended += 1;
          else outcomes.lowScore += 1;
          const proposed = entry.recommended[0] ?? entry.ruleId;
          if (proposed) recommended.set(proposed, (recommended.get(proposed) ?? 0) + 1);
        }
        if (examples.length < EXAMPLES_MAX) {
          const [spelling] = [...spellings].sort((a, b) => b[1] - a[1]);
          if (spelling) examples.push({ question: spelling[0], count: text.items.length });
        }
      }
      const byCount = (map: Map<string, number>) =>
        [...map].sort((a, b) => b[1] - a[1]).map(([ruleId, count]) => ({ ruleId, count }));
      const chosenList = byCount(chosen);
      return {
        key: group.key,
        count: group.count,
        examples,
        lastAt,
        outcomes,
        chosen: chosenList,
        suggestedRuleId: chosenList[0]?.ruleId ?? byCount(recommended)[0]?.ruleId ?? null,
        texts: group.texts.map((text) => text.key),
      };
    })
    .sort((a, b) => Number(b.chosen.length > 0) - Number(a.chosen.length > 0) || b.count - a.count);
}
