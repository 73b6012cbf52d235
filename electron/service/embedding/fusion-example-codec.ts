/**
 * The fusion's examples as the store keeps them (decision 150): the features each question was
 * answered with, not its text, under the model they are of; gzip'd JSON, a few hundred kB at the
 * 1,000 examples a robot keeps. A record of another model (or provider) reads as none: the
 * features' cosines are that model's.
 * @module
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { FusionFeatures } from '../matching/fusion';
import type { FusionTrafficSnapshot } from '../matching/fusion-traffic';
import type { EmbeddingProvider } from './provider-client';

const FORMAT = 1;

const zip = promisify(gzip);
const unzip = promisify(gunzip);

/** A row as saved: rule, exact (1/0), lexical log-odds, cosine, gap. */
type SavedRow = [string, number, number, number, number];

interface Saved {
  format: number;
  provider: string;
  warmed: boolean;
  examples: [key: string, ruleId: string, rows: SavedRow[]][];
}

/**
 * Which vectors the examples' cosines are of: the API, the place and the model (not the key: a
 * new key to the same model gives the same vectors).
 */
export function providerKey(provider: EmbeddingProvider): string {
  return createHash('sha256')
    .update(`${provider.api}\u0000${provider.base}\u0000${provider.model}`)
    .digest('base64url');
}

/** Compression runs on libuv's threads; only the JSON is built in the loop (~1 MB at most). */
export async function encodeFusionExamples(
  provider: string,
  snapshot: FusionTrafficSnapshot,
): Promise<Uint8Array> {
  const saved: Saved = {
    format: FORMAT,
    provider,
    warmed: snapshot.warmed,
    examples: snapshot.examples.map(({ key, example }) => [
      key,
      example.ruleId,
      example.rows.map((row): SavedRow => [
        row.ruleId,
        row.exact ? 1 : 0,
        row.lexical,
        row.cosine,
        row.gap,
      ]),
    ]),
  };
  return zip(JSON.stringify(saved));
}

/** The examples saved for `provider`; null when none, of another provider, or unreadable. */
export async function decodeFusionExamples(
  provider: string,
  bytes: Uint8Array,
): Promise<FusionTrafficSnapshot | null> {
  let saved: Saved;
  try {
    saved = JSON.parse((await unzip(bytes)).toString('utf8')) as Saved;
  } catch {
    return null;
  }
  if (saved.format !== FORMAT || saved.provider !== provider || !Array.isArray(saved.examples)) {
    return null;
  }
  return {
    warmed: saved.warmed === true,
    examples: saved.examples.map(([key, ruleId, rows]) => ({
      key,
      example: {
        ruleId,
        rows: rows.map(([id, exact, lexical, cosine, gap]): FusionFeatures => ({
          ruleId: id,
          exact: exact === 1,
          lexical,
          cosine,
          gap,
        })),
      },
    })),
  };
}
