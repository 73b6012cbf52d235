/**
 * Phrasings of two rules that differ only by the word that tells the rules apart: the slot of
 * a template ("服装可以退货吗" in 服装退货政策, "鞋靴可以退货吗" in 鞋靴退货政策; a city, a plan, a
 * product). Such rules are not in conflict: the question names which one it means, and the
 * engine reads that word. A word decides between two rules when the one rule's side of the
 * difference appears in none of the other rule's texts, and the reverse.
 * @module
 */
import { isFrameHanTerm, isFrameWord } from './frame-words';
import { normalizeText } from './normalize';
import { containsKey } from './rule-policies';
import { ENGLISH_STOP_WORDS } from './stop-words';
import { isHanCode, isHanStopCode, pushWord } from './tokenize';

/** Longest text compared (units): phrasings are short; a longer pair is never a slot pair. */
const MAX_UNITS = 120;
/** Longest slot: a product, a city, a plan (a Han character weighs 1, a word 2). */
const MAX_SLOT_WEIGHT = 6;
/** Share of the units outside the slot that both phrasings must have in common. */
const MIN_SHARED_FRAME = 0.75;
/** Fewest units the two phrasings share outside the slot (and never fewer than the slot's). */
const MIN_FRAME_UNITS = 2;

const isHan = (unit: string): boolean => isHanCode(unit.codePointAt(0) ?? 0);

/**
 * Whether a unit says what is asked: not a particle, not a frame word (pronouns, question
 * words, 怎么, 什么 …). A slot is a product, a city, a plan: "什么时候" against "会" is not one.
 */
function isContent(unit: string): boolean {
  if (isHan(unit)) {
    const code = unit.codePointAt(0) ?? 0;
    return !isHanStopCode(code) && !isFrameHanTerm(unit);
  }
  if (ENGLISH_STOP_WORDS.has(unit)) return false;
  const stems: string[] = [];
  pushWord(stems, unit);
  return !isFrameWord(unit) && !stems.some(isFrameWord);
}

/** A word of a spaced script says as much as a couple of Han characters. */
const weight = (parts: readonly string[]): number =>
  parts.reduce((sum, part) => sum + (isHan(part) ? 1 : 2), 0);

/** Han characters one by one, other words whole (normalised text). */
function units(text: string): string[] {
  const out: string[] = [];
  for (const word of text.split(' ')) {
    if (word === '') continue;
    let spaced = '';
    for (const char of word) {
      const code = char.codePointAt(0) ?? 0;
      if (isHanCode(code)) {
        if (spaced !== '') out.push(spaced);
        spaced = '';
        out.push(char);
      } else {
        spaced += char;
      }
    }
    if (spaced !== '') out.push(spaced);
  }
  return out;
}

/** A stretch where the two texts differ: units [pFrom, pTo) of one, [qFrom, qTo) of the other. */
interface Difference {
  pFrom: number;
  pTo: number;
  qFrom: number;
  qTo: number;
}

/**
 * The differing stretches of a longest common subsequence alignment. Two stretches separated
 * by a single shared unit are one ("家电" against "电脑" shares 电, yet the word differs).
 */
