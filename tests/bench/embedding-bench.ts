/**
 * `npm run bench -- --embedding [--embedding-size N,N…] [--embedding-dimensions D]`: the embedding
 * channel's cost (docs/matching.md, "Embedding channel"), in-process, at each N rules (1k, 10k
 * and 100k by default) of the bench's generated rules:
 *   - indexing: the rules upserted into a matching index alone, and into one whose rules an
 *     embedding space follows (the vectors themselves are made later, in the background);
 *   - vectors: their memory (int8 + scale per distinct text) once every text has one;
 *   - asks: a provider of our own answering in 5 ms over HTTP (tests/helpers/embedding-server.ts),
 *     p50/p99 of the lexical ask alone, of the provider's call, of the exact search alone, of the
 *     ask with fusion after the vector came (lexical + search + fusion + decision), and of the
 *     whole; the fused ask is also given as a ratio to the lexical ask of the same run.
 * Figures of one run, to be read as ratios against the lexical ask of the same run.
 * @module
 */
import { embedTexts } from '../../electron/service/embedding/provider-client';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../electron/service/matching/index';
import { SemanticIndex } from '../../electron/service/matching/semantic-index';
import { VectorSpace } from '../../electron/service/matching/vector-space';
import { startEmbeddingServer } from '../helpers/embedding-server';
import { prng } from '../helpers/prng';
import { generateRules } from './generate-rules';
import { percentile, round } from './stats';
import { deriveQueries } from './typed-questions';

export interface EmbeddingFigures {
  rules: number;
  texts: number;
  dimensions: number;
  indexMs: number;
  indexFollowedMs: number;
  vectorMb: number;
  lexical: { p50: number; p99: number };
  provider: { p50: number; p99: number };
  search: { p50: number; p99: number };
  fusedInProcess: { p50: number; p99: number };
  whole: { p50: number; p99: number };
}

const NOW = Date.UTC(2026, 0, 1);
const ASKS = 300;

export async function measureEmbedding(
  size: number,
  dimensions: number,
): Promise<EmbeddingFigures> {
  const rules = generateRules(size, 42).map((rule, i) => ({
    ruleId: `r${i}`,
    ruleName: rule.ruleName,
    questions: rule.questions,
    active: true,
    effectBeginMs: null,
    effectEndMs: null,
  }));
  let started = performance.now();
  const plain = createRobotIndex({ selfCalibration: false });
  for (const rule of rules) plain.upsert(rule);
  const indexMs = performance.now() - started;

  const index = createRobotIndex({ selfCalibration: false });
  const space = new VectorSpace(dimensions);
  const semantic = new SemanticIndex(index, space);
  started = performance.now();
  for (const rule of rules) index.upsert(rule);
  const indexFollowedMs = performance.now() - started;

  // Every text's vector (random: the search's cost does not depend on the values).
  const random = prng(7);
  for (const text of space.takeMissing(Infinity)) {
    const values = new Int8Array(dimensions);
    for (let d = 0; d < dimensions; d += 1) values[d] = Math.floor(random() * 255) - 127;
    let norm = 0;
    for (const v of values) norm += v * v;
    space.set(text, { values, scale: 1 / Math.sqrt(norm || 1) });
  }
  semantic.calibrate(NOW);

  const server = await startEmbeddingServer({ dimensions, delayMs: 5, quality: 0 });
  const provider = { api: 'openai' as const, base: `${server.url}/v1`, model: 'bench' };
  const questions = deriveQueries(generateRules(size, 42), ASKS);
  const lexical: number[] = [];
  const calls: number[] = [];
  const fused: number[] = [];
  const searches: number[] = [];
  const whole: number[] = [];
  try {
    for (const [i, question] of questions.entries()) {
      const t0 = performance.now();
      index.match(question, NOW, DEFAULT_MATCH_SETTINGS);
      const t1 = performance.now();
      const [vector] = await embedTexts(provider, [`${question} ${i}`], 10_000);
      const t2 = performance.now();
      index.match(`${question} `, NOW, DEFAULT_MATCH_SETTINGS, semantic.channel(vector ?? []));
      const t3 = performance.now();
      semantic.search(vector ?? [], NOW);
      searches.push(performance.now() - t3);
      lexical.push(t1 - t0);
      calls.push(t2 - t1);
      fused.push(t3 - t2);
      whole.push(t3 - t1);
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
    vectorMb: round(space.bytes / 1e6, 1),
    lexical: figures(lexical),
    provider: figures(calls),
    search: figures(searches),
    fusedInProcess: figures(fused),
    whole: figures(whole),
  };
}

export function embeddingLine(f: EmbeddingFigures): string {
  return (
    `embedding at ${f.rules} rules (${f.texts} texts × ${f.dimensions}): indexing ${f.indexMs} ms, ` +
    `followed ${f.indexFollowedMs} ms (×${round(f.indexFollowedMs / f.indexMs, 2)}); vectors ${f.vectorMb} MB; ` +
    `ask p50/p99 lexical ${f.lexical.p50}/${f.lexical.p99} ms, provider ${f.provider.p50}/${f.provider.p99} ms, ` +
    `search alone ${f.search.p50}/${f.search.p99} ms, ` +
    `fused after the vector ${f.fusedInProcess.p50}/${f.fusedInProcess.p99} ms ` +
    `(×${round(f.fusedInProcess.p50 / f.lexical.p50, 2)}/×${round(f.fusedInProcess.p99 / f.lexical.p99, 2)} the lexical ask), ` +
    `whole ${f.whole.p50}/${f.whole.p99} ms`
  );
}
