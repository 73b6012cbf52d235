/**
 * `npm run eval -- --embeddings BASE [--embedding-model M] [--embedding-api openai|ollama]`: the
 * engine with an embedding provider. Every text of a dataset (phrasings, names, queries, the
 * small-talk probes) is embedded once, in batches; the robot's fusion is calibrated on its own
 * phrasings as the service does it (its self-test), then each query is answered with its vector.
 * Two engines come of it: `kbstudio+emb` (the fusion, with the decision) and `embedding` (the
 * model alone: each query's rule is its nearest phrasing's).
 * @module
 */
import { embedTexts } from '../../electron/service/embedding/provider-client';
import type { EmbeddingProvider } from '../../electron/service/embedding/provider-client';
import type { SynonymAwareRobotIndex } from '../../electron/service/matching/index';
import { SemanticIndex } from '../../electron/service/matching/semantic-index';
import type { MatchSettings } from '../../electron/service/matching/types';
import { VectorSpace, quantize } from '../../electron/service/matching/vector-space';

const BATCH = 64;
const TIMEOUT_MS = 120_000;

/** Vectors of texts, embedded once each. */
export class EvalEmbeddings {
  private readonly vectors = new Map<string, number[]>();
  constructor(readonly provider: EmbeddingProvider) {}

  async embed(texts: Iterable<string>): Promise<void> {
    const todo = [...new Set([...texts].map((t) => t.trim()))].filter(
      (t) => t !== '' && !this.vectors.has(t),
    );
    for (let i = 0; i < todo.length; i += BATCH) {
      const batch = todo.slice(i, i + BATCH);
      // Once more after a broken connection (a server that closed an idle keep-alive socket).
      const vectors = await embedTexts(this.provider, batch, TIMEOUT_MS).catch(() =>
        embedTexts(this.provider, batch, TIMEOUT_MS),
      );
      batch.forEach((text, j) => this.vectors.set(text, vectors[j] as number[]));
    }
  }

  vectorOf(text: string): number[] | undefined {
    return this.vectors.get(text.trim());
  }

  get dimensions(): number {
    const first = this.vectors.values().next();
    return first.done === true ? 0 : first.value.length;
  }
}

/** The semantic channel of an evaluation index, vectors filled and fusion calibrated. */
export function semanticIndexOf(
  index: SynonymAwareRobotIndex,
  embeddings: EvalEmbeddings,
  nowMs: number,
  settings: MatchSettings,
  /** Rows from which the inverted lists are used (tests/eval/vector-lists-recall.ts lowers it). */
  listMinRows?: number,
): SemanticIndex {
  const space = new VectorSpace(embeddings.dimensions, listMinRows);
  const semantic = new SemanticIndex(index, space);
  for (const text of space.takeMissing(Infinity)) {
    const vector = embeddings.vectorOf(text);
    if (vector) space.set(text, quantize(vector));
  }
  // As the service does: the lists (when the space is large enough) before the self-test.
  space.lists.train();
  semantic.calibrate(nowMs, settings);
  return semantic;
}
