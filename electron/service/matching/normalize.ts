/**
 * Text normalisation shared by indexing and querying, so that both sides see the same text.
 * The output is lower-case, NFKC-folded (full width → half width), Simplified Chinese, with
 * punctuation, symbols and emoji replaced by single spaces.
 * @module
 */
import { toSimplified } from './to-simplified';

// Keeps letters, digits and combining marks (a mark can carry meaning in some scripts); the rest
// (punctuation, symbols, emoji, controls, zero-width joiners) separates words.
const NON_WORD = /[^\p{L}\p{N}\p{M}]+/gu;
// Emoji presentation selectors and keycap marks are marks by category but never carry meaning.
const EMOJI_MARKS = /[\u{FE0E}\u{FE0F}\u{20E3}\u{E0020}-\u{E007F}]/gu;
const LATIN_ACCENTS = /[\u0300-\u036f]/g;
// Curly apostrophes must behave like straight ones for contractions.
const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4]/g;
const IRREGULAR_NEGATIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcan't\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\bshan't\b/g, 'shall not'],
  [/\bain't\b/g, 'is not'],
];
// "n't" must survive as "not": negation flips the meaning of a question.
const NT = /n't\b/g;
const APOSTROPHE = /'/g;

function isAsciiPrintable(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c > 0x7e) return false;
  }
  return true;
}

/**
 * Code points that NFKC and NFD leave alone and that have no case: ASCII, CJK punctuation
 * 、。〃…〕 (U+3001–U+3035) and the CJK Unified Ideographs block. Text made only of these (most
 * Simplified Chinese) skips the Unicode normalisation passes, the costliest part of indexing it.
 * A unit test checks every code point of these ranges.
 */
export function isNormalizationStable(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c <= 0x7e || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3001 && c <= 0x3035)) continue;
    return false;
  }
  return true;
}

function foldContractions(text: string): string {
  if (!text.includes("'")) return text;
  let out = text;
  for (const [pattern, replacement] of IRREGULAR_NEGATIONS) out = out.replace(pattern, replacement);
  // Other clitics ('s, 're, 'm …) are joined to their word; the stemmer and stop list absorb them.
  return out.replace(NT, ' not').replace(APOSTROPHE, '');
}

/**
 * Normalises a question or phrasing. Words are separated by single spaces; the result has no
 * leading or trailing space and may be empty (e.g. a question made only of emoji).
 */
export function normalizeText(input: string): string {
  let text: string;
  if (isAsciiPrintable(input)) {
    // ASCII is already NFKC and has no Chinese: skipping those passes keeps bulk imports fast.
    text = foldContractions(input.toLowerCase());
  } else if (isNormalizationStable(input)) {
    text = foldContractions(toSimplified(input.toLowerCase()));
  } else {
    text = input.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'");
    text = toSimplified(text);
    text = foldContractions(text);
    // Accents on Latin letters are often dropped by users typing quickly ("cafe" for "café").
    text = text.normalize('NFD').replace(LATIN_ACCENTS, '').normalize('NFC');
    text = text.replace(EMOJI_MARKS, ' ');
  }
  return text.replace(NON_WORD, ' ').trim();
}
