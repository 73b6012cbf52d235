/**
 * Traditional → Simplified Chinese. opencc-js ships its dictionaries inside the package, so this
 * works offline. The converter is built lazily (≈30 ms) and only called on text that contains a
 * Traditional-only character, because most questions are Simplified or Latin and the
 * converter's trie walk would otherwise dominate index building.
 * @module
 */
import { Converter, Locale } from 'opencc-js/t2cn';

type ConvertFn = (text: string) => string;

let convert: ConvertFn | null = null;
let traditionalOnly: Set<number> | null = null;

/**
 * Characters that a Simplified text never contains: they convert to something else on their
 * own and are not the result of converting any other character. Testing for these (rather
 * than for every character that starts a dictionary entry) keeps the converter off Simplified
 * text, where it would otherwise run on most sentences and even rewrite 么 as 幺.
 */
function collectTraditionalOnly(converter: ConvertFn): Set<number> {
  const starts = new Set<string>();
  for (const group of [...(Locale.from['tw'] ?? []), ...(Locale.to['cn'] ?? [])]) {
    for (const dict of group) {
      if (typeof dict === 'string') {
        for (const entry of dict.split('|'))
          starts.add(String.fromCodePoint(entry.codePointAt(0) ?? 0));
      } else {
        for (const [source] of dict) starts.add(String.fromCodePoint(source.codePointAt(0) ?? 0));
      }
    }
  }
  const changed = new Set<number>();
  const targets = new Set<number>();
  for (const char of starts) {
    const converted = converter(char);
    if (converted === char) continue;
    changed.add(char.codePointAt(0) ?? 0);
    for (const target of converted) targets.add(target.codePointAt(0) ?? 0);
  }
  for (const target of targets) changed.delete(target);
  return changed;
}

function traditionalOnlySet(): Set<number> {
  convert ??= Converter({ from: 'tw', to: 'cn' });
  traditionalOnly ??= collectTraditionalOnly(convert);
  return traditionalOnly;
}

let bmpTraditional: Uint8Array | null = null;

/** Whether a character only occurs in Traditional text (and so needs converting). */
export function isTraditionalOnly(code: number): boolean {
  if (code > 0xffff) return traditionalOnlySet().has(code);
  if (bmpTraditional === null) {
    // A flag per BMP code unit: the scanner asks for every Han character it reads.
    bmpTraditional = new Uint8Array(0x10000);
    for (const traditional of traditionalOnlySet()) {
      if (traditional <= 0xffff) bmpTraditional[traditional] = 1;
    }
  }
  return bmpTraditional[code] === 1;
}

/** Converts Traditional (Taiwan and standard) characters and variants to Simplified ones. */
export function toSimplified(text: string): string {
  const traditional = traditionalOnlySet();
  let needsConversion = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    // Han ideographs and the compatibility block start at U+2E80; nothing below can convert.
    if (code >= 0x2e80 && traditional.has(text.codePointAt(i) ?? code)) {
      needsConversion = true;
      break;
    }
  }
  return needsConversion && convert !== null ? convert(text) : text;
}
