/**
 * Phrasings as the editor compares them, and what adding one from the try pane did (written by
 * the grid's editing, shown by the try pane).
 * @module
 */
import type { ConsoleRule } from '../../../electron/service/console-types';

/** A phrasing compared as a person would: width, case and end punctuation ignored. */
export function samePhrasing(a: string, b: string): boolean {
  const key = (text: string) =>
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[\s?!.。？！]+$/u, '')
      .trim();
  return key(a) === key(b);
}

/** What adding a phrasing from the try pane did: added, or why not. */
export interface PhrasingOutcome {
  kind: 'added' | 'present' | 'full';
  rule: ConsoleRule;
}
