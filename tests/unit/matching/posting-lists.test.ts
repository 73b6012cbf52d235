/**
 * Posting lists in shared chunks: every list reads back exactly what was added (tombstones
 * included, each keeping its key as ~key) through growth, moves, reused runs, compaction's clear
 * and a save and load, and thousands of short lists share one chunk instead of taking arrays of
 * their own. Keys are not stored: a live posting's is its rule's first phrasing (`firstPhrasing`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SnapshotReader, SnapshotWriter } from '../../../electron/service/matching/binary-snapshot';
import { PostingLists } from '../../../electron/service/matching/posting-lists';
import { prng } from '../../helpers/prng';

interface Model {
  slots: number[];
  keys: number[];
  weights: number[];
}

function read(lists: PostingLists, term: number): Model {
  const length = lists.length[term] ?? 0;
  const from = lists.start[term] ?? 0;
  const slots = lists.slotChunks[lists.chunk[term] ?? 0];
  const codes = lists.weightChunks[lists.chunk[term] ?? 0];
  const out: Model = { slots: [], keys: [], weights: [] };
  for (let k = from; k < from + length; k += 1) {
    out.slots.push(slots?.[k] ?? Number.NaN);
    out.weights.push(lists.weightTable[codes?.[k] ?? -1] ?? Number.NaN);
  }
  return out;
}

function check(lists: PostingLists, model: Model[]): void {
  model.forEach((expected, term) => {
    const actual = read(lists, term);
    assert.deepEqual(actual.slots, expected.slots, `slots of term ${term}`);
    assert.deepEqual(actual.weights, expected.weights, `weights of term ${term}`);
    const max = expected.weights.reduce((a, b) => Math.max(a, b), 0);
    assert.ok((lists.max[term] ?? 0) >= max, `max of term ${term}`);
  });
}

/** The first phrasing id of each slot's rule: the key of its live postings. */
const firstPhrasing: number[] = [];

function bytesOf(writer: SnapshotWriter): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  const length = writer.write((chunk) => parts.push(chunk.slice()));
  const bytes = new Uint8Array(new ArrayBuffer(length));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

function saveAndLoad(lists: PostingLists, terms: number, model: Model[]): PostingLists {
  const writer = new SnapshotWriter();
  writer.value('probe', 1);
  lists.save(writer, 'vocab', terms);
  const reader = new SnapshotReader(bytesOf(writer));
  // Saved as held (format 6): a tombstone's slot is its ~key, and no other key is written.
  const saved = reader.i32('vocab.postings.data');
  assert.deepEqual(
    Array.from(saved),
    model.flatMap((m) => m.slots),
  );
  assert.equal(reader.hasArray('vocab.postingKeys.data'), false);
  return PostingLists.load(reader, 'vocab');
}

/** The lists as format 5 saved them: tombstones as −1, every posting's key beside its slot. */
function loadFormat5(terms: number, model: Model[]): PostingLists {
  const writer = new SnapshotWriter();
  writer.value('probe', 1);
  const offsets = new Int32Array(terms + 1);
  model.forEach((m, t) => {
    offsets[t + 1] = (offsets[t] ?? 0) + m.slots.length;
  });
  const all = (pick: (m: Model) => number[]) => model.flatMap(pick);
  for (const list of ['postings', 'postingKeys', 'postingWeights']) {
    writer.array(`vocab.${list}.offsets`, offsets);
  }
  writer.array(
    'vocab.postings.data',
    Int32Array.from(all((m) => m.slots.map((s) => (s < 0 ? -1 : s)))),
  );
  writer.array('vocab.postingKeys.data', Int32Array.from(all((m) => m.keys)));
  writer.array('vocab.postingWeights.data', Float32Array.from(all((m) => m.weights)));
  return PostingLists.load(new SnapshotReader(bytesOf(writer)), 'vocab');
}

function randomOps(lists: PostingLists, model: Model[], seed: number, ops: number): void {
  const random = prng(seed);
  let key = Math.max(0, ...model.flatMap((m) => m.keys)) + 1;
  for (let op = 0; op < ops; op += 1) {
    // Skewed: a few terms get long lists (own chunks), most stay short.
    const term = Math.floor(random() ** 6 * model.length);
    const list = model[term] as Model;
    if (random() < 0.15 && list.keys.length > 0) {
      const at = Math.floor(random() * list.keys.length);
      lists.remove(term, list.keys[at] ?? 0, firstPhrasing);
      list.slots[at] = ~(list.keys[at] ?? 0);
      list.weights[at] = 0;
    } else {
      const weight = Math.fround(random() * 3);
      // Slots are never reused here (op), so each is one rule version of its own.
      const slot = firstPhrasing.length;
      firstPhrasing.push(key);
      lists.add(term, slot, weight);
      list.slots.push(slot);
      list.keys.push(key);
      list.weights.push(weight);
      key += 1;
    }
  }
}

