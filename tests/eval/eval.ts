/**
 * `npx tsx tests/eval/eval.ts <dataset.json>... [--json] [--sample N] [--engines a,b] [--bestmatch T]`: answer quality of the matcher next to
 * reference engines, on held-out questions.
 *
 * Metrics (per dataset and engine; shares are of all queries unless said otherwise):
 *   p1                  the top-ranked rule is the right one
 *   r3                  the right rule is among the three best-ranked rules
 *   bestmatchShare      answered BESTMATCH
 *   bestmatchPrecision  of the BESTMATCH answers, the share naming the right rule (null: none)
 *   recommendHit        of the RECOMMEND answers, the share whose items include the right rule
 *                       (null: none)
 *   noneShare           answered NONE
 *   oosRejected         of the out-of-scope queries, the share answered NONE or RECOMMEND
 *                       (null when the dataset has none)
 *   chatShare           answered CHAT (small talk) though a rule should answer: stolen (kbstudio)
 *   oosChat             of the out-of-scope queries, the share answered CHAT (null: none)
 *   smallTalkChat       of the small-talk probes in the dataset's language
 *                       (data/smalltalk-probes.json), the share answered CHAT over its rules
 *   meanMs, p99Ms       time of one match (kbstudio) or one ranking (references), in process
 *   offset              the robot's self-calibration offset (kbstudio), after its self-test
 *   bestmatchOfRight    (with --embeddings) of the queries whose top-ranked rule is right, the
 *                       share answered BESTMATCH with it
 * The reference engines have no decision layer: their decision metrics are null.
 * Then the collision report on each dataset and on a generated templated shop knowledge base
 * (conflict-report.ts: rules flagged, false claims, recall of the wrong answers above);
 * `--skip-conflicts` leaves it out.
 * With `--embeddings BASE [--embedding-model M] [--embedding-api openai|ollama]` (an embedding
 * provider, semantic-engines.ts), two more engines: `kbstudio+emb` (the fusion) and `embedding`
 * (the model alone); `fusion` in the table is the fused channel's weights, fitted per dataset.
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SmallTalk } from '../../electron/service/chitchat/small-talk';
import { DEFAULT_MATCH_SETTINGS } from '../../electron/service/matching/index';
import type { MatchSettings } from '../../electron/service/matching/types';
import { loadDataset } from './dataset';
import { indexRules } from './index-rules';
import type { EvalDataset, EvalRule } from './dataset';
import { conflictFigures, printConflictTable, shopFigures } from './conflict-report';
import type { ConflictFigures } from './conflict-report';
import { bigramTfidfRanker, bm25Ranker, fuseRanker } from './reference-engines';
import type { Ranker } from './reference-engines';
import { EvalEmbeddings, semanticIndexOf } from './semantic-engines';
import { fusionActive } from '../../electron/service/matching/fusion';
import type { EmbeddingApi } from '../../electron/service/embedding/provider-client';

export interface EvalRow {
  dataset: string;
  engine: string;
  p1: number;
  r3: number;
  bestmatchShare: number | null;
  bestmatchPrecision: number | null;
  recommendHit: number | null;
  noneShare: number | null;
  oosRejected: number | null;
  chatShare: number | null;
  oosChat: number | null;
  smallTalkChat: number | null;
  meanMs: number;
  p99Ms: number;
  /** The robot's self-calibration offset (kbstudio; null for the references). */
  offset: number | null;
  /** With --embeddings only: of the right top-ranked answers, the share given as BESTMATCH. */
  bestmatchOfRight?: number | null;
  /** With --embeddings only (kbstudio+emb): the fused channel's fitted weights. */
  fusion?: {
    gap: number;
    cosine: number;
    shift: number;
    offset: number;
    gain: number;
    /** Examples from the evaluated questions (the traffic) the last fit used. */
    examples: number;
  };
}

interface Answer {
  ranked: string[];
  kind: 'bestmatch' | 'recommend' | 'none' | 'chat' | null;
  items: string[];
}

type Engine = ((question: string) => Answer) & {
  offset?: number;
  /** The fused channel's weights as they stand (after the traffic so far). */
  fusion?: () => EvalRow['fusion'];
};

