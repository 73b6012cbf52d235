/**
 * Interned terms with their posting lists and rule frequencies, plus the character n-grams of
 * word terms. Everything is keyed by small integer ids so the hot loops touch typed arrays only.
 * @module
 */
import type { SnapshotReader, SnapshotWriter } from './binary-snapshot';
import { hanTermKey, hanTermText, wordGrams } from './features';
import { isHanCode } from './tokenize';
import { ensureCapacity } from './typed-arrays';

const EMPTY = new Int32Array(0);
const EMPTY_WEIGHTS = new Float32Array(0);

export class Vocabulary {
  private readonly termIds = new Map<string, number>();
  private readonly hanIds = new Map<number, number>();
  private readonly termStrings: string[] = [];
  /** Number of live rules whose phrasings (or name) contain the term. */
  ruleDf = new Int32Array(1024);
  /**
   * One posting per rule containing the term: the rule's slot (−1 once that version of the rule
   * was replaced or removed) and the rule's Naive Bayes weight for the term, which depends on the
   * rule alone and so is computed once. `postingKeys` holds the rule version's first phrasing id,
   * increasing along each list, so that a rule's postings are found by binary search to be
   * tombstoned.
   */
  postings: Int32Array[] = [];
  postingKeys: Int32Array[] = [];
  postingWeights: Float32Array[] = [];
  postingLength = new Int32Array(1024);
  /**
   * The largest weight ever posted for each term: an upper bound of what the term can add to
   * any rule's score, which lets scoring stop reading long lists early (see Scorer.shortlist).
   */
  postingMax = new Float32Array(1024);
  /** Terms with ruleDf > 0: the vocabulary size of the Naive Bayes smoothing. */
  liveTerms = 0;

  private readonly gramIds = new Map<string, number>();
  private readonly gramStrings: string[] = [];
  private termGramIds: Int32Array[] = [];
  gramRuleDf = new Int32Array(1024);
  liveGrams = 0;
  /** Word terms containing each gram: finds spelling neighbours of unknown query words. */
  private gramWords: (number[] | Int32Array)[] = [];

  get termCount(): number {
    return this.termStrings.length;
  }

  wordId(word: string): number | undefined {
    return this.termIds.get(word);
  }

  hanId(key: number): number | undefined {
    return this.hanIds.get(key);
  }

  term(id: number): string {
    return this.termStrings[id] ?? '';
  }

  internWord(word: string): number {
    const known = this.termIds.get(word);
    if (known !== undefined) return known;
    const id = this.addTerm(word);
    this.termIds.set(word, id);
    this.termGramIds.push(this.internGrams(word, id));
    return id;
  }

  /** Han terms get no character n-grams: the bigrams already play that part. */
  internHan(key: number): number {
    const known = this.hanIds.get(key);
    if (known !== undefined) return known;
    const id = this.addTerm(hanTermText(key));
    this.hanIds.set(key, id);
    this.termGramIds.push(EMPTY);
    return id;
  }

  private addTerm(text: string): number {
    const id = this.termStrings.length;
    this.termStrings.push(text);
    this.ruleDf = ensureCapacity(this.ruleDf, id + 1);
    this.postingLength = ensureCapacity(this.postingLength, id + 1);
    this.postingMax = ensureCapacity(this.postingMax, id + 1);
    this.postings.push(EMPTY);
    this.postingKeys.push(EMPTY);
    this.postingWeights.push(EMPTY_WEIGHTS);
    return id;
  }

  private internGrams(word: string, wordId: number): Int32Array {
    const grams = wordGrams(word);
    const ids = new Int32Array(grams.length);
    grams.forEach((gram, i) => {
      let id = this.gramIds.get(gram);
      if (id === undefined) {
        id = this.gramWords.length;
        this.gramIds.set(gram, id);
        this.gramStrings.push(gram);
        this.gramWords.push([]);
        this.gramRuleDf = ensureCapacity(this.gramRuleDf, id + 1);
      }
      ids[i] = id;
      let words = this.gramWords[id] ?? [];
      if (words[words.length - 1] === wordId) return;
      // Lists opened from a saved index are views; the first addition makes a growable copy.
      if (words instanceof Int32Array) {
        words = Array.from(words);
        this.gramWords[id] = words;
      }
      words.push(wordId);
    });
    return ids;
  }

