/**
 * `npm run bench -- --embedding [--embedding-size N,N…] [--embedding-dimensions D]`: the embedding
 * channel's cost (docs/matching.md, "Embedding channel"), in-process, at each N rules (1k, 10k
 * and 100k by default) of the bench's generated rules:
 *   - indexing: the rules upserted into a matching index alone, and into one whose rules an
 *     embedding space follows (the writes only queued, decision 160), then the queue followed
 *     as the embedder does in its turns (the vectors themselves are made later);
 *   - vectors: their memory (int8 + scale per distinct text) once every text has one, made with
 *     a structure like a real model's (topics, rules near a topic, phrasings near their rule:
 *     `clusteredVectors`), and the inverted lists' build time and memory (vector-lists.ts; below
 *     its threshold a space has none and searches every row);
 *   - asks: a provider of our own answering in 5 ms over HTTP (tests/helpers/embedding-server.ts),
 *     p50/p99 of the lexical ask alone, of the provider's call, of the search alone (through the
 *     lists, and exact), of the ask with fusion after the vector came (lexical + search + fusion +
 *     decision; through the lists, and exact), and of the whole; the fused ask is also given as a
 *     ratio to the lexical ask of the same run. The question's vector is a paraphrase of the rule
 *     its text was derived from (the provider's own is noise);
 *   - the same search and fused ask with the lists' rows gathered one by one wherever they lie
 *     (`VectorSpace.blocks` off: the layout before decision 125), alternated with the laid-out
 *     probe question by question, as the baseline of the same run;
 *   - the rows a search compared through the lists and the rate it read them at (p50);
 *   - recall@1 and @10 of the rules found through the lists against the exact search's.
 * Figures of one run, to be read as ratios against the lexical ask of the same run.
 * @module
 */
import { embedTexts } from '../../electron/service/embedding/provider-client';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../electron/service/matching/index';
import { SemanticIndex } from '../../electron/service/matching/semantic-index';
import { VectorSpace, quantize } from '../../electron/service/matching/vector-space';
import { startEmbeddingServer } from '../helpers/embedding-server';
import { prng } from '../helpers/prng';
import { fillIndex, generateRules, matchableRules } from './generate-rules';
import { percentile, round } from './stats';
import { deriveQueries } from './typed-questions';

interface Spread {
  p50: number;
  p99: number;
}

export interface EmbeddingFigures {
  rules: number;
  texts: number;
  dimensions: number;
  indexMs: number;
  indexFollowedMs: number;
  /** The queued writes followed afterwards, in the embedder's turns (decision 160). */
  followMs: number;
  vectorMb: number;
  /** Lists (0: the space is below the threshold), their build and memory, lists probed. */
  lists: { count: number; buildMs: number; mb: number; probed: number };
  /** Rows a search compared on average (through the lists), and the kernel's read rate then. */
  rowsPerSearch: number;
  searchGbPerS: number;
  /** CPU time of a search (mean, ms), through the lists and exact: less bent by a busy machine. */
  searchCpuMs: { lists: number; gathered: number; exact: number };
  lexical: Spread;
  provider: Spread;
  search: Spread;
  searchExact: Spread;
  /** The search and the fused ask gathering the listed rows one by one (the baseline). */
  searchGather: Spread;
  fusedGather: Spread;
  fusedInProcess: Spread;
  /**
   * What follows the vector in a real ask: its lexical candidates were worked out while the
   * provider embedded the question (decision 127), so the search, the fusion and the decision.
   */
  afterVector: Spread;
  fusedExact: Spread;
  whole: Spread;
  recall: { at1: number; at10: number };
}

/** Unit vector of `centre` plus noise of length `spread` (uniform components, normalised). */
function around(centre: Float32Array, spread: number, random: () => number): Float32Array {
  const out = new Float32Array(centre.length);
  let norm = 0;
  for (let d = 0; d < out.length; d += 1) {
    const v = random() - 0.5;
    out[d] = v;
    norm += v * v;
  }
  const k = spread / Math.sqrt(norm || 1);
  let total = 0;
  for (let d = 0; d < out.length; d += 1) {
    const v = (centre[d] as number) + k * (out[d] as number);
    out[d] = v;
    total += v * v;
  }
  const n = 1 / Math.sqrt(total || 1);
  for (let d = 0; d < out.length; d += 1) out[d] = (out[d] as number) * n;
  return out;
}

/**
 * A real model's structure, roughly: a topic per 50 rules, each rule's direction near a topic
 * (cosine ~0.8), each phrasing near its rule (~0.87). Gives each rule's direction.
 */
