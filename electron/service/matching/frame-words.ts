/**
 * Question frame words: pronouns, auxiliaries, question words and request phrases ("do you",
 * "how can I", 我要, 请问, 怎么). They rank rules like any word (dropping them cost P@1, see
 * stop-words.ts), but they say nothing about what is asked: a rule that shares only the frame
 * of a question ("Do you sell laptops?" and "Do you sell gift cards?" share "do you sell") has
 * not answered its content. The calibration reads coverage of the content terms only.
 * @module
 */
import { hanKeyFirstCode, hanKeySecondCode } from './han-terms';
import { pushWord } from './tokenize';

const ENGLISH = (
  'i me my mine you your yours we us our it its they them their this that these those there ' +
  'here do does did doing done can could would will shall should may might must is are am ' +
  'was were be been being have has had how what when where why which who whom whose to of ' +
  'for in on at by with from about into and or if so any some get got want need like know ' +
  'tell let help ask question possible way also still ' +
  // Chat spellings of the same (apostrophes are often left out).
  'u ur r pls plz im ive id ill youre thats whats wheres hows whos theres dont doesnt didnt ' +
  'cant wont isnt arent wasnt gonna wanna gotta hi hey ok okay yes no not'
).split(' ');

/** Characters that only frame a Chinese question. */
const CHINESE =
  '我你您他她它们要想请问怎么样如何什么哪里吗呢吧啊是的了有可以能会该应需在这那个一下些给把被还就都也和跟与或';

const englishFrame: ReadonlySet<string> = new Set(
  ENGLISH.flatMap((word) => {
    const stems: string[] = [];
    pushWord(stems, word);
    return [word, ...stems];
  }),
);

const chineseFrame: ReadonlySet<number> = new Set(
  [...CHINESE].map((char) => char.codePointAt(0) ?? 0),
);

/** Whether a (stemmed) word of a question only frames it. */
export function isFrameWord(word: string): boolean {
  return englishFrame.has(word);
}

/**
 * Whether a Han term (a character or a bigram, given by its key: han-terms.ts) frames a
 * question: a frame character, or a bigram with one (它们卖 → 们卖 straddles the frame and the
 * content).
 */
export function isFrameHanKey(key: number): boolean {
  return chineseFrame.has(hanKeyFirstCode(key)) || chineseFrame.has(hanKeySecondCode(key));
}

/** `isFrameHanKey` of a Han term given as text (a character or a bigram). */
export function isFrameHanTerm(text: string): boolean {
  for (const char of text) if (chineseFrame.has(char.codePointAt(0) ?? 0)) return true;
  return false;
}
