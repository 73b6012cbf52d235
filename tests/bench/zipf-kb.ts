/**
 * A knowledge base and a question log shaped like real ones, for the impact preview's bench:
 * words drawn from a Zipf vocabulary of thousands (a few words in many rules, most in a few),
 * English and Chinese rules alternating, and questions drawn from the rules' phrasings (popular
 * rules asked far more) with a customer's noise: a word dropped or added, a typo. The 100-word
 * vocabulary of generate-rules.ts, where every question shares words with every rule, is the
 * worst case beside it.
 * @module
 */
import type { RuleInput } from '../../electron/service/api-types';
import { normalizeText } from '../../electron/service/matching/normalize';
import { prng } from '../helpers/prng';

/** Words per language, and the Zipf exponent of their use. */
const VOCABULARY = 4000;
const ZIPF_S = 1.05;

/** Draws ranks 0..n-1 with probability ∝ 1/(rank+1)^s, by binary search of the cumulative. */
function zipf(n: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cumulative[r] = sum += 1 / (r + 1) ** s;
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const CONSONANTS = 'bcdfghjklmnprstvwz';
const VOWELS = 'aeiou';

/** `count` distinct pseudo-English words of 2–4 syllables (4–8 letters). */
function englishWords(count: number, random: () => number): string[] {
  const words = new Set<string>();
  while (words.size < count) {
    let word = '';
    const syllables = 2 + Math.floor(random() * 3);
    for (let k = 0; k < syllables; k++) {
      word += CONSONANTS[Math.floor(random() * CONSONANTS.length)];
      word += VOWELS[Math.floor(random() * VOWELS.length)];
    }
    words.add(word);
  }
  return [...words];
}

/** `count` distinct two-character Chinese words, their characters Zipf-drawn from 2,500. */
function chineseWords(count: number, random: () => number): string[] {
  const character = zipf(2500, 1, random);
  const han = () => String.fromCodePoint(0x4e00 + ((character() * 7) % 20_000));
  const words = new Set<string>();
  while (words.size < count) words.add(han() + han());
  return [...words];
}

const FRAMES_EN = [
  'how do i {a} my {b}',
  'can i {a} the {b} {c}',
  'why is my {b} {a}',
  '{a} {b} not working',
  'what is the {b} for {c}',
];
const FRAMES_ZH = [
  '怎么{a}{b}',
  '{b}{a}需要多久',
  '为什么{b}不能{a}',
  '如何{a}{b}{c}',
  '{b}的{c}是多少',
];

export interface ZipfKb {
  rules: RuleInput[];
  /** `count` distinct (by normalised text) questions customers typed, in the order drawn. */
  questions(count: number): string[];
}

/** `count` rules of 5 phrasings over a Zipf vocabulary, and questions drawn from them. */
export function zipfKb(count: number, seed: number): ZipfKb {
  const random = prng(seed);
  const vocabulary = { en: englishWords(VOCABULARY, random), zh: chineseWords(VOCABULARY, random) };
  const rank = zipf(VOCABULARY, ZIPF_S, random);
  const word = (chinese: boolean) => (chinese ? vocabulary.zh : vocabulary.en)[rank()] as string;
  const rules = Array.from({ length: count }, (_, i): RuleInput => {
    const chinese = i % 2 === 1;
    const slots = { a: word(chinese), b: word(chinese), c: word(chinese) };
    const questions = (chinese ? FRAMES_ZH : FRAMES_EN).map((frame) =>
      frame.replace(/\{(a|b|c)\}/g, (_m, k: 'a' | 'b' | 'c') =>
        random() < 0.85 ? slots[k] : word(chinese),
      ),
    );
    return {
      ruleName: chinese ? `${slots.a}${slots.b}${slots.c}` : `${slots.a} ${slots.b} ${slots.c}`,
      questions,
      answerContentType: 'TEXT' as const,
      answer: `${chinese ? '答案' : 'Answer'} ${i}: ${slots.a} ${slots.b}`,
    };
  });
  const popularity = zipf(count, 0.9, random);
  /** A customer's version of a phrasing: a word dropped or added, two letters swapped. */
  const noisy = (phrasing: string, chinese: boolean): string => {
    const parts = chinese ? [phrasing] : phrasing.split(' ');
    const roll = random();
    if (roll < 0.25 && parts.length > 2) parts.splice(Math.floor(random() * parts.length), 1);
    else if (roll < 0.7) parts.splice(Math.floor(random() * (parts.length + 1)), 0, word(chinese));
    else {
      const k = Math.floor(random() * parts.length);
      const chars = [...(parts[k] as string)];
      const at = Math.floor(random() * Math.max(1, chars.length - 1));
      [chars[at], chars[at + 1]] = [chars[at + 1] ?? '', chars[at] ?? ''];
      parts[k] = chars.join('');
    }
    return parts.join(chinese ? '' : ' ');
  };
  return {
    rules,
    questions(wanted) {
      const seen = new Set<string>();
      const out: string[] = [];
      for (let attempt = 0; out.length < wanted && attempt < wanted * 50; attempt++) {
        const i = popularity();
        const rule = rules[i] as RuleInput;
        const phrasing = rule.questions[Math.floor(random() * rule.questions.length)] as string;
        // Asked as written first; then the noise customers add, twice over past the first ones.
        let text = seen.has(normalizeText(phrasing)) ? noisy(phrasing, i % 2 === 1) : phrasing;
        if (seen.has(normalizeText(text))) text = noisy(text, i % 2 === 1);
        const key = normalizeText(text);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(text);
      }
      return out;
    },
  };
}
