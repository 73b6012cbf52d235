/**
 * An embedding provider for tests, the evaluation's curve and the bench: it answers both wire
 * shapes (OpenAI's `POST /v1/embeddings`, Ollama's `POST /api/embed`) with vectors of known
 * quality. A text labelled with a rule (a phrasing or a query of the datasets it is given) gets
 * √q·u(rule) + √(1−q)·n(text), u and n random unit vectors seeded by the rule's and the text's
 * hash: the expected cosine of two texts of one rule is q, of two rules 0. Other texts get n(text)
 * alone (q = 0 is pure noise). It can also hang, answer 500, close the connection, or answer
 * vectors of another length, and count what it was asked.
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prng } from './prng';

export type EmbeddingServerFault = 'none' | 'hang' | 'error500' | 'close' | 'wrong-dimension';

export interface EmbeddingServerOptions {
  /** 0 (noise) to 1 (every text of a rule the same vector). */
  quality?: number;
  dimensions?: number;
  /** Text → the rule it belongs to (texts not listed are noise). */
  labels?: ReadonlyMap<string, string>;
  /** Delay of every answer, ms. */
  delayMs?: number;
  fault?: EmbeddingServerFault;
  /** When set, requests without `Authorization: Bearer <apiKey>` are answered 401. */
  apiKey?: string;
}

export interface EmbeddingServer {
  /** `http://127.0.0.1:port` (Ollama's base; OpenAI's is `${url}/v1`). */
  readonly url: string;
  /** Options in force; change them between requests. */
  options: Required<Omit<EmbeddingServerOptions, 'apiKey'>> & { apiKey?: string };
  /** Texts embedded so far (each text of each request). */
  readonly embedded: string[];
  /** Requests answered or not, and the Authorization headers seen. */
  readonly requests: { path: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** A random unit vector seeded by `seed` (Gaussian components, Box–Muller). */
function unitRandom(seed: number, dimensions: number): Float64Array {
  const random = prng(seed);
  const out = new Float64Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i += 1) {
    const value = Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
    out[i] = value;
    norm += value * value;
  }
  for (let i = 0; i < dimensions; i += 1) out[i] = (out[i] ?? 0) / Math.sqrt(norm);
  return out;
}

/** The vector of a text under the options. */
export function knownQualityVector(
  text: string,
  rule: string | undefined,
  quality: number,
  dimensions: number,
): number[] {
  const noise = unitRandom(hash(`text:${text}`), dimensions);
  if (rule === undefined || quality <= 0) return Array.from(noise);
  const signal = unitRandom(hash(`rule:${rule}`), dimensions);
  const a = Math.sqrt(quality);
  const b = Math.sqrt(1 - quality);
  return Array.from(noise, (n, i) => a * (signal[i] ?? 0) + b * n);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startEmbeddingServer(
  options: EmbeddingServerOptions = {},
): Promise<EmbeddingServer> {
  const state: EmbeddingServer['options'] = {
    quality: options.quality ?? 0.5,
    dimensions: options.dimensions ?? 64,
    labels: options.labels ?? new Map(),
    delayMs: options.delayMs ?? 0,
    fault: options.fault ?? 'none',
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
  };
  const embedded: string[] = [];
  const requests: EmbeddingServer['requests'] = [];
  const hanging = new Set<ServerResponse>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    requests.push({ path, authorization: request.headers.authorization });
    const body = await readBody(request);
    const shape = path.endsWith('/api/embed')
      ? 'ollama'
      : path.endsWith('/embeddings')
        ? 'openai'
        : null;
    if (request.method !== 'POST' || shape === null) {
      response.writeHead(404).end();
      return;
    }
    if (state.apiKey !== undefined && request.headers.authorization !== `Bearer ${state.apiKey}`) {
      response
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"unauthorized"}');
      return;
    }
    const fault = state.fault;
    if (fault === 'hang') {
      hanging.add(response);
      return;
    }
    if (fault === 'close') {
      request.socket.destroy();
      return;
    }
    if (fault === 'error500') {
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
      return;
    }
    const { input } = JSON.parse(body) as { input: string[] | string };
    const texts = Array.isArray(input) ? input : [input];
    embedded.push(...texts);
    const dimensions = fault === 'wrong-dimension' ? state.dimensions + 1 : state.dimensions;
    const vectors = texts.map((text) =>
      knownQualityVector(text, state.labels.get(text), state.quality, dimensions),
    );
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const reply =
      shape === 'ollama'
        ? { model: 'test', embeddings: vectors }
        : {
            object: 'list',
            data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
          };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  };
  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.writeHead(400).end());
  });
  // Clients keep connections between batches that may be minutes apart (the evaluation).
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    options: state,
    embedded,
    requests,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Text → rule of a dataset's phrasings, names and queries (for `labels`). */
export function datasetLabels(
  datasets: readonly {
    rules: readonly { ruleName: string; questions: readonly string[] }[];
    queries: readonly { question: string; ruleName: string | null }[];
  }[],
): Map<string, string> {
  const labels = new Map<string, string>();
  const label = (text: string, rule: string) => {
    const key = text.trim();
    if (!labels.has(key)) labels.set(key, rule);
  };
  for (const dataset of datasets) {
    for (const rule of dataset.rules) {
      label(rule.ruleName, rule.ruleName);
      for (const question of rule.questions) label(question, rule.ruleName);
    }
    for (const query of dataset.queries) {
      if (query.ruleName !== null) label(query.question, query.ruleName);
    }
  }
  return labels;
}
