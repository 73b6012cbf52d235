/**
 * Persistence of the rule store: its rules, phrasings, forward lists and vocabulary written to
 * a saved index (binary-snapshot.ts) and opened from one without re-tokenising anything. Scratch
 * space and caches are not saved; they are rebuilt on first use.
 * @module
 */
import type { SnapshotReader, SnapshotWriter } from './binary-snapshot';
import { QUESTION_SEPARATOR, RuleStore } from './rule-store';
import { SlotValues } from './slot-values';
import { Vocabulary } from './vocabulary';

/** Writes the rules, phrasings and vocabulary (not the scratch space) to `writer`. */
export function saveRuleStore(store: RuleStore, writer: SnapshotWriter): void {
  const slots = store.slotCount;
  const phrasings = store.phrasingTotal;
  writer.strings('rules.ids', slots, (slot) => store.ruleIds.peek(slot) as string);
  writer.strings('rules.names', slots, (slot) => store.ruleNames.peek(slot) as string);
  writer.strings('rules.questions', slots, (slot) => {
    const questions = store.ruleQuestions.peek(slot);
    // Every question keeps its place (a phrasing names its question by position: dropping one
    // read the next phrasings' texts from their neighbours); an author's NUL cannot survive the
    // join and becomes U+FFFD.
    return typeof questions === 'string'
      ? questions
      : questions.map((q) => q.replaceAll(QUESTION_SEPARATOR, '\uFFFD')).join(QUESTION_SEPARATOR);
  });
  writer.array('rules.free', Int32Array.from(store.freeSlots));
  writer.value('rules.scalars', [
    store.liveRules,
    store.totalMassWords,
    store.totalMassGrams,
    store.phrasingTotal,
    store.deadPhrasings,
    store.forwardLength,
    slots,
  ]);
  writer.array('rules.live', store.ruleLive, slots);
  writer.array('rules.active', store.ruleActive, slots);
  writer.array('rules.begin', store.ruleBegin, slots);
  writer.array('rules.end', store.ruleEnd, slots);
  writer.array('rules.firstPhrasing', store.ruleFirstPhrasing, slots);
  writer.array('rules.phrasingCount', store.rulePhrasingCount, slots);
  writer.array('rules.massWords', store.ruleMassWords, slots);
  writer.array('rules.massGrams', store.ruleMassGrams, slots);
  writer.array('phrasings.rule', store.phrasingRule, phrasings);
  writer.array('phrasings.source', store.phrasingSource, phrasings);
  writer.array('phrasings.termCount', store.phrasingTermCount, phrasings);
  writer.array('phrasings.gramCount', store.phrasingGramCount, phrasings);
  writer.array('phrasings.start', store.phrasingStart, phrasings + 1);
  writer.array('phrasings.hash', store.phrasingHash, phrasings);
  writer.array('phrasings.nextSameHash', store.nextSameHash, phrasings);
  writer.array('exact.buckets', store.exactBuckets);
  writer.array('forward', store.forward, store.forwardLength);
  store.vocab.save(writer, 'vocab');
}

/** Opens a store written by `saveRuleStore`; the arrays are views on the reader's bytes. */
export function loadRuleStore(
  reader: SnapshotReader,
  rewrite?: (text: string) => string,
): RuleStore {
  const store = new RuleStore(rewrite, Vocabulary.load(reader, 'vocab'));
  store.ruleIds = new SlotValues<string>('', reader.strings('rules.ids'));
  store.ruleNames = new SlotValues<string>('', reader.strings('rules.names'));
  store.ruleQuestions = new SlotValues<readonly string[]>([], reader.strings('rules.questions'));
  store.freeSlots = Array.from(reader.i32('rules.free'));
  const scalars = reader.value<number[]>('rules.scalars');
  [
    store.liveRules,
    store.totalMassWords,
    store.totalMassGrams,
    store.phrasingTotal,
    store.deadPhrasings,
    store.forwardLength,
    store.slotCount,
  ] = scalars as [number, number, number, number, number, number, number];
  store.ruleLive = reader.u8('rules.live');
  store.ruleActive = reader.u8('rules.active');
  store.ruleBegin = reader.f64('rules.begin');
  store.ruleEnd = reader.f64('rules.end');
  store.ruleFirstPhrasing = reader.i32('rules.firstPhrasing');
  store.rulePhrasingCount = reader.u8('rules.phrasingCount');
  store.ruleMassWords = reader.f64('rules.massWords');
  store.ruleMassGrams = reader.f64('rules.massGrams');
  store.phrasingRule = reader.i32('phrasings.rule');
  store.phrasingSource = reader.u8('phrasings.source');
  store.phrasingTermCount = reader.u16('phrasings.termCount');
  store.phrasingGramCount = reader.u16('phrasings.gramCount');
  store.phrasingStart = reader.i32('phrasings.start');
  store.phrasingHash = reader.i32('phrasings.hash');
  store.nextSameHash = reader.i32('phrasings.nextSameHash');
  store.exactBuckets = reader.i32('exact.buckets');
  store.forward = reader.u8('forward');
  store.markOpened();
  return store;
}
