/**
 * Query weighting: the question's words (Han terms included) and character grams as
 * L2-normalised tf·idf vectors over the index's vocabulary. Unknown words are looked up among
 * their spelling neighbours; what stays unknown still lowers cosine and coverage.
 * @module
 */
import { boundedEditDistance } from './edit-distance';
import { wordGrams } from './features';
import { isFrameHanTerm, isFrameWord } from './frame-words';
import { hanTermText } from './han-terms';
import { idf } from './idf';
import type { RuleStore } from './rule-store';

/** A spelling neighbour counts for less than the word itself. */
const TYPO_FACTOR = 0.7;
/** Grams shared by more words than this are useless for finding spelling neighbours. */
const NEIGHBOUR_GRAM_LIMIT = 3000;

export interface WeightedTerms {
  ids: number[];
  weights: number[];
  /**
   * Squared weight of question terms no rule contains. They cannot rank rules, but they must
   * lower cosine and coverage: a question of mostly unknown words is not a match.
   */
  unknown: number;
  /** Σ of the L2-normalised weights (the Naive Bayes length term). */
  total: number;
  /** Per term: it only frames the question (frame-words.ts). */
  frame: boolean[];
  /** The part of `unknown` from content (not frame) terms, normalised like the weights. */
  unknownContent: number;
}

function normaliseWeights(terms: WeightedTerms): void {
  let norm = terms.unknown;
  for (const w of terms.weights) norm += w * w;
  if (norm > 0) terms.unknownContent /= norm;
  norm = Math.sqrt(norm);
  if (norm === 0) return;
  terms.total = 0;
  for (let i = 0; i < terms.weights.length; i += 1) {
    const w = (terms.weights[i] ?? 0) / norm;
    terms.weights[i] = w;
    terms.total += w;
  }
}

/** The question's word and Han terms, weighted. */
export function weighQuestionTerms(
  store: RuleStore,
  questionWords: string[],
  han: number[],
): WeightedTerms {
  const vocab = store.vocab;
  const ruleCount = Math.max(store.size, 1);
  const counts = new Map<number, number>();
  const frame = new Set<number>();
  let unknown = 0;
  let unknownContent = 0;
  for (const word of questionWords) {
    const id = vocab.wordId(word);
    if (id !== undefined && (vocab.ruleDf[id] ?? 0) > 0) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
      if (isFrameWord(word)) frame.add(id);
    } else {
      const neighbours = word.length >= 4 ? spellingNeighbours(store, word) : [];
      for (const neighbour of neighbours) {
        counts.set(neighbour, (counts.get(neighbour) ?? 0) + TYPO_FACTOR);
      }
      if (neighbours.length === 0) {
        unknown += idf(ruleCount, 0) ** 2;
        if (!isFrameWord(word)) unknownContent += idf(ruleCount, 0) ** 2;
      }
    }
  }
  for (const code of han) {
    const id = vocab.hanId(code);
    const isFrame = isFrameHanTerm(hanTermText(code));
    if (id !== undefined && (vocab.ruleDf[id] ?? 0) > 0) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
      if (isFrame) frame.add(id);
    } else {
      unknown += idf(ruleCount, 0) ** 2;
      if (!isFrame) unknownContent += idf(ruleCount, 0) ** 2;
    }
  }
  const result: WeightedTerms = {
    ids: [],
    weights: [],
    unknown,
    total: 0,
    frame: [],
    unknownContent,
  };
  for (const [id, count] of counts) {
    result.ids.push(id);
    result.frame.push(frame.has(id));
    const tf = count >= 1 ? 1 + Math.log(count) : count;
    result.weights.push(tf * idf(ruleCount, vocab.ruleDf[id] ?? 0));
  }
  normaliseWeights(result);
  return result;
}

/** Known words within one edit (two for long words) of an unknown query word. */
function spellingNeighbours(store: RuleStore, word: string): number[] {
  const vocab = store.vocab;
  const limit = word.length <= 5 ? 1 : 2;
  const shared = new Map<number, number>();
  for (const gram of wordGrams(word)) {
    const gramId = vocab.gramId(gram);
    if (gramId === undefined) continue;
    const holders = vocab.wordsWithGram(gramId);
    if (holders.length > NEIGHBOUR_GRAM_LIMIT) continue;
    for (const id of holders) shared.set(id, (shared.get(id) ?? 0) + 1);
  }
  const found: { id: number; distance: number; df: number }[] = [];
  for (const [id, count] of shared) {
    if (count < 2 || (vocab.ruleDf[id] ?? 0) === 0) continue;
    const distance = boundedEditDistance(word, vocab.term(id), limit);
    if (distance <= limit) found.push({ id, distance, df: vocab.ruleDf[id] ?? 0 });
  }
  found.sort((a, b) => a.distance - b.distance || b.df - a.df);
  return found.slice(0, 3).map((entry) => entry.id);
}

/** The character grams of the question's words, weighted. */
export function weighQuestionGrams(store: RuleStore, questionWords: string[]): WeightedTerms {
  const vocab = store.vocab;
  const ruleCount = Math.max(store.size, 1);
  const counts = new Map<number, number>();
  const result: WeightedTerms = {
    ids: [],
    weights: [],
    unknown: 0,
    total: 0,
    frame: [],
    unknownContent: 0,
  };
  for (const term of questionWords) {
    // Unknown words still contribute their grams: that is what tolerates typos.
    const id = vocab.wordId(term);
    const gramIds = id === undefined ? null : vocab.grams(id);
    if (gramIds !== null) {
      for (const gram of gramIds) counts.set(gram, (counts.get(gram) ?? 0) + 1);
    } else {
      for (const gram of wordGrams(term)) {
        const gramId = vocab.gramId(gram);
        if (gramId !== undefined) counts.set(gramId, (counts.get(gramId) ?? 0) + 1);
        else result.unknown += idf(ruleCount, 0) ** 2;
      }
    }
  }
  for (const [id, count] of counts) {
    const df = vocab.gramRuleDf[id] ?? 0;
    if (df === 0) {
      result.unknown += ((1 + Math.log(count)) * idf(ruleCount, 0)) ** 2;
      continue;
    }
    result.ids.push(id);
    result.frame.push(false);
    result.weights.push((1 + Math.log(count)) * idf(ruleCount, df));
  }
  normaliseWeights(result);
  return result;
}
