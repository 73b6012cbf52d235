/**
 * The embedding models' vectors, cached by (model, text): a restart, a republish or a second node
 * of a team server embeds nothing it has embedded before. Not knowledge: the cache is written
 * beside the store's position (no change feed, no journal record), and losing part of it only
 * costs embedding again.
 * @module
 */

/** A text's vector as the vector space keeps it (matching/vector-space.ts): int8 and a scale. */
export interface CachedVector {
  values: Int8Array;
  scale: number;
}

export interface VectorCache {
  /** The cached vectors of those of `texts` the cache holds under `model`. */
  get(model: string, texts: readonly string[]): Promise<Map<string, CachedVector>>;
  /** Keeps vectors under `model` (a text kept already keeps its first vector). */
  put(model: string, vectors: ReadonlyMap<string, CachedVector>): Promise<void>;
}
