/**
 * What one logged answer adds to its robot's figures (store/contract/question-log.ts,
 * `EntryFigures`): made as the ask is recorded, and again from the raw log when figures are
 * rebuilt. The same question text comes back again and again: its normalised form is kept in a
 * small cache, so that an ask costs a few map lookups.
 * @module
 */
import { normalizeText } from '../matching/normalize';
import type { LoggedQuestion } from '../question-log-types';
import type { EntryFigures, InboxMark, MissKind } from '../store/contract/question-log';
import { DAY_MS, outcomeOf } from '../store/contract/question-log';
import type { GroupIndex } from './grouping';

const HOUR_MS = 3_600_000;
/** Distinct texts whose normalised form is remembered (then the cache starts again). */
const KEYS_MAX = 50_000;

/** The normalised form of texts, remembered. */
export class TextKeys {
  private keys = new Map<string, string>();

  of(text: string): string {
    let key = this.keys.get(text);
    if (key === undefined) {
      key = normalizeText(text);
      if (this.keys.size >= KEYS_MAX) this.keys = new Map();
      this.keys.set(text, key);
    }
    return key;
  }
}

/** What a robot's settings say of its misses. */
export interface MissSettings {
  /** A BESTMATCH or MENU under this score is in the inbox (answered, but barely). */
  lowScore: number;
  /**
   * A RECOMMEND whose first item scores at least this, `margin` ahead of the second, points to
   * that rule clearly enough to suggest it.
   */
  evidenceScore: number;
  margin: number;
}

/**
 * Why an entry is a miss, if it is: the fallback, a RECOMMEND, or a rule matched under
 * `lowScore`. Small talk (module CHAT) is none: it answered what the knowledge base is not for;
 * nor is a menu reply.
 */
export function missKind(entry: LoggedQuestion, lowScore: number): MissKind | null {
  if (entry.module === 'NONE') return 'fallback';
  if (entry.module !== 'KB') return null;
  if (entry.answerType === 'RECOMMEND') return 'recommended';
  return entry.menuEntry === null && entry.score < lowScore ? 'lowScore' : null;
}

/** The marks of one log, by normalised question, as the inbox reads them. */
export class MarkIndex {
  private readonly byKey = new Map<string, InboxMark>();

  constructor(marks: readonly InboxMark[] = []) {
    for (const mark of marks) this.byKey.set(mark.key, mark);
  }

  get(key: string): InboxMark | undefined {
    return this.byKey.get(key);
  }

  get size(): number {
    return this.byKey.size;
  }
}

/** A dismissed question stays out of the inbox for this long after its dismissal. */
export const DISMISS_MS = 30 * DAY_MS;

/** Until when a mark hides occurrences of its question (ms). */
export const hiddenUntil = (mark: InboxMark): number =>
  mark.kind === 'dismissed' ? mark.at + DISMISS_MS : mark.at;

/**
 * Whether a miss of normalised question `key` shows in the inbox, given its mark: not when it
 * happened up to the mark (a dismissal hides the 30 days after it too), nor a fallback the mark
 * says is right, nor (review mode) one answered by the version published when it was fixed or an
 * older one (the fix was in the draft).
 */
export function shownDespite(mark: InboxMark | undefined, entry: LoggedQuestion): boolean {
  if (mark === undefined) return true;
  if (mark.kind === 'fallback' && entry.module === 'NONE') return false;
  if (
    mark.kind !== 'dismissed' &&
    typeof mark.version === 'number' &&
    entry.version !== null &&
    entry.version <= mark.version
  ) {
    return false;
  }
  return entry.at > hiddenUntil(mark);
}

/**
 * The rule a miss points to clearly, if any (the inbox's evidence for a suggestion): a
 * RECOMMEND's first item well ahead of the second. A low-score BESTMATCH is none: its runner-up
 * is not known, and a barely matched rule is as often the wrong one (能开收据吗 → 开箱验货).
 */
function evidenceOf(entry: LoggedQuestion, kind: MissKind, settings: MissSettings): string | null {
  if (kind !== 'recommended') return null;
  const first = entry.recommended[0];
  if (first === undefined || entry.runnerUp === undefined) return null;
  const clear =
    entry.score >= settings.evidenceScore && entry.score - entry.runnerUp >= settings.margin;
  return clear ? first : null;
}

export interface FiguresContext {
  settings: MissSettings;
  marks: MarkIndex;
  groups: GroupIndex;
  keys: TextKeys;
}

/** The figures of an entry; null for the try pane's questions, which count nowhere. */
export function entryFigures(entry: LoggedQuestion, context: FiguresContext): EntryFigures | null {
  if (entry.source !== 'api') return null;
  const { keys, groups, marks, settings } = context;
  const outcome = outcomeOf(entry);
  const key = entry.menuEntry === null ? keys.of(entry.question) : null;
  const kind = missKind(entry, settings.lowScore);
  const recommended = entry.answerType === 'RECOMMEND' ? entry.recommended : [];
  const [a, b] = recommended;
  let inbox: EntryFigures['inbox'] = null;
  if (kind !== null && key !== null && shownDespite(marks.get(key), entry)) {
    inbox = {
      key,
      group: groups.groupOfKey(key),
      text: entry.question,
      kind,
      evidence: evidenceOf(entry, kind, settings),
    };
  }
  let choice: EntryFigures['choice'] = null;
  if (entry.chosenFrom !== null && entry.ruleId !== null) {
    const from = keys.of(entry.chosenFrom);
    choice = {
      key: from,
      group: groups.groupOfKey(from),
      text: entry.chosenFrom,
      ruleId: entry.ruleId,
    };
  }
  return {
    at: entry.at,
    day: Math.floor(entry.at / DAY_MS),
    hour: Math.floor((entry.at % DAY_MS) / HOUR_MS),
    outcome,
    hit:
      entry.module === 'KB' && entry.ruleId !== null && entry.answerType !== 'RECOMMEND'
        ? {
            ruleId: entry.ruleId,
            chosen: entry.chosenFrom !== null,
            fromMenu: entry.menuEntry !== null,
          }
        : null,
    recommended,
    pair: a !== undefined && b !== undefined ? (a < b ? [a, b] : [b, a]) : null,
    question: key === null ? null : { key, text: entry.question },
    missed: outcome === 'fallback' || outcome === 'recommended',
    inbox,
    choice,
  };
}
