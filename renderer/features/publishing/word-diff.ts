/**
 * The words that changed between two texts (`7天` → `15天`), for the diff of two versions: a
 * word diff (jsdiff) over the locale's word boundaries (Intl.Segmenter), which splits Chinese
 * into words as well as English.
 * @module
 */
import { diffWords } from 'diff';

export interface DiffPart {
  text: string;
  /** `same` on both sides; `removed` only in the old text, `added` only in the new one. */
  kind: 'same' | 'added' | 'removed';
}

/** The old text and the new one, each as parts, the changed ones marked. */
export function wordDiff(
  from: string,
  to: string,
  locale: string,
): { from: DiffPart[]; to: DiffPart[] } {
  const parts = diffWords(from, to, {
    intlSegmenter: new Intl.Segmenter(locale, { granularity: 'word' }),
  });
  const old: DiffPart[] = [];
  const now: DiffPart[] = [];
  for (const part of parts) {
    if (part.added) now.push({ text: part.value, kind: 'added' });
    else if (part.removed) old.push({ text: part.value, kind: 'removed' });
    else {
      old.push({ text: part.value, kind: 'same' });
      now.push({ text: part.value, kind: 'same' });
    }
  }
  return { from: old, to: now };
}
