/**
 * Character-level fuzzy similarity: fuse.js's Bitap score, used only on the phrasings of the
 * few best rules, with the options the calibration was fitted with (`ignoreLocation`, threshold
 * 0.7, case-sensitive, field-length norm on).
 *
 * This is fuse.js 7's own algorithm (Apache-2.0: `search/bitap/search.ts`, `BitapSearch`,
 * `tools/fieldNorm.ts`, `core/computeScore.ts`) restricted to those options, with its bit
 * arrays and pattern alphabet in typed scratch space instead of objects made per question:
 * `new Fuse(texts).search(question)` built an index, an alphabet and an array per error count
 * every time, about a fifth of an answer's cost. It must give fuse.js's numbers to the last
 * bit (the calibration reads them); tests/unit/matching/fuzzy.test.ts compares the two over
 * thousands of pairs.
 * @module
 */

/** fuse.js's limit: longer patterns are searched in chunks of this many code units. */
const MAX_BITS = 32;
const THRESHOLD = 0.7;
const MIN_SCORE = 0.001;

/** The pattern's alphabet: a bit mask per UTF-16 code unit (zero where the pattern has none). */
const alphabet = new Int32Array(0x10000);
let lastBits = new Int32Array(256);
let bits = new Int32Array(256);

/**
 * For each of `texts` (already normalised), a similarity to `query` in 0..1 (1 = identical,
 * 0 = no fuzzy match at all).
 */
export function fuzzySimilarities(query: string, texts: readonly string[]): number[] {
  return texts.map((text) => fuzzySimilarity(query, text));
}

/** `fuzzySimilarities` of one text. */
export function fuzzySimilarity(query: string, text: string): number {
  // fuse.js answers a blank query with every text unscored, and never matches a blank text.
  if (isBlank(query) || isBlank(text)) return 0;
  const score = bitapScore(query, text);
  return score === null ? 0 : 1 - Math.pow(score, fieldNorm(text));
}

function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

/** fuse.js's field-length norm (weight 1, three decimals). */
function fieldNorm(text: string): number {
  let tokens = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!((code >= 9 && code <= 13) || code === 32 || code === 160)) {
      if (!inWord) {
        tokens++;
        inWord = true;
      }
    } else inWord = false;
  }
  if (tokens === 0) tokens = 1;
  return Math.round(1000 / Math.pow(tokens, 0.5)) / 1000;
}

/** `BitapSearch.searchIn`: the score (0 best), or null when no chunk matches. */
function bitapScore(pattern: string, text: string): number | null {
  if (pattern === text) return 0;
  const length = pattern.length;
  if (length <= MAX_BITS) {
    const score = chunkScore(text, pattern, 0, length, 0);
    return score < 0 ? null : score;
  }
  let total = 0;
  let matched = false;
  let chunks = 0;
  const remainder = length % MAX_BITS;
  const end = length - remainder;
  for (let i = 0; i < end; i += MAX_BITS) {
    const score = chunkScore(text, pattern, i, MAX_BITS, i);
    matched ||= score >= 0;
    total += Math.abs(score);
    chunks += 1;
  }
  if (remainder) {
    const start = length - MAX_BITS;
    const score = chunkScore(text, pattern, start, MAX_BITS, start);
    matched ||= score >= 0;
    total += Math.abs(score);
    chunks += 1;
  }
  return matched ? total / chunks : null;
}

/**
 * fuse.js's `search` for the chunk `pattern.substr(from, patternLen)` at `location`: its score
 * (`max(0.001, finalScore)`), negated when it is not a match (the chunk still counts in the
 * average of the chunks' scores).
 */
function chunkScore(
  text: string,
  pattern: string,
  from: number,
  patternLen: number,
  location: number,
): number {
  for (let i = 0; i < patternLen; i += 1) {
    const code = pattern.charCodeAt(from + i);
    alphabet[code] = (alphabet[code] as number) | (1 << (patternLen - i - 1));
  }
  const score = search(text, pattern.substr(from, patternLen), patternLen, location);
  for (let i = 0; i < patternLen; i += 1) alphabet[pattern.charCodeAt(from + i)] = 0;
  return score;
}

function search(text: string, pattern: string, patternLen: number, location: number): number {
  const textLen = text.length;
  const expectedLocation = Math.max(0, Math.min(location, textLen));
  let currentThreshold = THRESHOLD;
  let bestLocation = expectedLocation;
  // ignoreLocation: the score of a match is its share of errors, wherever it is.
  const calcScore = (errors: number) => errors / patternLen;
  let index: number;
  while ((index = text.indexOf(pattern, bestLocation)) > -1) {
    currentThreshold = Math.min(calcScore(0), currentThreshold);
    bestLocation = index + patternLen;
  }
  bestLocation = -1;
  let finalScore = 1;
  let binMax = patternLen + textLen;
  const mask = 1 << (patternLen - 1);
  if (bits.length < binMax + 2) {
    bits = new Int32Array(binMax + 2);
    lastBits = new Int32Array(binMax + 2);
  }
  let current = bits;
  let last = lastBits;
  for (let i = 0; i < patternLen; i += 1) {
    let binMin = 0;
    let binMid = binMax;
    while (binMin < binMid) {
      if (calcScore(i) <= currentThreshold) binMin = binMid;
      else binMax = binMid;
      binMid = Math.floor((binMax - binMin) / 2 + binMin);
    }
    binMax = binMid;
    let start = Math.max(1, expectedLocation - binMid + 1);
    const finish = Math.min(expectedLocation + binMid, textLen) + patternLen;
    // A new array per error count in fuse.js: entries not written below read as 0.
    current.fill(0, 0, finish + 2);
    current[finish + 1] = (1 << i) - 1;
    for (let j = finish; j >= start; j -= 1) {
      const currentLocation = j - 1;
      const charMatch =
        currentLocation < textLen ? (alphabet[text.charCodeAt(currentLocation)] as number) : 0;
      let value = (((current[j + 1] as number) << 1) | 1) & charMatch;
      if (i) {
        value |=
          (((last[j + 1] as number) | (last[j] as number)) << 1) | 1 | (last[j + 1] as number);
      }
      current[j] = value;
      if (value & mask) {
        finalScore = calcScore(i);
        if (finalScore <= currentThreshold) {
          currentThreshold = finalScore;
          bestLocation = currentLocation;
          if (bestLocation <= expectedLocation) break;
          start = Math.max(1, 2 * expectedLocation - bestLocation);
        }
      }
    }
    if (calcScore(i + 1) > currentThreshold) break;
    const swap = last;
    last = current;
    current = swap;
  }
  const score = Math.max(MIN_SCORE, finalScore);
  return bestLocation >= 0 ? score : -score;
}