test('lists read back what was added and tombstoned, across moves, a clear and a save', () => {
  const terms = 3000;
  let lists = new PostingLists();
  lists.ensureTerms(terms);
  const model: Model[] = Array.from({ length: terms }, () => ({
    slots: [],
    keys: [],
    weights: [],
  }));
  randomOps(lists, model, 7, 60_000);
  check(lists, model);

  const saved = lists;
  lists = saveAndLoad(saved, terms, model);
  check(lists, model);
  // A file of format 5 opens to the same lists (its tombstones take their keys back).
  const format5 = loadFormat5(terms, model);
  check(format5, model);
  for (let term = 0; term < terms; term += 1) {
    assert.deepEqual(read(format5, term), read(lists, term), `term ${term} from format 5`);
  }
  // Lists opened from a save grow out of the loaded chunk into new ones. Every weight here is
  // new: past 65,536 distinct ones the two-byte codes widen to four, and still read back.
  assert.ok(lists.weightChunks.every((codes) => codes instanceof Uint16Array));
  randomOps(lists, model, 8, 30_000);
  assert.ok(lists.weights.length > 1 << 16);
  assert.ok(lists.weightChunks.every((codes) => codes instanceof Int32Array));
  check(lists, model);
  lists = saveAndLoad(lists, terms, model);
  check(lists, model);

  lists.clear();
  const fresh: Model[] = Array.from({ length: terms }, () => ({
    slots: [],
    keys: [],
    weights: [],
  }));
  check(lists, fresh);
  randomOps(lists, fresh, 9, 20_000);
  check(lists, fresh);
});

test('short lists share chunks; runs left by moved lists are reused', () => {
  const lists = new PostingLists();
  lists.ensureTerms(10_000);
  for (let term = 0; term < 10_000; term += 1) lists.add(term, term, 1);
  // 10,000 one-posting lists: one chunk, not 30,000 arrays.
  assert.equal(lists.slotChunks.length, 1);
  // Growing every list past its first run (1) moves each through runs of 2 and 4 to one of 8;
  // the runs of 1 they leave take the next 10,000 new lists without a new chunk beyond those
  // the moves needed.
  for (let term = 0; term < 10_000; term += 1) {
    for (let k = 1; k <= 4; k += 1) lists.add(term, term, 1);
  }
  const chunksAfterMoves = lists.slotChunks.length;
  lists.ensureTerms(20_000);
  for (let term = 10_000; term < 20_000; term += 1) lists.add(term, term, 1);
  assert.equal(lists.slotChunks.length, chunksAfterMoves);
});

test('a posting takes two bytes for its weight while weights recur, saved and opened so', () => {
  const lists = new PostingLists();
  lists.ensureTerms(1000);
  const weights = Array.from({ length: 300 }, (_, i) => Math.log1p((i + 1) / 7));
  let postings = 0;
  for (let slot = 0; slot < 20_000; slot += 1) {
    for (let k = 0; k < 5; k += 1) {
      lists.add((slot * 7 + k * 131) % 1000, slot, weights[(slot + k) % 300] ?? 0);
      postings += 1;
    }
  }
  // The weight 0 of a tombstone is one of the table's.
  assert.equal(lists.weights.length, 301);
  assert.ok(lists.weightChunks.every((codes) => codes instanceof Uint16Array));
  const writer = new SnapshotWriter();
  lists.save(writer, 'vocab', 1000);
  const reader = new SnapshotReader(bytesOf(writer));
  assert.equal(reader.arrayKind('vocab.postingWeights.codes'), 'u16');
  assert.equal(reader.u16('vocab.postingWeights.codes').byteLength, 2 * postings);
  assert.equal(reader.hasArray('vocab.postingWeights.data'), false);
  const opened = PostingLists.load(reader, 'vocab');
  for (let term = 0; term < 1000; term += 1)
    assert.deepEqual(read(opened, term), read(lists, term));
});
