/**
 * `npx tsx tests/eval/vector-lists-recall.ts <dataset.json>... [--qualities 0.2,0.5,0.8]
 * [--dimensions N] [--probes N]`: the inverted lists (matching/vector-lists.ts) against the exact
 * search on the sets, with vectors of known quality (tests/helpers/embedding-server.ts). The sets
 * are below the lists' threshold (the service searches them exactly), so the lists are forced
 * on here: each set's index twice, exact and through lists (trained, then the fusion's
 * self-test through them), and every query asked of both. Prints recall@1 and @10 of the nearest
 * rules, and the share of queries whose answer (kind and rules) differs.
 * @module
 */
import { parseArgs } from 'node:util';
import { DEFAULT_MATCH_SETTINGS } from '../../electron/service/matching/index';
import { datasetLabels, startEmbeddingServer } from '../helpers/embedding-server';
import { loadDataset } from './dataset';
import { datasetTexts } from './eval';
import { indexRules } from './index-rules';
import { EvalEmbeddings, semanticIndexOf } from './semantic-engines';

const NOW = Date.UTC(2026, 0, 1);

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    qualities: { type: 'string', default: '0.2,0.5,0.8' },
    dimensions: { type: 'string', default: '256' },
    probes: { type: 'string' },
  },
});

const datasets = positionals.map((path) => loadDataset(path));
const server = await startEmbeddingServer({
  labels: datasetLabels(datasets),
  dimensions: Number(values.dimensions),
});
const answerOf = (decision: ReturnType<ReturnType<typeof indexRules>['match']>): string =>
  decision.kind === 'bestmatch'
    ? `B ${decision.top.ruleId}`
    : decision.kind === 'recommend'
      ? `R ${decision.items.map((c) => c.ruleId).join(',')}`
      : decision.kind;
try {
  for (const quality of values.qualities.split(',').map(Number)) {
    server.options.quality = quality;
    for (const dataset of datasets) {
      const embeddings = new EvalEmbeddings({
        api: 'openai',
        base: `${server.url}/v1`,
        model: 'known-quality',
      });
      await embeddings.embed(datasetTexts(dataset));
      const exactIndex = indexRules(dataset.rules);
      exactIndex.selfCalibrate(NOW);
      const exact = semanticIndexOf(exactIndex, embeddings, NOW, DEFAULT_MATCH_SETTINGS);
      const listedIndex = indexRules(dataset.rules);
      listedIndex.selfCalibrate(NOW);
      const listed = semanticIndexOf(listedIndex, embeddings, NOW, DEFAULT_MATCH_SETTINGS, 0);
      if (values.probes !== undefined) listed.space.lists.probes = Number(values.probes);
      let at1 = 0;
      let found = 0;
      let wanted = 0;
      let differ = 0;
      let asked = 0;
      for (const query of dataset.queries) {
        const vector = embeddings.vectorOf(query.question);
        if (!vector) continue;
        asked += 1;
        const want = exact.search(vector, NOW).hits;
        const got = listed.search(vector, NOW).hits;
        if (want[0]?.ruleId === got[0]?.ruleId) at1 += 1;
        const ids = new Set(want.map((hit) => hit.ruleId));
        for (const hit of got) if (ids.has(hit.ruleId)) found += 1;
        wanted += ids.size;
        const a = exactIndex.match(
          query.question,
          NOW,
          DEFAULT_MATCH_SETTINGS,
          exact.channel(vector),
        );
        const b = listedIndex.match(
          query.question,
          NOW,
          DEFAULT_MATCH_SETTINGS,
          listed.channel(vector),
        );
        if (answerOf(a) !== answerOf(b)) differ += 1;
      }
      const lists = listed.space.lists;
      console.log(
        `${dataset.name.padEnd(22)} quality ${quality.toFixed(2)}  rows ${listed.space.size}  ` +
          `lists ${lists.lists} (${lists.nprobe} probed)  recall@1 ${(at1 / asked).toFixed(3)}  ` +
          `@10 ${(found / Math.max(1, wanted)).toFixed(3)}  answers differing ${differ}/${asked}`,
      );
    }
  }
} finally {
  await server.close();
}
