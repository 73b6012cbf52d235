/**
 * Interned terms with their posting lists and rule frequencies, plus the character n-grams of
 * word terms. Everything is keyed by small integer ids so the hot loops touch typed arrays only.
 * @module
 */
import type { SnapshotReader, SnapshotWriter } from './binary-snapshot';
import { wordGrams } from './features';
import { hanTermKey, hanTermText } from './han-terms';
import { isHanCode } from './tokenize';
import { PendingPostings } from './pending-postings';
import { PostingLists } from './posting-lists';
import { ensureCapacity } from './typed-arrays';

export class Vocabulary {
  private readonly termIds = new Map<string, number>();
  private readonly hanIds = new Map<number, number>();
  private readonly termStrings: string[] = [];
  /** Number of live rules whose phrasings (or name) contain the term. */
  ruleDf = new Int32Array(1024);
  private lists = new PostingLists();
  /** Postings not yet in `lists`: appended before anything reads or changes them. */
  private readonly pending = new PendingPostings();
  /** Terms with ruleDf > 0: the vocabulary size of the Naive Bayes smoothing. */
  liveTerms = 0;

  private readonly gramIds = new Map<string, number>();
  private readonly gramStrings: string[] = [];
  /**
   * The gram ids of every term, back to back (term t's from `gramOffsets[t]` to
   * `gramOffsets[t + 1]`): one array for all, not one per term (Han terms and numbers have none).
   */
  private gramData = new Int32Array(1024);
  private gramOffsets = new Int32Array(1024);
  gramRuleDf = new Int32Array(1024);
  liveGrams = 0;
  /** Word terms containing each gram: finds spelling neighbours of unknown query words. */
  private gramWords: (number[] | Int32Array)[] = [];

  /** One posting per rule containing the term (see PostingLists), every one appended. */
  get postings(): PostingLists {
    if (this.pending.size > 0) this.pending.flush(this.lists);
    return this.lists;
  }

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
    this.internGrams(word, id);
    return id;
  }

  /** Han terms get no character n-grams: the bigrams already play that part. */
  internHan(key: number): number {
    const known = this.hanIds.get(key);
    if (known !== undefined) return known;
    const id = this.addTerm(hanTermText(key));
    this.hanIds.set(key, id);
    return id;
  }

  private addTerm(text: string): number {
    const id = this.termStrings.length;
    this.termStrings.push(text);
    this.ruleDf = ensureCapacity(this.ruleDf, id + 1);
    this.lists.ensureTerms(id + 1);
    this.gramOffsets = ensureCapacity(this.gramOffsets, id + 2);
    this.gramOffsets[id + 1] = this.gramOffsets[id] as number;
    return id;
  }

  private internGrams(word: string, wordId: number): void {
    const grams = wordGrams(word);
    const from = this.gramOffsets[wordId] as number;
    this.gramData = ensureCapacity(this.gramData, from + grams.length);
    grams.forEach((gram, i) => {
      let id = this.gramIds.get(gram);
      if (id === undefined) {
        id = this.gramWords.length;
        this.gramIds.set(gram, id);
        this.gramStrings.push(gram);
        this.gramWords.push([]);
        this.gramRuleDf = ensureCapacity(this.gramRuleDf, id + 1);
      }
      this.gramData[from + i] = id;
      let words = this.gramWords[id] ?? [];
      if (words[words.length - 1] === wordId) return;
      // Lists opened from a saved index are views; the first addition makes a growable copy.
      if (words instanceof Int32Array) {
        words = Array.from(words);
        this.gramWords[id] = words;
      }
      words.push(wordId);
    });
    this.gramOffsets[wordId + 1] = from + grams.length;
  }

  /** Where the gram ids of a term start in `gramAt` (Han terms and numbers have none). */
  gramStart(termId: number): number {
    return this.gramOffsets[termId] as number;
  }

  /** Where they end (exclusive). */
  gramEnd(termId: number): number {
    return this.gramOffsets[termId + 1] as number;
  }

  gramAt(position: number): number {
    return this.gramData[position] as number;
  }

  /** The gram ids of every term, back to back (see `gramStart`), for hot loops. */
  get gramTable(): Int32Array {
    return this.gramData;
  }

  /** Offsets of each term's gram ids in `gramTable` (term t: [t], [t + 1]). */
  get gramTableOffsets(): Int32Array {
    return this.gramOffsets;
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

  /** Appends the posting of the rule in `slot` (its first phrasing the largest key so far). */
  addPosting(termId: number, slot: number, weight: number): void {
    this.pending.push(this.lists, this.termStrings.length, termId, slot, weight);
  }

  /**
   * Tombstones the posting of the rule version `key` in the term's list (if present);
   * `firstPhrasing`: the rules' first phrasing ids (the keys of live postings).
   */
  removePosting(termId: number, key: number, firstPhrasing: ArrayLike<number>): void {
    // A rule added and replaced within one batch is found once its postings are in its lists.
    this.postings.remove(termId, key, firstPhrasing);
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
    this.pending.clear();
    this.lists.clear();
  }

  /** Writes everything but the scratch space under `prefix`. */
  save(writer: SnapshotWriter, prefix: string): void {
    const terms = this.termStrings.length;
    writer.value(`${prefix}.terms`, this.termStrings);
    writer.value(`${prefix}.grams`, this.gramStrings);
    writer.value(`${prefix}.live`, [this.liveTerms, this.liveGrams]);
    writer.array(`${prefix}.ruleDf`, this.ruleDf, terms);
    writer.array(`${prefix}.gramRuleDf`, this.gramRuleDf, this.gramStrings.length);
    this.postings.save(writer, prefix, terms);
    writer.array(`${prefix}.termGrams.offsets`, this.gramOffsets, terms + 1);
    writer.array(`${prefix}.termGrams.data`, this.gramData, this.gramOffsets[terms] ?? 0);
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
    vocab.gramOffsets = reader.i32(`${prefix}.termGrams.offsets`);
    vocab.gramData = reader.i32(`${prefix}.termGrams.data`);
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
    vocab.lists = PostingLists.load(reader, prefix);
    vocab.gramWords = readLists(reader, `${prefix}.gramWords`, (data, from, to) =>
      data.subarray(from, to),
    );
    return vocab;
  }
}

/** Lists of numbers as one flat array plus offsets. */
function writeLists(writer: SnapshotWriter, name: string, lists: readonly Int32Array[]): void {
  const offsets = new Int32Array(lists.length + 1);
  lists.forEach((list, i) => {
    offsets[i + 1] = (offsets[i] ?? 0) + list.length;
  });
  const data = new Int32Array(offsets[lists.length] ?? 0);
  lists.forEach((list, i) => data.set(list, offsets[i] ?? 0));
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