const NOW = Date.UTC(2025, 0, 1);

/** Small talk as a robot has it by default (on), in the dataset's language. */
const smallTalk = new SmallTalk();
const SMALL_TALK_SETTINGS = { chitChat: true, persona: 'Kiki', chitChatAnswers: {} };

const PROBES = JSON.parse(
  readFileSync(new URL('./data/smalltalk-probes.json', import.meta.url), 'utf8'),
) as Record<string, string[]>;

/** Our engine over a dataset's rules; ruleId = ruleName. */
export function kbstudioEngine(
  rules: readonly EvalRule[],
  settings: MatchSettings = DEFAULT_MATCH_SETTINGS,
  embeddings?: EvalEmbeddings,
): Engine {
  const index = indexRules(rules);
  // The service runs the self-test in the background once an import pauses; here it runs
  // before the first question, as it would have by then.
  index.selfCalibrate(NOW);
  const semantic = embeddings && semanticIndexOf(index, embeddings, NOW, settings);
  const engine: Engine = (question) => {
    const vector = embeddings?.vectorOf(question);
    // The questions are the robot's traffic: those the lexical channel answers BESTMATCH teach
    // the fusion (fusion-traffic.ts), refitted as soon as enough came, as the service does.
    const channel =
      semantic && vector ? semantic.channel(vector, { question, decision: settings }) : undefined;
    const decision = index.match(question, NOW, settings, channel);
    if (semantic && !semantic.calibration.current) semantic.calibrate(NOW, settings);
    const ranked = decision.candidates.map((c) => c.ruleId);
    // As the service asks: small talk only where the knowledge base has no BESTMATCH.
    if (smallTalk.reply(question, decision, SMALL_TALK_SETTINGS, NOW)) {
      return { ranked, kind: 'chat', items: [] };
    }
    if (decision.kind === 'bestmatch')
      return { ranked, kind: 'bestmatch', items: [decision.top.ruleId] };
    if (decision.kind === 'recommend') {
      return { ranked, kind: 'recommend', items: decision.items.map((c) => c.ruleId) };
    }
    return { ranked, kind: 'none', items: [] };
  };
  engine.offset = index.calibration.offset;
  if (semantic) {
    // The weights as they stand after the traffic so far (read when the row is made).
    engine.fusion = () => {
      const { gap, cosine, shift, offset, gain, examples } = semantic.calibration.model;
      const round = (x: number) => Math.round(x * 1000) / 1000;
      return fusionActive(semantic.calibration.model)
        ? {
            gap: round(gap),
            cosine: round(cosine),
            shift: round(shift),
            offset,
            gain: round(gain),
            examples,
          }
        : { gap: 0, cosine: 0, shift: 0, offset: 0, gain: round(gain), examples };
    };
  }
  return engine;
}

/** The embedding model alone: each query's rules by their nearest phrasing's cosine. */
function embeddingEngine(rules: readonly EvalRule[], embeddings: EvalEmbeddings): Engine {
  const index = indexRules(rules);
  const semantic = semanticIndexOf(index, embeddings, NOW, DEFAULT_MATCH_SETTINGS);
  return (question) => {
    const vector = embeddings.vectorOf(question);
    const ranked = vector ? semantic.search(vector, NOW).hits.map((hit) => hit.ruleId) : [];
    return { ranked, kind: null, items: [] };
  };
}

