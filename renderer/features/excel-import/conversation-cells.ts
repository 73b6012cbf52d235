/**
 * The spreadsheet cells of a rule's match policy, negative keywords and menu, written by the
 * export and read back by the import (docs/conversation.md, "Excel"). A menu cell has one entry
 * per line, `entry text => rule name`: rules are named, since ids change from robot to robot.
 * @module
 */
import type { MatchPolicy } from '../../../electron/service/console-types';

const POLICY_WORDS: Record<string, MatchPolicy> = {
  similarity: 'similarity',
  similar: 'similarity',
  相似: 'similarity',
  exact: 'exact',
  精确: 'exact',
  contains: 'contains',
  keyword: 'contains',
  包含: 'contains',
};

/** A policy cell: `similarity`, `exact`, `contains` (or 相似, 精确, 包含); null when not one. */
export function parsePolicy(cell: string): MatchPolicy | null | undefined {
  const word = cell.trim().toLowerCase();
  if (word === '') return undefined;
  return POLICY_WORDS[word] ?? null;
}

/** Keywords one per line, or separated by semicolons or commas. */
export function parseKeywords(cell: string): string[] {
  return cell
    .split(/[\n;；,，]/)
    .map((word) => word.trim())
    .filter((word) => word !== '');
}

export const formatKeywords = (words: readonly string[]): string => words.join('\n');

export interface MenuCellEntry {
  text: string;
  ruleName: string;
}

const ARROW = /\s*(?:=>|→)\s*/;

/** One entry per line: `text => rule name`, or a rule name alone (its name is the text). */
export function parseMenu(cell: string): MenuCellEntry[] {
  return cell
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      // At the last arrow: an entry's text may hold one, a rule name rarely does.
      const parts = line.split(ARROW);
      if (parts.length < 2) return { text: line, ruleName: line };
      const ruleName = (parts.pop() ?? '').trim();
      const text = parts.join(' => ').trim();
      return { text: text === '' ? ruleName : text, ruleName };
    });
}

export function formatMenu(entries: readonly MenuCellEntry[]): string {
  return entries.map((entry) => `${entry.text} => ${entry.ruleName}`).join('\n');
}
