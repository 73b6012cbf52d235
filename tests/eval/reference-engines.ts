/**
 * Reference matchers for the evaluation table: plain fuse.js over all phrasings, BM25 over
 * phrasings (MiniSearch), and character-bigram TF-IDF with cosine similarity. Each ranks rule
 * names; none has a decision layer, so they only get the ranking metrics.
 * @module
 */
import Fuse from 'fuse.js';
import MiniSearch from 'minisearch';
import type { EvalRule } from './dataset';

export interface Ranker {
  name: string;
  /** Distinct rule names, best first (at most `limit`). */
  rank(question: string, limit: number): string[];
}

interface PhrasingDoc {
  id: number;
  rule: string;
  question: string;
}

function phrasingDocs(rules: readonly EvalRule[]): PhrasingDoc[] {
  const docs: PhrasingDoc[] = [];
  for (const rule of rules) {
    for (const question of rule.questions) {
      docs.push({ id: docs.length, rule: rule.ruleName, question });
    }
  }
  return docs;
}

function distinct(rules: Iterable<string>, limit: number): string[] {
  const out: string[] = [];
  for (const rule of rules) {
    if (!out.includes(rule)) out.push(rule);
    if (out.length >= limit) break;
  }
  return out;
}

export function fuseRanker(rules: readonly EvalRule[]): Ranker {
  const docs = phrasingDocs(rules);
  const fuse = new Fuse(docs, { keys: ['question'], includeScore: true });
  return {
    name: 'fuse',
    rank: (question, limit) =>
      distinct(
        fuse.search(question).map((r) => r.item.rule),
        limit,
      ),
  };
}

export function bm25Ranker(rules: readonly EvalRule[]): Ranker {
  const docs = phrasingDocs(rules);
  const search = new MiniSearch<PhrasingDoc>({
    fields: ['question'],
    storeFields: ['rule'],
    // MiniSearch splits on spaces and punctuation; Chinese has neither between words, so each
    // Han character is a token of its own (the usual BM25 baseline for Chinese).
    tokenize: (text) => text.match(/\p{Script=Han}|[\p{L}\p{N}]+/gu) ?? [],
  });
  search.addAll(docs);
  return {
    name: 'bm25',
    rank: (question, limit) =>
      distinct(
        search.search(question).map((r) => String(r['rule'])),
        limit,
      ),
  };
}

function bigrams(text: string): Map<string, number> {
  const chars = Array.from(text.toLowerCase().replace(/\s+/g, ' ').trim());
  const counts = new Map<string, number>();
  for (let i = 0; i + 1 < chars.length; i += 1) {
    const gram = `${chars[i] ?? ''}${chars[i + 1] ?? ''}`;
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** Character bigrams, TF-IDF weights, cosine with each phrasing, best phrasing per rule. */
export function bigramTfidfRanker(rules: readonly EvalRule[]): Ranker {
  const docs = phrasingDocs(rules);
  const df = new Map<string, number>();
  const raw = docs.map((doc) => bigrams(doc.question));
  for (const counts of raw) for (const gram of counts.keys()) df.set(gram, (df.get(gram) ?? 0) + 1);
  const idf = (gram: string): number => Math.log((docs.length + 1) / ((df.get(gram) ?? 0) + 1)) + 1;
  const weigh = (counts: Map<string, number>): Map<string, number> => {
    const vector = new Map<string, number>();
    let norm = 0;
    for (const [gram, tf] of counts) {
      const w = (1 + Math.log(tf)) * idf(gram);
      vector.set(gram, w);
      norm += w * w;
    }
    norm = Math.sqrt(norm) || 1;
    for (const [gram, w] of vector) vector.set(gram, w / norm);
    return vector;
  };
  const postings = new Map<string, { doc: number; w: number }[]>();
  raw.forEach((counts, doc) => {
    for (const [gram, w] of weigh(counts)) {
      let list = postings.get(gram);
      if (list === undefined) postings.set(gram, (list = []));
      list.push({ doc, w });
    }
  });
  return {
    name: 'bigram-tfidf',
    rank(question, limit) {
      const scores = new Map<number, number>();
      for (const [gram, w] of weigh(bigrams(question))) {
        for (const posting of postings.get(gram) ?? []) {
          scores.set(posting.doc, (scores.get(posting.doc) ?? 0) + w * posting.w);
        }
      }
      const ranked = [...scores].sort((a, b) => b[1] - a[1]);
      return distinct(
        ranked.map(([doc]) => docs[doc]?.rule ?? ''),
        limit,
      );
    },
  };
}
