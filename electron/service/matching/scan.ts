/**
 * A one-pass scanner for the text most questions are made of: ASCII and Simplified Chinese with
 * common punctuation. It produces exactly what `normalizeText` + `tokenize` + the Han term loop
 * produce (a unit test compares them over generated text), without the regular expressions,
 * intermediate strings and Unicode normalisation passes: those dominated index building.
 * Anything else (other scripts, full-width letters, apostrophes, Traditional characters) returns
 * null and takes the general path.
 * @module
 */
import { hanBigramKey, hanUnigramKey } from './han-terms';
import type { TextTerms } from './han-terms';
import { isTraditionalOnly } from './to-simplified';
import { isHanStopCode, pushWord } from './tokenize';

const enum Kind {
  Separator,
  Word,
  Han,
  Unsupported,
}

/**
 * What each code unit is, for the ones the scanner accepts. Separators are exactly the
 * characters that Unicode normalisation and `normalizeText` turn into word breaks: ASCII and
 * full-width punctuation (NFKC maps the latter to the former), CJK brackets and full stops,
 * ideographic space, dashes, ellipsis and double quotes. Apostrophes are left to the general
 * path (contractions).
 */
function kindOf(code: number): Kind {
  if (code < 0x80) {
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)) return Kind.Word;
    if (code >= 0x41 && code <= 0x5a) return Kind.Word;
    if (code === 0x27 || code === 0x60) return Kind.Unsupported;
    return Kind.Separator;
  }
  if (code >= 0x4e00 && code <= 0x9fff) return Kind.Han;
  if (code === 0x3000 || code === 0x3001 || code === 0x3002) return Kind.Separator;
  if (code >= 0x3008 && code <= 0x3011) return Kind.Separator;
  if (code >= 0x3014 && code <= 0x301b) return Kind.Separator;
  if (code === 0x2014 || code === 0x2026 || code === 0x201c || code === 0x201d)
    return Kind.Separator;
  if (code >= 0xff01 && code <= 0xff0f && code !== 0xff07) return Kind.Separator;
  if ((code >= 0xff1a && code <= 0xff20) || (code >= 0xff3b && code <= 0xff3f))
    return Kind.Separator;
  if (code >= 0xff5b && code <= 0xff5e) return Kind.Separator;
  return Kind.Unsupported;
}

export function scanSimpleText(text: string): TextTerms | null {
  const words: string[] = [];
  const han: number[] = [];
  let key = '';
  let wordStart = -1;
  let previousHan = -1;
  let pendingSpace = false;
  const length = text.length;
  for (let i = 0; i <= length; i += 1) {
    const code = i < length ? text.charCodeAt(i) : 0x20;
    const kind = kindOf(code);
    if (kind === Kind.Unsupported) return null;
    if (kind !== Kind.Word && wordStart >= 0) {
      const word = text.slice(wordStart, i).toLowerCase();
      pushWord(words, word);
      key += word;
      wordStart = -1;
    }
    if (kind === Kind.Separator) {
      previousHan = -1;
      if (key.length > 0) pendingSpace = true;
      continue;
    }
    if (pendingSpace) {
      key += ' ';
      pendingSpace = false;
    }
    if (kind === Kind.Word) {
      previousHan = -1;
      if (wordStart < 0) wordStart = i;
      continue;
    }
    if (isTraditionalOnly(code)) return null;
    key += text[i];
    // A particle alone is noise, but inside a bigram it still tells phrases apart (天气的/的天气).
    if (!isHanStopCode(code)) han.push(hanUnigramKey(code));
    if (previousHan >= 0) han.push(hanBigramKey(previousHan, code));
    previousHan = code;
  }
  return { key, words, han };
}
