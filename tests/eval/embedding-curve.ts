/**
 * `npx tsx tests/eval/embedding-curve.ts <dataset.json>... [--qualities 0,0.1,…] [--dimensions N]
 * [--api openai|ollama] [--json]`: the fusion's curve over model quality. For each quality an
 * embedding server of known quality (tests/helpers/embedding-server.ts: vectors from the sets'
 * labels with controlled noise; 0 is pure noise) is started, and every set is evaluated through
 * it as `npm run eval -- --embeddings` does: the lexical engine, the model alone and the fusion.
 * @module
 */
import { parseArgs } from 'node:util';
import { datasetLabels, startEmbeddingServer } from '../helpers/embedding-server';
import { loadDataset } from './dataset';
import { datasetTexts, evaluateAll } from './eval';
import { EvalEmbeddings } from './semantic-engines';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    qualities: { type: 'string', default: '0,0.05,0.1,0.15,0.2,0.3,0.5' },
    dimensions: { type: 'string', default: '256' },
    api: { type: 'string', default: 'openai' },
    json: { type: 'boolean', default: false },
  },
});

const datasets = positionals.map((path) => loadDataset(path));
const server = await startEmbeddingServer({
  labels: datasetLabels(datasets),
  dimensions: Number(values.dimensions),
});
const api = values.api === 'ollama' ? 'ollama' : 'openai';
const base = api === 'ollama' ? server.url : `${server.url}/v1`;
const pad = (s: string, n: number) => s.padStart(n);
const f = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));
if (!values.json) {
  console.log(
    [
      'dataset'.padEnd(22),
      'quality',
      'lex P@1',
      'emb P@1',
      'fused P@1',
      'gain',
      'BM prec',
      'BM share',
      'BM of right',
      'weights',
    ].join('  '),
  );
}
try {
  for (const quality of values.qualities.split(',').map(Number)) {
    server.options.quality = quality;
    for (const dataset of datasets) {
      const embeddings = new EvalEmbeddings({ api, base, model: 'known-quality' });
      await embeddings.embed(datasetTexts(dataset));
      const rows = evaluateAll(
        dataset,
        ['kbstudio', 'kbstudio+emb', 'embedding'],
        undefined,
        embeddings,
      );
      const by = (name: string) => rows.find((row) => row.engine === name);
      const lex = by('kbstudio');
      const fused = by('kbstudio+emb');
      const model = by('embedding');
      if (!lex || !fused || !model) continue;
      const gain = fused.p1 - Math.max(lex.p1, model.p1);
      if (values.json) {
        console.log(JSON.stringify({ dataset: dataset.name, quality, lexical: lex, fused, model }));
        continue;
      }
      console.log(
        [
          dataset.name.padEnd(22),
          pad(quality.toFixed(2), 7),
          pad(f(lex.p1), 7),
          pad(f(model.p1), 7),
          pad(f(fused.p1), 9),
          pad((gain * 100).toFixed(1), 5),
          pad(f(fused.bestmatchPrecision), 7) + ` (${f(lex.bestmatchPrecision)})`,
          pad(f(fused.bestmatchShare), 8) + ` (${f(lex.bestmatchShare)})`,
          pad(f(fused.bestmatchOfRight), 11) + ` (${f(lex.bestmatchOfRight)})`,
          fused.fusion
            ? `g${fused.fusion.gap} c${fused.fusion.cosine} s${fused.fusion.shift} o${fused.fusion.offset} LL+${fused.fusion.gain} ex${fused.fusion.examples}`
            : '',
        ].join('  '),
      );
    }
  }
} finally {
  await server.close();
}
