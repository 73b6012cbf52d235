/**
 * The wire clients of embedding providers, in the two shapes the issue fixes (docs/matching.md,
 * "Embedding providers"):
 *   openai: POST {base}/embeddings   {"model": M, "input": [texts]} → {"data": [{"index", "embedding"}]}
 *           (an API key, if any, as `Authorization: Bearer`)
 *   ollama: POST {base}/api/embed    {"model": M, "input": [texts]} → {"embeddings": [[floats]]}
 * Every call has a deadline and may be aborted; a reply of the wrong shape is a failure. The key
 * is never put in an error message.
 * @module
 */

export type EmbeddingApi = 'openai' | 'ollama';

export const EMBEDDING_APIS: readonly EmbeddingApi[] = ['openai', 'ollama'];

/** Where a robot's vectors come from. */
export interface EmbeddingProvider {
  api: EmbeddingApi;
  /** `http://127.0.0.1:11434/v1` (openai) or `http://127.0.0.1:11434` (ollama). */
  base: string;
  model: string;
  /** Sent as `Authorization: Bearer`; never returned, never logged. */
  apiKey?: string;
}

/** Why a call gave no vectors. */
export type EmbeddingFailureKind = 'timeout' | 'http' | 'network' | 'shape' | 'aborted';

export class EmbeddingFailure extends Error {
  constructor(
    readonly kind: EmbeddingFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddingFailure';
  }
}

const isVector = (value: unknown): value is number[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((x) => typeof x === 'number' && Number.isFinite(x));

/** The vectors of a reply, in the order of the texts sent; throws `shape` when it is not one. */
export function parseEmbeddings(api: EmbeddingApi, body: unknown, count: number): number[][] {
  const fail = (why: string): never => {
    throw new EmbeddingFailure('shape', `the provider's reply is not ${api}'s shape: ${why}`);
  };
  if (body === null || typeof body !== 'object') return fail('not a JSON object');
  let vectors: unknown[];
  if (api === 'ollama') {
    const embeddings = (body as { embeddings?: unknown }).embeddings;
    if (!Array.isArray(embeddings)) return fail('no "embeddings" array');
    vectors = embeddings;
  } else {
    const data = (body as { data?: unknown }).data;
    if (!Array.isArray(data)) return fail('no "data" array');
    vectors = new Array<unknown>(data.length);
    for (const [position, item] of data.entries()) {
      const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
      // OpenAI's servers give every item its index; a server that leaves it out keeps the order.
      const at = typeof index === 'number' ? index : position;
      if (!Number.isInteger(at) || at < 0 || at >= data.length)
        return fail(`index ${String(index)}`);
      vectors[at] = embedding;
    }
  }
  if (vectors.length !== count) return fail(`${vectors.length} vectors for ${count} texts`);
  const dimensions = Array.isArray(vectors[0]) ? vectors[0].length : 0;
  return vectors.map((vector, i) => {
    if (!isVector(vector)) return fail(`vector ${i} is not a list of numbers`);
    if (vector.length !== dimensions) return fail('vectors of different lengths');
    return vector;
  });
}

/** The URL a provider is called at. */
export function endpointOf(provider: EmbeddingProvider): string {
  const base = provider.base.replace(/\/+$/, '');
  return provider.api === 'ollama' ? `${base}/api/embed` : `${base}/embeddings`;
}

/**
 * The vectors of `texts` from the provider, within `timeoutMs` (and `signal`, if given). Throws
 * `EmbeddingFailure` on a deadline, a refused or broken connection, a non-2xx answer, or a reply
 * of the wrong shape.
 */
export async function embedTexts(
  provider: EmbeddingProvider,
  texts: readonly string[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<number[][]> {
  if (texts.length === 0) return [];
  const deadline = AbortSignal.timeout(Math.max(1, timeoutMs));
  const combined = signal ? AbortSignal.any([deadline, signal]) : deadline;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (provider.apiKey) headers.authorization = `Bearer ${provider.apiKey}`;
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(endpointOf(provider), {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: provider.model, input: texts }),
      signal: combined,
    });
    if (!response.ok) {
      // The body is read so that the connection can be reused, but not reported (it may echo
      // the request).
      await response.arrayBuffer().catch(() => undefined);
      throw new EmbeddingFailure('http', `the provider answered HTTP ${response.status}`);
    }
    body = await response.json().catch(() => {
      throw new EmbeddingFailure('shape', "the provider's reply is not JSON");
    });
  } catch (error) {
    if (error instanceof EmbeddingFailure) throw error;
    if (deadline.aborted) {
      throw new EmbeddingFailure('timeout', `no answer from the provider within ${timeoutMs} ms`);
    }
    if (signal?.aborted) throw new EmbeddingFailure('aborted', 'the call was cancelled');
    const cause =
      error instanceof Error
        ? ((error.cause as Error | undefined)?.message ?? error.message)
        : String(error);
    throw new EmbeddingFailure('network', `the provider could not be reached (${cause})`);
  }
  return parseEmbeddings(provider.api, body, texts.length);
}