export function clusteredVectors(
  rules: readonly { questions: readonly string[]; ruleName: string }[],
  space: VectorSpace,
  dimensions: number,
): Float32Array[] {
  const random = prng(7);
  const zero = new Float32Array(dimensions);
  const topics = Array.from({ length: Math.max(8, Math.round(rules.length / 50)) }, () =>
    around(zero, 1, random),
  );
  return rules.map((rule) => {
    const topic = topics[Math.floor(random() * topics.length)] ?? zero;
    const direction = around(topic, 0.75, random);
    for (const text of [rule.ruleName, ...rule.questions]) {
      const row = space.rowOfText(text.trim());
      if (row >= 0 && !space.has(row))
        space.set(text.trim(), quantize(around(direction, 0.55, random)));
    }
    return direction;
  });
}

const NOW = Date.UTC(2026, 0, 1);
const ASKS = 300;
/** Asks also answered by the exact search (recall, and its time): 0.5–1.5 s each at 100k. */
const EXACT_ASKS = 40;

export async function measureEmbedding(
  size: number,
  dimensions: number,
): Promise<EmbeddingFigures> {
  const rules = matchableRules(generateRules(size, 42));
  let started = performance.now();
  fillIndex(createRobotIndex({ selfCalibration: false }), rules);
  const indexMs = performance.now() - started;

  const index = createRobotIndex({ selfCalibration: false });
  const space = new VectorSpace(dimensions);
  const semantic = new SemanticIndex(index, space);
  started = performance.now();
  fillIndex(index, rules);
  const indexFollowedMs = performance.now() - started;
  started = performance.now();
  semantic.followWrites();
  const followMs = performance.now() - started;

  space.takeMissing(Infinity);
  const directions = clusteredVectors(rules, space, dimensions);
  started = performance.now();
  space.lists.train();
  const buildMs = performance.now() - started;
  semantic.calibrate(NOW);

  const server = await startEmbeddingServer({ dimensions, delayMs: 5, quality: 0 });
  const provider = { api: 'openai' as const, base: `${server.url}/v1`, model: 'bench' };
  const questions = deriveQueries(generateRules(size, 42), ASKS);
  const random = prng(11);
  const lexical: number[] = [];
  const calls: number[] = [];
  const fused: number[] = [];
  const afterVector: number[] = [];
  const fusedExact: number[] = [];
  const searches: number[] = [];
  const searchesExact: number[] = [];
  const searchesGather: number[] = [];
  const fusedGather: number[] = [];
  const whole: number[] = [];
  let compared = 0;
  let cpuLists = 0;
  let cpuExact = 0;
  let cpuGather = 0;
  const cpuSince = (start: NodeJS.CpuUsage): number => {
    const used = process.cpuUsage(start);
    return (used.user + used.system) / 1000;
  };
  const gathered = (question: string, vector: Float32Array): void => {
    space.blocks = false;
    const t0 = performance.now();
    index.match(`${question}   `, NOW, DEFAULT_MATCH_SETTINGS, semantic.channel(vector));
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    semantic.search(vector, NOW);
    const t2 = performance.now();
    cpuGather += cpuSince(c1);
    space.blocks = true;
    fusedGather.push(t1 - t0);
    searchesGather.push(t2 - t1);
  };
  let at1 = 0;
  let found = 0;
  let wanted = 0;
  try {
    for (const [i, question] of questions.entries()) {
      // deriveQueries's rule for question i; its vector a paraphrase of that rule's.
      const direction = directions[(i * 7919) % rules.length] ?? new Float32Array(dimensions);
      const vector = around(direction, 0.55, random);
      const t0 = performance.now();
      index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
      const t1 = performance.now();
      await embedTexts(provider, [`${question} ${i}`], 10_000);
      const t2 = performance.now();
      // As an ask does it: the lexical candidates while the provider works, then the vector.
      const asked = `${question}    `;
      index.prepare(asked, NOW);
      const t2p = performance.now();
      index.match(asked, NOW, DEFAULT_MATCH_SETTINGS, semantic.channel(vector));
      afterVector.push(performance.now() - t2p);
      // The baseline (rows gathered one by one) before the laid-out probe every other question.
      const gatherFirst = i % 2 === 1;
      if (gatherFirst) gathered(question, vector);
      const t2b = performance.now();
      index.match(`${question} `, NOW, DEFAULT_MATCH_SETTINGS, semantic.channel(vector));
      const t3 = performance.now();
      const c3 = process.cpuUsage();
      const near = semantic.search(vector, NOW);
      const t4 = performance.now();
      cpuLists += cpuSince(c3);
      if (!gatherFirst) gathered(question, vector);
      compared += near.compared;
      lexical.push(t1 - t0);
      calls.push(t2 - t1);
      fused.push(t3 - t2b);
      searches.push(t4 - t3);
      whole.push(t3 - t2b + (t2 - t1));
      if (i >= EXACT_ASKS) continue;
      space.approximate = false;
      const t4b = performance.now();
      index.match(`${question}  `, NOW, DEFAULT_MATCH_SETTINGS, semantic.channel(vector));
      const t5 = performance.now();
      const c5 = process.cpuUsage();
      const exact = semantic.search(vector, NOW);
      const t6 = performance.now();
      cpuExact += cpuSince(c5);
      space.approximate = true;
      if (near.hits[0]?.ruleId === exact.hits[0]?.ruleId) at1 += 1;
      const exactIds = new Set(exact.hits.map((hit) => hit.ruleId));
      for (const hit of near.hits) if (exactIds.has(hit.ruleId)) found += 1;
      wanted += exactIds.size;
      fusedExact.push(t5 - t4b);
      searchesExact.push(t6 - t5);
    }
  } finally {
    await server.close();
  }
  const figures = (values: number[]) => ({
    p50: round(percentile(values, 50), 2),
    p99: round(percentile(values, 99), 2),
  });
  return {
    rules: size,
    texts: space.size,
    dimensions,
    indexMs: round(indexMs, 0),
    indexFollowedMs: round(indexFollowedMs, 0),
    followMs: round(followMs, 0),
    vectorMb: round(space.bytes / 1e6, 1),
    lists: {
      count: space.lists.usable ? space.lists.lists : 0,
      buildMs: round(buildMs, 0),
      mb: round(space.lists.bytes / 1e6, 2),
      probed: space.lists.usable ? space.lists.nprobe : 0,
    },
    rowsPerSearch: Math.round(compared / Math.max(1, questions.length)),
    searchGbPerS: round(
      ((compared / Math.max(1, questions.length)) * Math.ceil(dimensions / 16) * 16) /
        1e6 /
        Math.max(1e-3, percentile(searches, 50)),
      2,
    ),
    searchCpuMs: {
      lists: round(cpuLists / Math.max(1, questions.length), 3),
      gathered: round(cpuGather / Math.max(1, questions.length), 3),
      exact: round(cpuExact / Math.max(1, Math.min(EXACT_ASKS, questions.length)), 2),
    },
    lexical: figures(lexical),
    provider: figures(calls),
    search: figures(searches),
    searchExact: figures(searchesExact),
    searchGather: figures(searchesGather),
    fusedGather: figures(fusedGather),
    fusedInProcess: figures(fused),
    afterVector: figures(afterVector),
    fusedExact: figures(fusedExact),
    whole: figures(whole),
    recall: {
      at1: round(at1 / Math.min(EXACT_ASKS, questions.length), 3),
      at10: round(found / Math.max(1, wanted), 3),
    },
  };
}

