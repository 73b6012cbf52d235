/**
 * The fusion's examples as the store keeps them (decision 150): the features each question was
 * answered with, not its text, under the provider and model they are of. Binary, then gzip'd on
 * libuv's threads: a small JSON head (format, provider, warm-up, the rule ids once each), then
 * flat columns (keys, labels, rows per example; per row its rule, exact, lexical log-odds, cosine,
 * gap). 1,000 examples of 20 rows: 0.48 MB compressed, the loop's part of a write 6.4 ms at best
 * (median 40 at load average 22), a read 5 ms at best (9 median); as JSON of objects they were
 * 2.8 MB, 77 ms to stringify and 50 ms to parse at best (169 and 186 median). A record of another
 * model or provider reads as none: its cosines are that model's.
 * @module
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { FusionFeatures } from '../matching/fusion';
import type { FusionTrafficSnapshot } from '../matching/fusion-traffic';
import type { EmbeddingProvider } from './provider-client';

const FORMAT = 2;
/** An example's key: 22 base64url characters (fusion-traffic.ts). */
const KEY_BYTES = 22;

const zip = promisify(gzip);
const unzip = promisify(gunzip);

interface Head {
  format: number;
  provider: string;
  warmed: boolean;
  examples: number;
  rows: number;
  ruleIds: string[];
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

export async function encodeFusionExamples(
  provider: string,
  snapshot: FusionTrafficSnapshot,
): Promise<Uint8Array> {
  const { examples } = snapshot;
  const ruleIndex = new Map<string, number>();
  const indexOf = (ruleId: string) => {
    let index = ruleIndex.get(ruleId);
    if (index === undefined) ruleIndex.set(ruleId, (index = ruleIndex.size));
    return index;
  };
  let rows = 0;
  for (const { example } of examples) rows += example.rows.length;
  const labels = new Uint32Array(examples.length);
  const counts = new Uint16Array(examples.length);
  const rules = new Uint32Array(rows);
  const exact = new Uint8Array(rows);
  const values = new Float64Array(rows * 3);
  const keys = Buffer.alloc(examples.length * KEY_BYTES);
  let at = 0;
  examples.forEach(({ key, example }, i) => {
    keys.write(key, i * KEY_BYTES, KEY_BYTES, 'latin1');
    labels[i] = indexOf(example.ruleId);
    counts[i] = Math.min(example.rows.length, 0xffff);
    for (const row of example.rows.slice(0, 0xffff)) {
      rules[at] = indexOf(row.ruleId);
      exact[at] = row.exact ? 1 : 0;
      values[at * 3] = row.lexical;
      values[at * 3 + 1] = row.cosine;
      values[at * 3 + 2] = row.gap;
      at += 1;
    }
  });
  const head: Head = {
    format: FORMAT,
    provider,
    warmed: snapshot.warmed,
    examples: examples.length,
    rows: at,
    ruleIds: [...ruleIndex.keys()],
  };
  const headBytes = Buffer.from(JSON.stringify(head), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headBytes.length, 0);
  const bytes = (array: ArrayBufferView, count: number, width: number) =>
    Buffer.from(array.buffer, array.byteOffset, count * width);
  return zip(
    Buffer.concat([
      length,
      headBytes,
      keys,
      bytes(labels, examples.length, 4),
      bytes(counts, examples.length, 2),
      bytes(rules, at, 4),
      bytes(exact, at, 1),
      bytes(values, at * 3, 8),
    ]),
  );
}

/** The examples saved for `provider`; null when none, of another provider, or unreadable. */
export async function decodeFusionExamples(
  provider: string,
  saved: Uint8Array,
): Promise<FusionTrafficSnapshot | null> {
  try {
    const data = await unzip(saved);
    const headLength = data.readUInt32LE(0);
    const head = JSON.parse(data.toString('utf8', 4, 4 + headLength)) as Head;
    if (head.format !== FORMAT || head.provider !== provider) return null;
    const n = head.examples;
    const total = head.rows;
    let offset = 4 + headLength;
    // Copied out: the columns' offsets need not be aligned for their typed arrays.
    const column = <T>(width: number, count: number, make: (buffer: ArrayBuffer) => T): T => {
      const bytes = data.subarray(offset, offset + width * count);
      if (bytes.length !== width * count) throw new Error('truncated');
      offset += width * count;
      return make(new Uint8Array(bytes).buffer);
    };
    const keys = column(KEY_BYTES, n, (buffer) => Buffer.from(buffer));
    const labels = column(4, n, (buffer) => new Uint32Array(buffer));
    const counts = column(2, n, (buffer) => new Uint16Array(buffer));
    const rules = column(4, total, (buffer) => new Uint32Array(buffer));
    const exact = column(1, total, (buffer) => new Uint8Array(buffer));
    const values = column(8, total * 3, (buffer) => new Float64Array(buffer));
    const ruleId = (index: number) => head.ruleIds[index] ?? '';
    const examples: FusionTrafficSnapshot['examples'] = [];
    let at = 0;
    for (let i = 0; i < n; i += 1) {
      const rows: FusionFeatures[] = [];
      for (let r = 0; r < (counts[i] as number); r += 1, at += 1) {
        rows.push({
          ruleId: ruleId(rules[at] as number),
          exact: exact[at] === 1,
          lexical: values[at * 3] as number,
          cosine: values[at * 3 + 1] as number,
          gap: values[at * 3 + 2] as number,
        });
      }
      examples.push({
        key: keys.toString('latin1', i * KEY_BYTES, (i + 1) * KEY_BYTES),
        example: { ruleId: ruleId(labels[i] as number), rows },
      });
    }
    return { warmed: head.warmed, examples };
  } catch {
    return null;
  }
}