  /** Gram ids of a word term (empty for Han terms). */
  grams(termId: number): Int32Array {
    return this.termGramIds[termId] ?? EMPTY;
  }

  gramId(gram: string): number | undefined {
    return this.gramIds.get(gram);
  }

  wordsWithGram(gramId: number): ArrayLike<number> & Iterable<number> {
    return this.gramWords[gramId] ?? [];
  }

  get gramCount(): number {
    return this.gramWords.length;
  }

  addPosting(termId: number, key: number, slot: number, weight: number): void {
    const length = this.postingLength[termId] ?? 0;
    let list = this.postings[termId] ?? EMPTY;
    let keys = this.postingKeys[termId] ?? EMPTY;
    let weights = this.postingWeights[termId] ?? EMPTY_WEIGHTS;
    if (length >= list.length) {
      const capacity = Math.max(4, list.length * 2);
      list = grow(list, new Int32Array(capacity));
      keys = grow(keys, new Int32Array(capacity));
      weights = grow(weights, new Float32Array(capacity));
      this.postings[termId] = list;
      this.postingKeys[termId] = keys;
      this.postingWeights[termId] = weights;
    }
    list[length] = slot;
    keys[length] = key;
    weights[length] = weight;
    this.postingLength[termId] = length + 1;
    if (weight > (this.postingMax[termId] ?? 0)) this.postingMax[termId] = weight;
  }

