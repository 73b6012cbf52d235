/**
 * The inbox of missed questions as the editor sees it, from the groups the figures keep
 * (fallback answers, RECOMMEND lists and low BESTMATCH scores of the openapi, grouped as they
 * arrive: grouping.ts), with the rules users chose from the recommendations (click feedback), and
 * a rule to add the questions to when the evidence supports one.
 * @module
 */
import type { InboxGroup } from '../question-log-types';
import type { InboxGroupRow } from '../store/contract/question-log';
import { INBOX_RULES_MAX } from '../store/contract/question-log';

/**
 * The rule a group's questions should be added to, if the evidence supports one: the rule users
 * chose most from its RECOMMEND lists; else the rule the matcher's ranking put clearly first (a
 * RECOMMEND's first item well ahead of the second) for at least half of the group's
 * occurrences. A fallback, a RECOMMEND of close scores or a barely matched BESTMATCH says
 * nothing sure of which rule was meant: no suggestion then.
 */
export function suggestedRule(row: InboxGroupRow): string | null {
  const chosen = row.chosen[0];
  if (chosen) return chosen.ruleId;
  const evidence = row.evidence[0];
  if (evidence && evidence.count * 2 >= row.count) return evidence.ruleId;
  return null;
}

/** The editor's group: examples, choices with rule names, the suggestion (named, or none). */
export function inboxGroup(row: InboxGroupRow, names: ReadonlyMap<string, string>): InboxGroup {
  const chosen = row.chosen.slice(0, INBOX_RULES_MAX);
  const suggested = suggestedRule(row);
  const named = suggested !== null && names.has(suggested) ? suggested : null;
  return {
    key: row.group,
    count: row.count,
    examples: row.texts.map((text) => ({ question: text.text, count: text.count })),
    lastAt: row.lastAt,
    outcomes: row.outcomes,
    chosen: chosen
      .filter((choice) => names.has(choice.ruleId))
      .map((choice) => ({ ...choice, ruleName: names.get(choice.ruleId) ?? '' })),
    suggestedRuleId: named,
    suggestedRuleName: named === null ? null : (names.get(named) ?? null),
  };
}

/** The rules a group names (its choices and its suggestion), to look their names up. */
export function rulesNamed(row: InboxGroupRow): string[] {
  const suggested = suggestedRule(row);
  const chosen = row.chosen.slice(0, INBOX_RULES_MAX);
  return [...chosen.map((choice) => choice.ruleId), ...(suggested ? [suggested] : [])];
}
