/**
 * `npm run bench -- --embedding-import [--import-rules N] [--rounds N] [--embedding-dimensions D]
 * [--json FILE]`: the import rate with an embedding provider against the same import without
 * (issue 30: "import rate unchanged, embedding runs after the write is acknowledged"). Each round
 * imports N generated rules (default 100,000) through the HTTP batch route into a new service
 * (import-bench.ts), once without a provider and once with the service-wide default provider
 * (`KB_EMBEDDINGS`) pointing at a server of the bench's own answering in 5 ms, the two
 * alternating; the texts the provider embedded while the import ran show the background work
 * really overlapped it. Reported as medians and the ratio of rates (with / without).
 * @module
 */
import { startEmbeddingServer } from '../helpers/embedding-server';
import { generateRules } from './generate-rules';
import { measureImport } from './import-bench';
import type { ImportFigures } from './import-bench';
import { round } from './stats';

export interface EmbeddingImportFigures {
  rules: number;
  rounds: number;
  dimensions: number;
  without: ImportFigures[];
  with: ImportFigures[];
  /** Texts the provider embedded during each import with it (its requests during the import). */
  embeddedDuringImport: number[];
  /** Median rules/s with the provider / without: 1 is "unchanged". */
  rateRatio: number;
  /** Median main-thread CPU per 1000 rules with / without. */
  cpuRatio: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export async function measureEmbeddingImport(
  size: number,
  rounds: number,
  dimensions: number,
): Promise<EmbeddingImportFigures> {
  const rules = generateRules(size, 42);
  const server = await startEmbeddingServer({ dimensions, delayMs: 5, quality: 0 });
  const env = { KB_EMBEDDINGS: `${server.url}/v1`, KB_EMBEDDING_MODEL: 'bench-model' };
  const figures: EmbeddingImportFigures = {
    rules: size,
    rounds,
    dimensions,
    without: [],
    with: [],
    embeddedDuringImport: [],
    rateRatio: Number.NaN,
    cpuRatio: Number.NaN,
  };
  try {
    for (let r = 0; r < rounds; r += 1) {
      // Alternating, the first round's order swapped each time (a machine that warms or loads
      // up meanwhile favours neither).
      const order = r % 2 === 0 ? [false, true] : [true, false];
      for (const withProvider of order) {
        if (!withProvider) {
          figures.without.push(await measureImport(rules));
          continue;
        }
        const before = server.embedded.length;
        figures.with.push(await measureImport(rules, undefined, undefined, env));
        figures.embeddedDuringImport.push(server.embedded.length - before);
      }
    }
  } finally {
    await server.close();
  }
  const rate = (list: ImportFigures[]) => median(list.map((f) => f.rulesPerSec));
  const cpu = (list: ImportFigures[]) => median(list.map((f) => f.cpuMsPer1000));
  figures.rateRatio = round(rate(figures.with) / rate(figures.without), 3);
  figures.cpuRatio = round(cpu(figures.with) / cpu(figures.without), 3);
  return figures;
}

export function embeddingImportLine(f: EmbeddingImportFigures): string {
  const text = (list: ImportFigures[]) =>
    `${median(list.map((x) => x.rulesPerSec)).toFixed(0)} rules/s, ` +
    `${median(list.map((x) => x.cpuMsPer1000)).toFixed(0)} ms main-thread CPU per 1000 rules, ` +
    `peak RSS ${median(list.map((x) => x.peakRssMb)).toFixed(0)} MB`;
  return (
    `import of ${f.rules} rules (median of ${f.rounds}): without a provider ${text(f.without)}; ` +
    `with a provider (5 ms, ${f.dimensions} dimensions) ${text(f.with)}, ` +
    `texts embedded meanwhile ${f.embeddedDuringImport.join('/')}; ` +
    `ratio with/without: rate ${f.rateRatio}, CPU ${f.cpuRatio}`
  );
}
