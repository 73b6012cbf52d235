/**
 * `npx tsx tests/eval/fit-calibration.ts`: fits the logistic calibration in
 * electron/service/matching/calibrate.ts and suggests thresholds. Uses only tuning data:
 *   - the development split banking77-faq-full.json (its held-out queries),
 *   - leave-one-out over rule phrasings of the Chinese set (rules only, never its queries),
 *   - out-of-scope questions made by holding whole rules out of the index,
 *   - synthetic typo variants of development queries.
 * Prints coefficients and, per threshold, BESTMATCH share and precision on that data.
 * @module
 */
import { coverageFeature } from '../../electron/service/matching/calibrate';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../electron/service/matching/index';
import type { EvalRule } from './dataset';
import { loadDataset } from './dataset';

const DATA = '/work/shared/data';
const NOW = Date.UTC(2025, 0, 1);
const FEATURES = ['lead', 'closest', 'coverage', 'fuzzy', 'posterior'] as const;

interface Sample {
  x: number[];
  y: number;
}
interface Outcome {
  /** Score parts of the best candidate and of the runner-up, and whether the best is right. */
  top: number[];
  right: boolean;
  inScope: boolean;
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

function indexOf(rules: readonly EvalRule[]) {
  const index = createRobotIndex();
  for (const rule of rules) {
    index.upsert({
      ruleId: rule.ruleName,
      ruleName: rule.ruleName,
      questions: rule.questions,
      active: true,
      effectBeginMs: null,
      effectEndMs: null,
    });
  }
  return index;
}

function collect(
  rules: readonly EvalRule[],
  queries: { question: string; ruleName: string | null }[],
  samples: Sample[],
  outcomes: Outcome[],
): void {
  const index = indexOf(rules);
  for (const query of queries) {
    const { candidates } = index.match(query.question, NOW, DEFAULT_MATCH_SETTINGS);
    candidates.slice(0, 3).forEach((candidate, rank) => {
      if (candidate.score === 1) return;
      // The model sees log-coverage (see calibrate.ts): a mostly unknown question is damning.
      const x = FEATURES.map((name) =>
        name === 'coverage'
          ? coverageFeature(candidate.parts[name] ?? 0)
          : (candidate.parts[name] ?? 0),
      );
      samples.push({ x, y: candidate.ruleId === query.ruleName ? 1 : 0 });
      if (rank === 0) {
        outcomes.push({
          top: x,
          right: candidate.ruleId === query.ruleName,
          inScope: query.ruleName !== null,
        });
      }
    });
  }
}

function fit(samples: Sample[], epochs = 4000, rate = 2): number[] {
  const w = new Array<number>(FEATURES.length + 1).fill(0);
  for (let e = 0; e < epochs; e += 1) {
    const grad = new Array<number>(w.length).fill(0);
    for (const { x, y } of samples) {
      const lead = Math.max(-8, Math.min(8, x[0] ?? 0));
      const xs = [lead, ...x.slice(1), 1];
      const z = xs.reduce((s, v, i) => s + v * (w[i] ?? 0), 0);
      const p = 1 / (1 + Math.exp(-z));
      xs.forEach((v, i) => (grad[i] = (grad[i] ?? 0) + (p - y) * v));
    }
    grad.forEach((g, i) => (w[i] = (w[i] ?? 0) - (rate * g) / samples.length));
  }
  return w;
}

function main(): void {
  const random = seeded(7);
  const samples: Sample[] = [];
  const outcomes: Outcome[] = [];
  const dev = loadDataset(`${DATA}/banking77-faq-full.json`);
  const devQueries = dev.queries.filter((_, i) => i % 3 === 0);
  collect(dev.rules, devQueries, samples, outcomes);
  collect(
    dev.rules,
    devQueries
      .filter((_, i) => i % 4 === 0)
      .map((q) => ({ ...q, question: addTypos(q.question, random) })),
    samples,
    outcomes,
  );
  // Out of scope: each fold hides every 7th rule; its questions must not find an answer.
  for (let fold = 0; fold < 3; fold += 1) {
    const hidden = new Set(dev.rules.filter((_, i) => i % 7 === fold).map((r) => r.ruleName));
    const kept = dev.rules.filter((r) => !hidden.has(r.ruleName));
    const oos = devQueries
      .filter((q, i) => hidden.has(q.ruleName ?? '') && i % 3 === 0)
      .map((q) => ({ question: q.question, ruleName: null }));
    collect(kept, oos, samples, outcomes);
  }
  // Unrelated questions that share a few common words with the knowledge base: every other
  // word of a development query is replaced by a made-up one.
  const made = (i: number): string => `zq${(i * 2654435761) % 99991}x`;
  collect(
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
    samples,
    outcomes,
  );
  const zh = loadDataset(`${DATA}/smp2017-faq.json`);
  for (let k = 0; k < 10; k += 1) {
    const rules = zh.rules.map((r) => ({ ...r, questions: r.questions.filter((_, i) => i !== k) }));
    const queries = zh.rules
      .map((r) => ({ question: r.questions[k] ?? '', ruleName: r.ruleName }))
      .filter((q) => q.question.length > 0);
    collect(rules, queries, samples, outcomes);
  }
  // Unrelated questions that share one word or one short phrase with the knowledge base and are
  // otherwise new to it ("what is quantum chromodynamics" against a bank FAQ).
  collect(
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
    samples,
    outcomes,
  );
  const hanChar = (i: number): string => String.fromCodePoint(0x4e00 + ((i * 40503) % 20900));
  collect(
    zh.rules,
    zh.rules.flatMap((rule, r) =>
      rule.questions.map((phrasing, k) => {
        const i = r * 10 + k;
        const made = Array.from({ length: 4 + (i % 5) }, (_, j) => hanChar(i * 13 + j)).join('');
        return { question: made + [...phrasing].slice(-2).join(''), ruleName: null };
      }),
    ),
    samples,
    outcomes,
  );
  const w = fit(samples);
  console.log(
    'coefficients',
    Object.fromEntries(
      [...FEATURES, 'intercept'].map((f, i) => [f, Number((w[i] ?? 0).toFixed(3))]),
    ),
  );
  const score = (x: number[]): number => {
    const xs = [Math.max(-8, Math.min(8, x[0] ?? 0)), ...x.slice(1), 1];
    return 1 / (1 + Math.exp(-xs.reduce((s, v, i) => s + v * (w[i] ?? 0), 0)));
  };
  const inScope = outcomes.filter((o) => o.inScope);
  const outScope = outcomes.filter((o) => !o.inScope);
  console.log(`in-scope ${inScope.length}, out-of-scope ${outScope.length}`);
  for (const t of [0.5, 0.6, 0.7, 0.8, 0.85, 0.88, 0.9, 0.92, 0.94, 0.96]) {
    const bm = inScope.filter((o) => score(o.top) >= t);
    const right = bm.filter((o) => o.right).length;
    const oosBm = outScope.filter((o) => score(o.top) >= t).length;
    console.log(
      `threshold ${t}: bestmatch share ${(bm.length / inScope.length).toFixed(3)} precision ${(right / Math.max(1, bm.length)).toFixed(3)} oos accepted ${(oosBm / Math.max(1, outScope.length)).toFixed(3)}`,
    );
  }
  for (const t of [0.1, 0.2, 0.3]) {
    const none = inScope.filter((o) => score(o.top) < t).length;
    const oosNone = outScope.filter((o) => score(o.top) < t).length;
    console.log(
      `recommend ${t}: in-scope none ${(none / inScope.length).toFixed(3)} oos none ${(oosNone / Math.max(1, outScope.length)).toFixed(3)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) main();