function differences(p: readonly string[], q: readonly string[]): Difference[] {
  const m = p.length;
  const n = q.length;
  const width = n + 1;
  const lcs = new Uint8Array((m + 1) * width);
  for (let i = m - 1; i >= 0; i -= 1) {
    for (let j = n - 1; j >= 0; j -= 1) {
      lcs[i * width + j] =
        p[i] === q[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const found: Difference[] = [];
  let open: Difference | null = null;
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && p[i] === q[j]) {
      i += 1;
      j += 1;
      shared += 1;
      continue;
    }
    if (open !== null && shared <= 1) {
      // Joined to the last stretch across one shared unit.
    } else {
      open = { pFrom: i, pTo: i, qFrom: j, qTo: j };
      found.push(open);
    }
    shared = 0;
    if (j >= n || (i < m && (lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0))) {
      i += 1;
    } else {
      j += 1;
    }
    open.pTo = i;
    open.qTo = j;
  }
  return found;
}

function joinUnits(parts: readonly string[]): string {
  let text = '';
  let previousSpaced = false;
  for (const part of parts) {
    const spaced = !isHan(part);
    text += text !== '' && (spaced || previousSpaced) ? ` ${part}` : part;
    previousSpaced = spaced;
  }
  return text;
}

/** Whether a text of the rule other than `phrasing` (normalised) holds `word`. */
function namesRule(texts: readonly string[], word: string, phrasing: string): boolean {
  return texts.some((text) => text !== phrasing && containsKey(text, word));
}

/** The units of `p` outside every differing stretch. */
function shared(p: readonly string[], stretches: readonly Difference[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const d of stretches) {
    out.push(...p.slice(from, d.pFrom));
    from = d.pTo;
  }
  out.push(...p.slice(from));
  return out;
}

/** Two phrasings of two rules that differ by the word that tells the rules apart. */
export interface SlotVariants {
  /** The first phrasing's word and the second's (normalised). */
  words: [string, string];
  /**
   * Each word names its rule: another text of the rule has it too (its name, another
   * phrasing), as a template's slot value does ("服装" in 服装退货政策 and all its phrasings).
   */
  named: boolean;
  /** The first phrasing without its word (normalised): the question that names neither. */
  frame: string;
}

/**
 * The word that tells the two rules apart, when phrasing `p` (of one rule, whose texts are
 * `pTexts`) and phrasing `q` (of the other, `qTexts`) differ only by it. Texts are the rules'
 * phrasings and names, as written. Null when the phrasings differ otherwise.
 */
export function decidingWords(
  p: string,
  q: string,
  pTexts: readonly string[],
  qTexts: readonly string[],
): SlotVariants | null {
  const pKey = normalizeText(p);
  const qKey = normalizeText(q);
  const pu = units(pKey);
  const qu = units(qKey);
  if (pu.length === 0 || qu.length === 0 || pu.length > MAX_UNITS || qu.length > MAX_UNITS) {
    return null;
  }
  const stretches = differences(pu, qu);
  let pNorm: string[] | null = null;
  let qNorm: string[] | null = null;
  for (const d of stretches) {
    const pSlot = pu.slice(d.pFrom, d.pTo);
    const qSlot = qu.slice(d.qFrom, d.qTo);
    if (pSlot.length === 0 || qSlot.length === 0) continue;
    if (weight(pSlot) > MAX_SLOT_WEIGHT || weight(qSlot) > MAX_SLOT_WEIGHT) continue;
    if (!pSlot.some(isContent) || !qSlot.some(isContent)) continue;
    // The rest of the two phrasings is one frame: what is left of each outside this stretch is
    // mostly shared (the other stretches are small: a particle, a measure word).
    let differentP = 0;
    let differentQ = 0;
    for (const other of stretches) {
      if (other === d) continue;
      differentP += other.pTo - other.pFrom;
      differentQ += other.qTo - other.qFrom;
    }
    const outsideP = pu.length - pSlot.length;
    const outsideQ = qu.length - qSlot.length;
    const sharedP = outsideP - differentP;
    const sharedQ = outsideQ - differentQ;
    if (
      sharedP < Math.max(MIN_FRAME_UNITS, pSlot.length) ||
      sharedQ < Math.max(MIN_FRAME_UNITS, qSlot.length) ||
      sharedP < MIN_SHARED_FRAME * outsideP ||
      sharedQ < MIN_SHARED_FRAME * outsideQ
    ) {
      continue;
    }
    // Deciding: each side's word is in none of the other rule's texts.
    const pWord = joinUnits(pSlot);
    const qWord = joinUnits(qSlot);
    pNorm ??= pTexts.map(normalizeText);
    qNorm ??= qTexts.map(normalizeText);
    if (qNorm.some((text) => containsKey(text, pWord))) continue;
    if (pNorm.some((text) => containsKey(text, qWord))) continue;
    return {
      words: [pWord, qWord],
      named: namesRule(pNorm, pWord, pKey) && namesRule(qNorm, qWord, qKey),
      // The question that names neither: what the two phrasings share.
      frame: joinUnits(shared(pu, stretches)),
    };
  }
  return null;
}
