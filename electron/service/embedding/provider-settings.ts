/**
 * Which provider a robot's vectors come from: its own (`custom`), the service's default (set by
 * `--embeddings` or `KB_EMBEDDINGS`, config.ts), or none. A robot without a provider is matched
 * exactly as before embeddings existed.
 * @module
 */
import type { EmbeddingApi, EmbeddingProvider } from './provider-client';

/** The service-wide default provider, with its deadline for a question's vector. */
export interface DefaultEmbedding extends EmbeddingProvider {
  timeoutMs: number;
}

/** What a robot's settings say of its embeddings (domain/robot-settings.ts has them all). */
export interface EmbeddingSettings {
  embeddingMode: 'default' | 'off' | 'custom';
  embeddingApi: EmbeddingApi;
  embeddingBase: string;
  embeddingModel: string;
  embeddingTimeoutMs: number;
  embeddingApiKey: string;
  bestmatchThreshold: number;
  margin: number;
}

/** Default deadline of a question's vector (the robot's setting overrides it). */
export const DEFAULT_TIMEOUT_MS = 300;

/** The robot's provider and deadline; null: none. */
export function providerOf(
  settings: EmbeddingSettings,
  defaults: DefaultEmbedding | null,
): { provider: EmbeddingProvider; timeoutMs: number } | null {
  if (settings.embeddingMode === 'off') return null;
  if (settings.embeddingMode === 'custom') {
    if (settings.embeddingBase === '' || settings.embeddingModel === '') return null;
    return {
      provider: {
        api: settings.embeddingApi,
        base: settings.embeddingBase,
        model: settings.embeddingModel,
        ...(settings.embeddingApiKey !== '' ? { apiKey: settings.embeddingApiKey } : {}),
      },
      timeoutMs: settings.embeddingTimeoutMs,
    };
  }
  if (!defaults) return null;
  const { timeoutMs, ...provider } = defaults;
  // A robot that changed its deadline keeps it with the default provider too.
  return {
    provider,
    timeoutMs:
      settings.embeddingTimeoutMs !== DEFAULT_TIMEOUT_MS ? settings.embeddingTimeoutMs : timeoutMs,
  };
}

/** Two providers give the same vectors (the same model at the same place, the same key). */
export function sameProvider(a: EmbeddingProvider, b: EmbeddingProvider): boolean {
  return a.api === b.api && a.base === b.base && a.model === b.model && a.apiKey === b.apiKey;
}