  /** Tombstones the posting of the rule version `key` in the term's list (if present). */
  removePosting(termId: number, key: number): void {
    const keys = this.postingKeys[termId] ?? EMPTY;
    let low = 0;
    let high = (this.postingLength[termId] ?? 0) - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = keys[mid] ?? 0;
      if (value < key) low = mid + 1;
      else if (value > key) high = mid - 1;
      else {
        const list = this.postings[termId];
        const weights = this.postingWeights[termId];
        if (list) list[mid] = -1;
        if (weights) weights[mid] = 0;
        return;
      }
    }
  }

  changeRuleDf(termId: number, delta: number): void {
    const before = this.ruleDf[termId] ?? 0;
    const after = before + delta;
    this.ruleDf[termId] = after;
    if (before === 0 && after > 0) this.liveTerms += 1;
    else if (before > 0 && after === 0) this.liveTerms -= 1;
  }

  changeGramRuleDf(gramId: number, delta: number): void {
    const before = this.gramRuleDf[gramId] ?? 0;
    const after = before + delta;
    this.gramRuleDf[gramId] = after;
    if (before === 0 && after > 0) this.liveGrams += 1;
    else if (before > 0 && after === 0) this.liveGrams -= 1;
  }

  /** Drops every posting (used by compaction, which re-adds the live ones). */
  clearPostings(): void {
    this.postingLength.fill(0);
    this.postingMax.fill(0);
    this.postings = this.postings.map(() => EMPTY);
    this.postingKeys = this.postingKeys.map(() => EMPTY);
    this.postingWeights = this.postingWeights.map(() => EMPTY_WEIGHTS);
  }

  /** Writes everything but the scratch space under `prefix`. */
  save(writer: SnapshotWriter, prefix: string): void {
    const terms = this.termStrings.length;
    writer.value(`${prefix}.terms`, this.termStrings);
    writer.value(`${prefix}.grams`, this.gramStrings);
    writer.value(`${prefix}.live`, [this.liveTerms, this.liveGrams]);
    writer.array(`${prefix}.ruleDf`, this.ruleDf, terms);
    writer.array(`${prefix}.gramRuleDf`, this.gramRuleDf, this.gramStrings.length);
    const lengths = this.postingLength.subarray(0, terms);
    writeLists(writer, `${prefix}.postings`, this.postings, lengths);
    writeLists(writer, `${prefix}.postingKeys`, this.postingKeys, lengths);
    writeLists(writer, `${prefix}.postingWeights`, this.postingWeights, lengths, true);
    writeLists(writer, `${prefix}.termGrams`, this.termGramIds);
    writeLists(
      writer,
      `${prefix}.gramWords`,
      this.gramWords.map((words) => (words instanceof Int32Array ? words : Int32Array.from(words))),
    );
  }

  static load(reader: SnapshotReader, prefix: string): Vocabulary {
    const vocab = new Vocabulary();
    const terms = reader.value<string[]>(`${prefix}.terms`);
    const grams = reader.value<string[]>(`${prefix}.grams`);
    [vocab.liveTerms, vocab.liveGrams] = reader.value<[number, number]>(`${prefix}.live`);
    vocab.termGramIds = readLists(reader, `${prefix}.termGrams`, (data, from, to) =>
      data.subarray(from, to),
    );
    terms.forEach((term, id) => {
      vocab.termStrings.push(term);
      // Tokenisation keeps Han runs apart from words: a term is Han if it starts with Han.
      if (isHanCode(term.codePointAt(0) ?? 0)) vocab.hanIds.set(hanTermKey(term), id);
      else vocab.termIds.set(term, id);
    });
    grams.forEach((gram, id) => {
      vocab.gramStrings.push(gram);
      vocab.gramIds.set(gram, id);
    });
    vocab.ruleDf = reader.i32(`${prefix}.ruleDf`);
    vocab.gramRuleDf = reader.i32(`${prefix}.gramRuleDf`);
    const postings = readLists(reader, `${prefix}.postings`, (data, from, to) =>
      data.subarray(from, to),
    );
    vocab.postings = postings;
    vocab.postingKeys = readLists(reader, `${prefix}.postingKeys`, (data, from, to) =>
      data.subarray(from, to),
    );
    vocab.postingLength = Int32Array.from(postings, (list) => list.length);
    const weights = reader.f32(`${prefix}.postingWeights.data`);
    const offsets = reader.i32(`${prefix}.postingWeights.offsets`);
    vocab.postingWeights = postings.map((_, i) =>
      weights.subarray(offsets[i] ?? 0, offsets[i + 1] ?? 0),
    );
    vocab.postingMax = Float32Array.from(vocab.postingWeights, (list) => {
      let max = 0;
      for (let k = 0; k < list.length; k += 1) max = Math.max(max, list[k] ?? 0);
      return max;
    });
    vocab.gramWords = readLists(reader, `${prefix}.gramWords`, (data, from, to) =>
      data.subarray(from, to),
    );
    return vocab;
  }
}

function grow<T extends Int32Array | Float32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** Lists of numbers as one flat array plus offsets (`lengths` caps each list). */
function writeLists(
  writer: SnapshotWriter,
  name: string,
  lists: readonly (Int32Array | Float32Array)[],
  lengths?: Int32Array,
  float = false,
): void {
  const offsets = new Int32Array(lists.length + 1);
  lists.forEach((list, i) => {
    offsets[i + 1] = (offsets[i] ?? 0) + Math.min(list.length, lengths?.[i] ?? list.length);
  });
  const total = offsets[lists.length] ?? 0;
  const data = float ? new Float32Array(total) : new Int32Array(total);
  lists.forEach((list, i) => {
    data.set(list.subarray(0, (offsets[i + 1] ?? 0) - (offsets[i] ?? 0)), offsets[i] ?? 0);
  });
  writer.array(`${name}.offsets`, offsets);
  writer.array(`${name}.data`, data);
}

function readLists<T>(
  reader: SnapshotReader,
  name: string,
  make: (data: Int32Array, from: number, to: number) => T,
): T[] {
  const offsets = reader.i32(`${name}.offsets`);
  const data = reader.i32(`${name}.data`);
  const lists: T[] = [];
  for (let i = 0; i + 1 < offsets.length; i += 1) {
    lists.push(make(data, offsets[i] ?? 0, offsets[i + 1] ?? 0));
  }
  return lists;
}
