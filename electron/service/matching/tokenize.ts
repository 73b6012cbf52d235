/**
 * Splits normalised text into the units the index works with: stemmed words for scripts that
 * separate words with spaces, and runs of Han (and kana) characters, which have no word
 * boundaries and are indexed as character uni- and bigrams instead of being segmented.
 * @module
 */
import { stemmer } from 'stemmer';
import { CHINESE_STOP_CHARS, ENGLISH_STOP_WORDS } from './stop-words';

export interface Tokens {
  /** Stemmed words outside Han runs, stop words removed, in order. */
  words: string[];
  /** Maximal runs of Han/kana characters, stop characters still inside (bigrams need them). */
  hanRuns: string[];
}

// Stemming is the costliest step per word and vocabularies are small, so results are memoised.
const STEM_CACHE_LIMIT = 200_000;
const stemCache = new Map<string, string>();

/** Han ideographs and kana: scripts written without spaces between words. */
export function isHanCode(code: number): boolean {
  return (
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x20000 && code <= 0x3134f)
  );
}

function stemWord(word: string): string {
  // Numbers and one-letter words have no morphology; stemming "2" or "us" only does harm. Nor
  // are they cached: a knowledge base's numbers and codes (one per rule in the bench's 100k)
  // would fill the cache with entries that cost more to look up than to test.
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const stem = stemmer(word);
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(word, stem);
  return stem;
}

/** Appends a word's stem to `out` unless it is a stop word. */
export function pushWord(out: string[], word: string): void {
  if (word.length === 0 || ENGLISH_STOP_WORDS.has(word)) return;
  out.push(stemWord(word));
}

/** Tokenises text that has already been through `normalizeText`. */
export function tokenize(normalized: string): Tokens {
  const words: string[] = [];
  const hanRuns: string[] = [];
  const length = normalized.length;
  let start = 0;
  let inHan = false;
  let i = 0;
  while (i <= length) {
    const code = i < length ? (normalized.codePointAt(i) ?? 32) : 32;
    const width = code > 0xffff ? 2 : 1;
    const han = isHanCode(code);
    const boundary = code === 32 || han !== inHan;
    if (boundary) {
      if (i > start) {
        const piece = normalized.slice(start, i);
        if (inHan) hanRuns.push(piece);
        else pushWord(words, piece);
      }
      start = code === 32 ? i + 1 : i;
      inHan = han;
    }
    i += width;
  }
  return { words, hanRuns };
}

const CHINESE_STOP_CODES: ReadonlySet<number> = new Set(
  [...CHINESE_STOP_CHARS].map((char) => char.codePointAt(0) ?? 0),
);

/** Whether a Han character (by code point) is a particle that carries no meaning alone. */
export function isHanStopCode(code: number): boolean {
  return CHINESE_STOP_CODES.has(code);
}