export function embeddingLine(f: EmbeddingFigures): string {
  return (
    `embedding at ${f.rules} rules (${f.texts} texts × ${f.dimensions}): indexing ${f.indexMs} ms, ` +
    `followed ${f.indexFollowedMs} ms (×${round(f.indexFollowedMs / f.indexMs, 2)}), then its vectors' rows ${f.followMs} ms; vectors ${f.vectorMb} MB; ` +
    `ask p50/p99 lexical ${f.lexical.p50}/${f.lexical.p99} ms, provider ${f.provider.p50}/${f.provider.p99} ms, ` +
    `${f.lists.count > 0 ? `${f.lists.count} lists (${f.lists.probed} probed) built in ${f.lists.buildMs} ms, ${f.lists.mb} MB` : 'exact (no lists)'}; ` +
    `search alone ${f.search.p50}/${f.search.p99} ms over ${f.rowsPerSearch} rows (${f.searchGbPerS} GB/s at p50; ` +
    `exact ${f.searchExact.p50}/${f.searchExact.p99}, ×${round(f.search.p50 / f.searchExact.p50, 3)}; ` +
    `CPU ${f.searchCpuMs.lists} ms a search, gathered ${f.searchCpuMs.gathered}, exact ${f.searchCpuMs.exact}), ` +
    `fused after the vector ${f.fusedInProcess.p50}/${f.fusedInProcess.p99} ms ` +
    `(rows gathered one by one: search ${f.searchGather.p50}/${f.searchGather.p99}, fused ${f.fusedGather.p50}/${f.fusedGather.p99} ms; ` +
    `laid out ×${round(f.search.p50 / f.searchGather.p50, 2)}/×${round(f.search.p99 / f.searchGather.p99, 2)} search, ` +
    `×${round(f.fusedInProcess.p50 / f.fusedGather.p50, 2)}/×${round(f.fusedInProcess.p99 / f.fusedGather.p99, 2)} fused) ` +
    `(×${round(f.fusedInProcess.p50 / f.lexical.p50, 2)}/×${round(f.fusedInProcess.p99 / f.lexical.p99, 2)} the lexical ask; ` +
    `exact ${f.fusedExact.p50}/${f.fusedExact.p99} ms), after the vector with the lexical part done while the provider worked ${f.afterVector.p50}/${f.afterVector.p99} ms, whole ${f.whole.p50}/${f.whole.p99} ms; ` +
    `recall@1 ${f.recall.at1}, @10 ${f.recall.at10}`
  );
}
