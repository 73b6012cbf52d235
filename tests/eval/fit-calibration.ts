/**
 * `npx tsx tests/eval/fit-calibration.ts`: fits the logistic calibration in
 * electron/service/matching/calibrate.ts and shows, per group of tuning data, what each
 * BESTMATCH threshold gives under the full decision (margin and exact phrasings included).
 * Uses only tuning data, never the reported query sets:
 *   - the development split banking77-faq-full.json (its held-out queries), with typo variants,
 *   - leave-one-out over rule phrasings of the Chinese set (rules only, never its queries),
 *   - out-of-scope questions made by holding whole rules out of the index, and made-up ones
 *     that share a word or a short phrase with the knowledge base,
 *   - the synthetic development sets in tests/eval/data (queries and out-of-scope questions),
 *     which are shown but not fitted on: written by us, they are cleaner than real traffic.
 * @module
 */
import { coverageFeature, fuzzyFeature } from '../../electron/service/matching/calibrate';
import { decide } from '../../electron/service/matching/decide';
import { DEFAULT_MATCH_SETTINGS } from '../../electron/service/matching/index';
import type { Candidate } from '../../electron/service/matching/types';
import type { EvalQuery, EvalRule } from './dataset';
import { indexRules } from './index-rules';
import { loadDataset } from './dataset';

const DATA = new URL('../../../shared/data', import.meta.url).pathname;
const OWN = new URL('./data', import.meta.url).pathname;
const NOW = Date.UTC(2025, 0, 1);
const FEATURES = ['lead', 'closest', 'coverage', 'fuzzy', 'posterior'] as const;
const MARGIN_CAP = 8;

interface Sample {
  x: number[];
  y: number;
}

