/**
 * A rule's answer searched in its own column instead of a second copy in `search_text`
 * (decision 200, the embedded store only: its database lives in the process's memory, and the
 * keyed answer was a third of it). Only answers whose key a `LIKE` on the answer itself finds
 * exactly are left out: those whose text key (the matcher's normalisation) is the answer with
 * ASCII letters lower-cased and every run of other characters than letters, digits and marks
 * made one space (`plainKey`). That is most Simplified Chinese and plain English: the
 * normalisation's other steps (width, script, accents, contractions) change nothing there, which
 * is checked on each answer as it is written. Any other answer stays in `search_text` as before.
 *
 * Why a `LIKE` on such an answer is exact: a filter's key is itself normalised, so a one-word key
 * is made of letters, digits and marks only, in lower case. SQLite's `LIKE` folds ASCII case
 * only, the case `plainKey` folds; and a run of word characters found in the answer lies within
 * one of the answer key's words, unchanged. A key of several words needs the characters between
 * them to be one run of non-word characters: `LIKE` with `%` between the words finds candidates,
 * and `plainKey` (a SQL function, `PLAIN_KEY_FUNCTION`) confirms them.
 * @module
 */

/** Letters, digits and marks are words; anything else separates them (as in the normaliser). */
const NON_WORD = /[^\p{L}\p{N}\p{M}]+/gu;
const ASCII_UPPER = /[A-Z]+/g;

/** Opens a search text that leaves its answer out: a control character no key can hold. */
export const RAW_ANSWER_MARK = '\u0001';

/** The SQL function the embedded store registers for `plainKey`. */
export const PLAIN_KEY_FUNCTION = 'kb_plain_key';

/** The answer with ASCII letters in lower case and non-word runs as single spaces, trimmed. */
export function plainKey(text: string): string {
  return text
    .replace(ASCII_UPPER, (upper) => upper.toLowerCase())
    .replace(NON_WORD, ' ')
    .trim();
}

/** Whether `answerKey` (the answer's text key) is what a `LIKE` on the answer itself finds. */
export function answerSearchableRaw(answer: string, answerKey: string): boolean {
  return answerKey === plainKey(answer);
}

/**
 * The condition that finds `key` (a non-empty text key) in a rule: in its search text (`inText`,
 * the `LIKE` every store runs), else in an answer left out of it (`search_text` opening with
 * `RAW_ANSWER_MARK`). A `CASE`, not `OR`/`AND`: SQLite short-circuits those only where they
 * decide a jump (a `WHERE`), and the editor's scan reads the condition as a column
 * (rule-page-scan.ts), where an `AND` evaluates both sides: `kb_plain_key` was called on every
 * answer (×13 the time of a two-word filter that found nothing). `param` adds a parameter and
 * returns its placeholder; `keyPattern` is the placeholder of `%key%`, escaped.
 */
export function rawAnswerCondition(
  inText: string,
  key: string,
  keyPattern: string,
  param: (value: string) => string,
  escapeLike: (text: string) => string,
): string {
  const words = key.split(' ');
  const candidates = param(`%${words.map(escapeLike).join('%')}%`);
  const exact =
    words.length > 1 ? `${PLAIN_KEY_FUNCTION}(answer) LIKE ${keyPattern} ESCAPE '\\'` : '1';
  return `(CASE WHEN ${inText} THEN 1
    WHEN substr(search_text, 1, 1) = char(1) AND answer LIKE ${candidates} ESCAPE '\\' THEN ${exact}
    ELSE 0 END)`;
}
