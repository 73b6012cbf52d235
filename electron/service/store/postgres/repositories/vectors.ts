/**
 * The team server's vector cache (server migration 8): every node reads what any node embedded.
 * Written on the pool, outside the store's transactions: a cached vector is not a change of the
 * knowledge base (no position taken, nothing in the change feed).
 * @module
 */
import type { CachedVector, VectorCache } from '../../contract/vectors';
import { vectorKey } from '../../sql/vector-keys';
import type { Database } from '../database';
import { mappedError } from '../database-errors';

interface VectorRow {
  cache_key: string;
  scale: number;
  vector: Buffer;
}

export class PostgresVectorCache implements VectorCache {
  constructor(private readonly db: Database) {}

  async get(model: string, texts: readonly string[]): Promise<Map<string, CachedVector>> {
    const found = new Map<string, CachedVector>();
    if (texts.length === 0) return found;
    const byKey = new Map(texts.map((text) => [vectorKey(model, text), text]));
    const rows = await this.db.all<VectorRow>(
      'SELECT cache_key, scale, vector FROM embedding_cache WHERE cache_key = ANY($1::text[])',
      [[...byKey.keys()]],
    );
    for (const row of rows) {
      const text = byKey.get(row.cache_key);
      if (text === undefined) continue;
      const values = new Int8Array(row.vector.length);
      values.set(new Int8Array(row.vector.buffer, row.vector.byteOffset, row.vector.length));
      found.set(text, { values, scale: Number(row.scale) });
    }
    return found;
  }

  async put(model: string, vectors: ReadonlyMap<string, CachedVector>): Promise<void> {
    if (vectors.size === 0) return;
    const keys: string[] = [];
    const scales: number[] = [];
    const hex: string[] = [];
    for (const [text, vector] of vectors) {
      keys.push(vectorKey(model, text));
      scales.push(vector.scale);
      hex.push(
        Buffer.from(vector.values.buffer, vector.values.byteOffset, vector.values.length).toString(
          'hex',
        ),
      );
    }
    await this.db.connections
      .query(
        `INSERT INTO embedding_cache (cache_key, scale, vector)
         SELECT k, s, decode(v, 'hex') FROM unnest($1::text[], $2::float8[], $3::text[]) AS t(k, s, v)
         ON CONFLICT (cache_key) DO NOTHING`,
        [keys, scales, hex],
      )
      .catch((error: unknown) => {
        throw mappedError(error);
      });
  }
}