/** One question's outcome: its candidates (features, exactness, rightness) and its group. */
interface Asked {
  group: string;
  inScope: boolean;
  candidates: { x: number[]; exact: boolean; right: boolean; coverage: number }[];
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** One slip of the finger per long word: swap, drop or double a letter. */
export function addTypos(text: string, random: () => number): string {
  return text
    .split(' ')
    .map((word) => {
      if (word.length < 5 || random() > 0.35) return word;
      const i = 1 + Math.floor(random() * (word.length - 2));
      const kind = random();
      if (kind < 0.4)
        return word.slice(0, i) + (word[i + 1] ?? '') + (word[i] ?? '') + word.slice(i + 2);
      if (kind < 0.7) return word.slice(0, i) + word.slice(i + 1);
      return word.slice(0, i) + (word[i] ?? '') + word.slice(i);
    })
    .join(' ');
}

function features(candidate: Candidate): number[] {
  // The model sees log-coverage (see calibrate.ts): a mostly unknown question is damning.
  return FEATURES.map((name) => {
    const value = candidate.parts[name] ?? 0;
    if (name === 'coverage') return coverageFeature(value);
    if (name === 'fuzzy') return fuzzyFeature(value);
    if (name === 'lead') return Math.max(-MARGIN_CAP, Math.min(MARGIN_CAP, value));
    return value;
  });
}

function collect(
  group: string,
  rules: readonly EvalRule[],
  queries: readonly EvalQuery[],
  asked: Asked[],
): void {
  const index = indexRules(rules);
  for (const query of queries) {
    const { candidates } = index.match(query.question, NOW, DEFAULT_MATCH_SETTINGS);
    asked.push({
      group,
      inScope: query.ruleName !== null,
      candidates: candidates.map((candidate) => ({
        x: features(candidate),
        exact: candidate.score === 1,
        coverage: candidate.parts.coverage ?? 0,
        right: candidate.ruleId === query.ruleName,
      })),
    });
  }
}

function fit(samples: Sample[], epochs = 4000, rate = 2): number[] {
  const w = new Array<number>(FEATURES.length + 1).fill(0);
  for (let e = 0; e < epochs; e += 1) {
    const grad = new Array<number>(w.length).fill(0);
    for (const { x, y } of samples) {
      const xs = [...x, 1];
      const z = xs.reduce((s, v, i) => s + v * (w[i] ?? 0), 0);
      const p = 1 / (1 + Math.exp(-z));
      xs.forEach((v, i) => (grad[i] = (grad[i] ?? 0) + (p - y) * v));
    }
    grad.forEach((g, i) => (w[i] = (w[i] ?? 0) - (rate * g) / samples.length));
  }
  return w;
}

/** The tuning questions and their candidates (also for ad-hoc analysis scripts). */
export function gatherForAnalysis(): Asked[] {
  const random = seeded(7);
  const asked: Asked[] = [];
  const dev = loadDataset(`${DATA}/banking77-faq-full.json`);
  const devQueries = dev.queries.filter((_, i) => i % 3 === 0);
  collect('en dev', dev.rules, devQueries, asked);
  collect(
    'en dev typos',
    dev.rules,
    devQueries
      .filter((_, i) => i % 4 === 0)
      .map((q) => ({ ...q, question: addTypos(q.question, random) })),
    asked,
  );
  // Out of scope: each fold hides every 7th rule; its questions must not find an answer.
  for (let fold = 0; fold < 3; fold += 1) {
    const hidden = new Set(dev.rules.filter((_, i) => i % 7 === fold).map((r) => r.ruleName));
    const kept = dev.rules.filter((r) => !hidden.has(r.ruleName));
    const oos = devQueries
      .filter((q, i) => hidden.has(q.ruleName ?? '') && i % 3 === 0)
      .map((q) => ({ question: q.question, ruleName: null }));
    collect('en hidden rules (oos)', kept, oos, asked);
  }
  // Unrelated questions that share a few common words with the knowledge base.
  const made = (i: number): string => `zq${(i * 2654435761) % 99991}x`;
  collect(
    'en made-up (oos)',
    dev.rules,
    devQueries
      .filter((_, i) => i % 6 === 0)
      .map((q, i) => ({
        question: q.question
          .split(' ')
          .map((word, j) => (j % 2 === 0 ? made(i * 31 + j) : word))
          .join(' '),
        ruleName: null,
      })),
    asked,
  );
  // Unrelated questions that share one word or one short phrase with the knowledge base and are
  // otherwise new to it ("what is quantum chromodynamics" against a bank FAQ).
  collect(
    'en one shared word (oos)',
    dev.rules,
    devQueries
      .filter((_, i) => i % 6 === 1)
      .map((q, i) => {
        const words = q.question.split(' ');
        const kept = words[i % words.length] ?? '';
        return {
          question: [made(i * 7 + 1), made(i * 7 + 2), kept, made(i * 7 + 3)].join(' '),
          ruleName: null,
        };
      }),
    asked,
  );
  const zh = loadDataset(`${DATA}/smp2017-faq.json`);
  for (let k = 0; k < 10; k += 1) {
    const rules = zh.rules.map((r) => ({ ...r, questions: r.questions.filter((_, i) => i !== k) }));
    const queries = zh.rules
      .map((r) => ({ question: r.questions[k] ?? '', ruleName: r.ruleName }))
      .filter((q) => q.question.length > 0);
    collect('zh leave-one-out', rules, queries, asked);
  }
  // Fewer phrasings per rule make harder, more novel questions (closer to real traffic):
  // index five phrasings of each rule and ask with the other five.
  for (let half = 0; half < 2; half += 1) {
    const inHalf = (i: number) => i % 2 === half;
    collect(
      'zh leave-half-out',
      zh.rules.map((r) => ({ ...r, questions: r.questions.filter((_, i) => inHalf(i)) })),
      zh.rules.flatMap((r) =>
        r.questions
          .filter((_, i) => !inHalf(i))
          .map((question) => ({ question, ruleName: r.ruleName })),
      ),
      asked,
    );
  }
  const hanChar = (i: number): string => String.fromCodePoint(0x4e00 + ((i * 40503) % 20900));
  collect(
    'zh made-up (oos)',
    zh.rules,
    zh.rules.flatMap((rule, r) =>
      rule.questions.map((phrasing, k) => {
        const i = r * 10 + k;
        const text = Array.from({ length: 4 + (i % 5) }, (_, j) => hanChar(i * 13 + j)).join('');
        return { question: text + [...phrasing].slice(-2).join(''), ruleName: null };
      }),
    ),
    asked,
  );
  for (const name of ['zh-assistant-dev', 'zh-service-dev', 'en-service-dev']) {
    const own = loadDataset(`${OWN}/${name}.json`);
    collect(name, own.rules, own.queries, asked);
    collect(`${name} (oos)`, own.rules, own.oosQueries ?? [], asked);
  }
  return asked;
}

function main(): void {
  const asked = gatherForAnalysis();
  // Inexact candidates among the first three: what the model is asked to tell apart.
  // The synthetic sets are cleaner than real traffic: they check the fit, they are not in it.
  const samples: Sample[] = asked
    .filter((a) => !a.group.includes('-dev'))
    .flatMap((a) =>
      a.candidates
        .slice(0, 3)
        .filter((c) => !c.exact)
        .map((c) => ({ x: c.x, y: c.right ? 1 : 0 })),
    );
  const w = fit(samples);
  console.log(
    'coefficients',
    Object.fromEntries(
      [...FEATURES, 'intercept'].map((f, i) => [f, Number((w[i] ?? 0).toFixed(3))]),
    ),
  );
  const calibrated = (x: number[]): number =>
    Math.min(0.99, 1 / (1 + Math.exp(-[...x, 1].reduce((s, v, i) => s + v * (w[i] ?? 0), 0))));
  const thresholds = [0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96];
  const groups = [...new Set(asked.map((a) => a.group))];
  console.log(
    `\nBESTMATCH share / precision (in scope) or share answered BESTMATCH (oos), margin ${DEFAULT_MATCH_SETTINGS.margin}`,
  );
  console.log(['group'.padEnd(26), ...thresholds.map((t) => String(t).padStart(13))].join(''));
  const pooled: Record<string, (a: Asked) => boolean> = {
    'all in scope': (a) => a.inScope,
    'real data in scope': (a) => a.inScope && !a.group.includes('-dev'),
  };
  for (const group of [...groups, ...Object.keys(pooled)]) {
    const rows = asked.filter(pooled[group] ?? ((a) => a.group === group));
    const cells = thresholds.map((threshold) => {
      let bestmatch = 0;
      let right = 0;
      for (const a of rows) {
        let ceiling = 1;
        const candidates = a.candidates.map((c, i) => {
          const score = Math.min(ceiling, c.exact ? 1 : calibrated(c.x));
          ceiling = score;
          return { ruleId: String(i), question: '', score, parts: {} };
        });
        const decision = decide(candidates, {
          ...DEFAULT_MATCH_SETTINGS,
          bestmatchThreshold: threshold,
        });
        if (decision.kind !== 'bestmatch') continue;
        bestmatch += 1;
        if (a.candidates[Number(decision.top.ruleId)]?.right) right += 1;
      }
      const share = bestmatch / Math.max(1, rows.length);
      return rows[0]?.inScope
        ? `${share.toFixed(2)}/${(right / Math.max(1, bestmatch)).toFixed(3)}`.padStart(13)
        : share.toFixed(3).padStart(13);
    });
    console.log([`${group} (${rows.length})`.padEnd(26), ...cells].join(''));
  }
  console.log(
    '\nNONE share by recommend threshold (in scope: lost answers; out of scope: rightly none)',
  );
  for (const threshold of [0.1, 0.2, 0.3, 0.4, 0.5]) {
    const noneShare = (rows: Asked[]) =>
      rows.filter((a) => {
        const top = a.candidates[0];
        return top === undefined || (!top.exact && calibrated(top.x) < threshold);
      }).length / Math.max(1, rows.length);
    console.log(
      `recommend ${threshold}: in scope ${noneShare(asked.filter((a) => a.inScope)).toFixed(3)}, out of scope ${noneShare(asked.filter((a) => !a.inScope)).toFixed(3)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) main();
