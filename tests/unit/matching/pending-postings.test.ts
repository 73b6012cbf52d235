/**
 * Postings held back and appended term by term (pending-postings.ts, decision 187) leave the
 * lists as appending each at once does: the same postings in the same order, the same weight
 * codes (so the saved index is the same, byte for byte), whether the lists are read between
 * adds, a posting is removed right after its add, or compaction clears them mid-batch.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SnapshotWriter } from '../../../electron/service/matching/binary-snapshot';
import { PostingLists } from '../../../electron/service/matching/posting-lists';
import { Vocabulary } from '../../../electron/service/matching/vocabulary';
import { prng } from '../../helpers/prng';

function savedBytes(lists: PostingLists, terms: number): number[] {
  const writer = new SnapshotWriter();
  lists.save(writer, 'vocab', terms);
  const out: number[] = [];
  writer.write((chunk) => out.push(...chunk));
  return out;
}

/**
 * The same random adds, removes, reads and clears on a vocabulary (held back) and on plain
 * lists (each posting appended at once).
 */
function replay(seed: number, ops: number, readEvery: number): void {
  const random = prng(seed);
  const vocab = new Vocabulary();
  const plain = new PostingLists();
  const terms = 3000;
  for (let t = 0; t < terms; t += 1) vocab.internWord(`w${t}`);
  plain.ensureTerms(terms);
  // The key of a live posting is its slot's first phrasing: one phrasing per slot here.
  const firstPhrasing: number[] = [];
  let slot = 0;
  const added: { term: number; slot: number }[] = [];
  for (let op = 0; op < ops; op += 1) {
    const roll = random();
    if (roll < 0.004) {
      vocab.clearPostings();
      plain.clear();
      added.length = 0;
    } else if (roll < 0.03 && added.length > 0) {
      const { term, slot: removed } = added[Math.floor(random() * added.length)] as {
        term: number;
        slot: number;
      };
      vocab.removePosting(term, firstPhrasing[removed] ?? 0, firstPhrasing);
      plain.remove(term, firstPhrasing[removed] ?? 0, firstPhrasing);
    } else {
      // A rule of a few terms, skewed so that some terms are in most rules.
      firstPhrasing[slot] = slot;
      const seen = new Set<number>();
      const count = 1 + Math.floor(random() * 12);
      for (let k = 0; k < count; k += 1) {
        const term = Math.floor(random() ** 4 * terms);
        if (seen.has(term)) continue;
        seen.add(term);
        const weight = Math.log1p(Math.round(random() * 40) / 8);
        vocab.addPosting(term, slot, weight);
        plain.add(term, slot, weight);
        added.push({ term, slot });
      }
      slot += 1;
    }
    if (readEvery > 0 && op % readEvery === 0) {
      assert.deepEqual(savedBytes(vocab.postings, terms), savedBytes(plain, terms), `op ${op}`);
    }
  }
  const lists = vocab.postings;
  assert.deepEqual(savedBytes(lists, terms), savedBytes(plain, terms));
  assert.deepEqual(Array.from(lists.weights), Array.from(plain.weights));
  for (let t = 0; t < terms; t += 1) {
    assert.ok((lists.max[t] ?? 0) === (plain.max[t] ?? 0), `max of term ${t}`);
  }
}

test('held-back postings end as those appended at once, codes and saved bytes included', () => {
  // Enough postings to fill the batch several times, lists read only at the end.
  replay(31, 40_000, 0);
});

test('lists read between adds see every posting added so far', () => {
  replay(187, 4_000, 97);
});
