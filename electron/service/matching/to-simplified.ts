/**
 * Traditional → Simplified Chinese. opencc-js ships its dictionaries inside the package, so this
 * works offline. The converter is built lazily (≈30 ms) and only called on text that contains a
 * character the dictionaries know, because most questions are Simplified or Latin and the
 * converter's trie walk would otherwise dominate index building.
 * @module
 */
import { Converter, Locale } from 'opencc-js/t2cn';

type ConvertFn = (text: string) => string;

let convert: ConvertFn | null = null;
let traditionalStarts: Set<number> | null = null;

function collectStarts(): Set<number> {
  const starts = new Set<number>();
  const groups = Locale.from['tw'] ?? [];
  for (const group of groups) {
    for (const dict of group) {
      if (typeof dict === 'string') {
        for (const entry of dict.split('|')) {
          const code = entry.codePointAt(0);
          if (code !== undefined) starts.add(code);
        }
      } else {
        for (const [source] of dict) {
          const code = source.codePointAt(0);
          if (code !== undefined) starts.add(code);
        }
      }
    }
  }
  return starts;
}

/** Converts Traditional (Taiwan and standard) characters and variants to Simplified ones. */
export function toSimplified(text: string): string {
  if (traditionalStarts === null) traditionalStarts = collectStarts();
  let needsConversion = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    // Han ideographs and the compatibility block start at U+2E80; nothing below can convert.
    if (code >= 0x2e80 && traditionalStarts.has(text.codePointAt(i) ?? code)) {
      needsConversion = true;
      break;
    }
  }
  if (!needsConversion) return text;
  if (convert === null) convert = Converter({ from: 'tw', to: 'cn' });
  return convert(text);
}