function rankerEngine(ranker: Ranker): Engine {
  return (question) => ({ ranked: ranker.rank(question, 10), kind: null, items: [] });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

export function evaluate(
  dataset: EvalDataset,
  engineName: string,
  engine: Engine,
  withEmbeddings = false,
): EvalRow {
  let top1 = 0;
  let bestmatchTop1 = 0;
  let top3 = 0;
  let bestmatch = 0;
  let bestmatchRight = 0;
  let recommend = 0;
  let recommendRight = 0;
  let none = 0;
  let chat = 0;
  const times: number[] = [];
  for (const query of dataset.queries) {
    const start = performance.now();
    const answer = engine(query.question);
    times.push(performance.now() - start);
    if (answer.ranked[0] === query.ruleName) {
      top1 += 1;
      if (answer.kind === 'bestmatch' && answer.items[0] === query.ruleName) bestmatchTop1 += 1;
    }
    if (answer.ranked.slice(0, 3).includes(query.ruleName ?? '')) top3 += 1;
    if (answer.kind === 'bestmatch') {
      bestmatch += 1;
      if (answer.items[0] === query.ruleName) bestmatchRight += 1;
    } else if (answer.kind === 'recommend') {
      recommend += 1;
      if (answer.items.includes(query.ruleName ?? '')) recommendRight += 1;
    } else if (answer.kind === 'none') {
      none += 1;
    } else if (answer.kind === 'chat') {
      chat += 1;
    }
  }
  const decides = engineName.startsWith('kbstudio');
  let oosRejected: number | null = null;
  let oosChat: number | null = null;
  if (decides && dataset.oosQueries !== undefined && dataset.oosQueries.length > 0) {
    let rejected = 0;
    let chatted = 0;
    for (const query of dataset.oosQueries) {
      const kind = engine(query.question).kind;
      if (kind !== 'bestmatch') rejected += 1;
      if (kind === 'chat') chatted += 1;
    }
    oosRejected = rejected / dataset.oosQueries.length;
    oosChat = chatted / dataset.oosQueries.length;
  }
  const probes = PROBES[dataset.language] ?? [];
  const smallTalkChat =
    decides && probes.length > 0
      ? probes.filter((probe) => engine(probe).kind === 'chat').length / probes.length
      : null;
  const n = dataset.queries.length;
  times.sort((a, b) => a - b);
  return {
    dataset: dataset.name,
    engine: engineName,
    p1: top1 / n,
    r3: top3 / n,
    bestmatchShare: decides ? bestmatch / n : null,
    bestmatchPrecision: decides ? ratio(bestmatchRight, bestmatch) : null,
    recommendHit: decides ? ratio(recommendRight, recommend) : null,
    noneShare: decides ? none / n : null,
    oosRejected,
    chatShare: decides ? chat / n : null,
    oosChat,
    smallTalkChat,
    meanMs: times.reduce((a, b) => a + b, 0) / Math.max(1, n),
    p99Ms: percentile(times, 99),
    offset: engine.offset ?? null,
    ...(withEmbeddings ? { bestmatchOfRight: decides ? ratio(bestmatchTop1, top1) : null } : {}),
    ...(engine.fusion ? { fusion: engine.fusion() } : {}),
  };
}

/** The texts a dataset's evaluation asks to embed. */
export function datasetTexts(dataset: EvalDataset): string[] {
  return [
    ...dataset.rules.flatMap((rule) => [rule.ruleName, ...rule.questions]),
    ...dataset.queries.map((query) => query.question),
    ...(dataset.oosQueries ?? []).map((query) => query.question),
    ...(PROBES[dataset.language] ?? []),
  ];
}

export function evaluateAll(
  dataset: EvalDataset,
  only?: readonly string[],
  settings: MatchSettings = DEFAULT_MATCH_SETTINGS,
  embeddings?: EvalEmbeddings,
): EvalRow[] {
  const engines: [string, () => Engine][] = [
    ['kbstudio', () => kbstudioEngine(dataset.rules, settings)],
    ...(embeddings
      ? ([
          ['kbstudio+emb', () => kbstudioEngine(dataset.rules, settings, embeddings)],
          ['embedding', () => embeddingEngine(dataset.rules, embeddings)],
        ] as [string, () => Engine][])
      : []),
    ['fuse', () => rankerEngine(fuseRanker(dataset.rules))],
    ['bm25', () => rankerEngine(bm25Ranker(dataset.rules))],
    ['bigram-tfidf', () => rankerEngine(bigramTfidfRanker(dataset.rules))],
  ];
  return engines
    .filter(([name]) => only === undefined || only.includes(name))
    .map(([name, make]) => evaluate(dataset, name, make(), embeddings !== undefined));
}

function format(value: number | null, digits = 3): string {
  return value === null ? '-' : value.toFixed(digits);
}

function printTable(rows: EvalRow[]): void {
  const header = [
    'dataset',
    'engine',
    'P@1',
    'R@3',
    'BM share',
    'BM prec',
    'REC hit',
    'NONE',
    'OOS rej',
    'CHAT',
    'OOS CHAT',
    'talk CHAT',
    'mean ms',
    'p99 ms',
    'offset',
    ...(rows.some((r) => r.bestmatchOfRight !== undefined) ? ['BM of right', 'fusion'] : []),
  ];
  const lines = rows.map((r) => [
    r.dataset,
    r.engine,
    format(r.p1),
    format(r.r3),
    format(r.bestmatchShare),
    format(r.bestmatchPrecision),
    format(r.recommendHit),
    format(r.noneShare),
    format(r.oosRejected),
    format(r.chatShare),
    format(r.oosChat),
    format(r.smallTalkChat),
    format(r.meanMs, 2),
    format(r.p99Ms, 2),
    format(r.offset, 2),
    ...(r.bestmatchOfRight !== undefined
      ? [
          format(r.bestmatchOfRight),
          r.fusion ? `g${r.fusion.gap} c${r.fusion.cosine} o${r.fusion.offset}` : '-',
        ]
      : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const render = (cells: string[]): string =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(render(header));
  for (const line of lines) console.log(render(line));
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      // Every k-th query so that at most this many remain (fuse.js alone takes minutes on 9k).
      sample: { type: 'string' },
      // Comma-separated engine names, e.g. `--engines kbstudio` while tuning.
      engines: { type: 'string' },
      // Another BESTMATCH threshold than the default (what a robot's settings may choose).
      bestmatch: { type: 'string' },
      'skip-conflicts': { type: 'boolean', default: false },
      // An embedding provider (semantic-engines.ts): its base URL, model and wire shape.
      embeddings: { type: 'string' },
      'embedding-model': { type: 'string', default: 'bge-m3' },
      'embedding-api': { type: 'string', default: 'openai' },
      'embedding-key': { type: 'string' },
    },
  });
  if (positionals.length === 0) {
    console.error(
      'usage: npx tsx tests/eval/eval.ts <dataset.json>... [--json] [--sample N] [--engines a,b] [--bestmatch T]\n' +
        '       [--embeddings BASE [--embedding-model M] [--embedding-api openai|ollama] [--embedding-key KEY]]',
    );
    process.exit(2);
  }
  const api = values['embedding-api'];
  if (api !== 'openai' && api !== 'ollama') {
    console.error(`--embedding-api must be openai or ollama, not ${api}`);
    process.exit(2);
  }
  const embeddings =
    values.embeddings === undefined
      ? undefined
      : new EvalEmbeddings({
          api: api satisfies EmbeddingApi,
          base: values.embeddings,
          model: values['embedding-model'],
          ...(values['embedding-key'] !== undefined ? { apiKey: values['embedding-key'] } : {}),
        });
  const rows: EvalRow[] = [];
  const conflicts: ConflictFigures[] = [];
  const settings =
    values.bestmatch === undefined
      ? DEFAULT_MATCH_SETTINGS
      : { ...DEFAULT_MATCH_SETTINGS, bestmatchThreshold: Number(values.bestmatch) };
  const report = (figures: ConflictFigures) => {
    if (values.json) console.log(JSON.stringify(figures));
    conflicts.push(figures);
  };
  for (const path of positionals) {
    const dataset = loadDataset(path);
    const limit = values.sample === undefined ? Infinity : Number(values.sample);
    if (dataset.queries.length > limit) {
      const stride = Math.ceil(dataset.queries.length / limit);
      dataset.queries = dataset.queries.filter((_, i) => i % stride === 0);
    }
    await embeddings?.embed(datasetTexts(dataset));
    for (const row of evaluateAll(dataset, values.engines?.split(','), settings, embeddings)) {
      if (values.json) console.log(JSON.stringify(row));
      rows.push(row);
    }
    if (!values['skip-conflicts']) {
      report(await conflictFigures(dataset.name, dataset.rules, dataset.queries, settings));
    }
  }
  if (!values['skip-conflicts']) report(await shopFigures(settings));
  if (!values.json) {
    printTable(rows);
    if (conflicts.length > 0) printConflictTable(conflicts);
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
