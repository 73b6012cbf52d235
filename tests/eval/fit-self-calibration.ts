/**
 * `npx tsx tests/eval/fit-self-calibration.ts`: fits the offset model of
 * electron/service/matching/self-calibration.ts. Knowledge bases of many shapes are made from
 * the tuning data (one to ten phrasings per rule, all rules or half of them, the other half's
 * questions then out of scope); each runs its self-test, and its questions are asked with the
 * offline calibration. A logistic model of "the first answer is right" on the candidate's
 * log-odds (coefficient fixed at 1) plus the robot's self-test figures gives the coefficients.
 * Tuning data only: banking77-faq-full (its development queries), the rules (never the
 * queries) of smp2017-faq, our synthetic sets and the pair-built development sets.
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DEFAULT_MATCH_SETTINGS } from '../../electron/service/matching/index';
import type { ProbeTarget } from '../../electron/service/matching/self-test';
import {
  SelfTestRun,
  candidateLogit,
  probedPhrasings,
} from '../../electron/service/matching/self-test';
import type { Probe } from '../../electron/service/matching/self-test';
import { calibrationOffset } from '../../electron/service/matching/self-calibration';
import type { Candidate } from '../../electron/service/matching/types';
import type { EvalQuery, EvalRule } from './dataset';
import { indexRules } from './index-rules';
import { loadDataset } from './dataset';

const DATA = new URL('../../../shared/data', import.meta.url).pathname;
const OWN = new URL('./data', import.meta.url).pathname;
const NOW = Date.UTC(2025, 0, 1);
export const PROBE_LIMIT = 1000;
const QUERY_LIMIT = 500;
const OOS_LIMIT = 150;

/** The first two candidates of one question, before the robot's offset. */
export interface Asked {
  z1: number;
  z2: number;
  exact1: boolean;
  exact2: boolean;
  right: boolean;
  inScope: boolean;
}

export interface Robot {
  name: string;
  group: string;
  probes: Probe[];
  asked: Asked[];
}

function row(candidates: Candidate[], right: string | null): Asked {
  const [first, second] = candidates;
  return {
    z1: first ? candidateLogit(first) : -Infinity,
    z2: second ? candidateLogit(second) : -Infinity,
    exact1: first?.score === 1,
    exact2: second?.score === 1,
    right: right !== null && first?.ruleId === right,
    inScope: right !== null,
  };
}

const every = <T>(items: readonly T[], limit: number): T[] => {
  const stride = Math.max(1, Math.ceil(items.length / limit));
  return items.filter((_, i) => i % stride === 0);
};

export function makeRobot(
  name: string,
  group: string,
  rules: readonly EvalRule[],
  queries: readonly EvalQuery[],
  oos: readonly EvalQuery[],
): Robot {
  const index = indexRules(rules);
  const target = index as unknown as ProbeTarget;
  const run = new SelfTestRun(target, probedPhrasings(target.ruleStore, PROBE_LIMIT), NOW);
  run.step();
  const ask = (query: EvalQuery) =>
    row(index.match(query.question, NOW, DEFAULT_MATCH_SETTINGS).candidates, query.ruleName);
  return {
    name,
    group,
    probes: run.probes,
    asked: [...every(queries, QUERY_LIMIT).map(ask), ...every(oos, OOS_LIMIT).map(ask)],
  };
}

/** A knowledge base of `rules` with at most `k` phrasings each (the first k; 0: all). */
const firstK = (rules: readonly EvalRule[], k: number): EvalRule[] =>
  rules.map((rule) => ({
    ...rule,
    questions: k > 0 ? rule.questions.slice(0, k) : rule.questions,
  }));

/**
 * Rules named by their first phrasing, as authors often name them: a dataset's label
 * ("card_arrival", "weather") would be a phrasing no user asks.
 */
const namedByFirst = (rules: readonly EvalRule[]): EvalRule[] =>
  rules.map((rule) => ({ ...rule, ruleName: rule.questions[0] ?? rule.ruleName }));

function variants(
  group: string,
  rules: readonly EvalRule[],
  queries: readonly EvalQuery[],
  oos: readonly EvalQuery[],
  ks: readonly number[],
  robots: Robot[],
): void {
  for (const k of ks) {
    for (const half of [false, true]) {
      const kept = half ? rules.filter((_, i) => i % 2 === 0) : rules;
      const names = new Set(kept.map((r) => r.ruleName));
      const inScope = queries.filter((q) => names.has(q.ruleName ?? ''));
      const hidden = half
        ? queries
            .filter((q) => !names.has(q.ruleName ?? ''))
            .map((q) => ({ question: q.question, ruleName: null }))
        : [];
      const name = `${group} k=${k || 'all'}${half ? ' half' : ''}`;
      console.error(`  ${name}`);
      robots.push(makeRobot(name, group, firstK(kept, k), inScope, [...oos, ...hidden]));
    }
  }
}

/** Renames rules and their queries alike. */
function renamed(rules: readonly EvalRule[], queries: readonly EvalQuery[]) {
  const ids = new Map(rules.map((rule) => [rule.ruleName, rule.questions[0] ?? rule.ruleName]));
  return {
    rules: namedByFirst(rules),
    queries: queries.map((q) => ({ ...q, ruleName: ids.get(q.ruleName ?? '') ?? null })),
  };
}

export function gatherRobots(): Robot[] {
  const robots: Robot[] = [];
  const dev = loadDataset(`${DATA}/banking77-faq-full.json`);
  const b = renamed(dev.rules, dev.queries);
  variants('banking77-dev', b.rules, b.queries, [], [1, 3, 0], robots);
  // smp2017: rules only. Index some phrasings of each rule, ask with the others.
  const zh = loadDataset(`${DATA}/smp2017-faq.json`);
  for (const k of [2, 5]) {
    const z = renamed(
      zh.rules,
      zh.rules.flatMap((r) =>
        r.questions.slice(k).map((question) => ({ question, ruleName: r.ruleName })),
      ),
    );
    variants(`smp2017-rules k${k}`, z.rules, z.queries, [], [k], robots);
  }
  for (const name of ['zh-assistant-dev', 'zh-service-dev', 'en-service-dev']) {
    const own = loadDataset(`${OWN}/${name}.json`);
    const r = renamed(own.rules, own.queries);
    variants(name, r.rules, r.queries, own.oosQueries ?? [], [1, 3, 0], robots);
  }
  for (const name of ['zh-medical-pairs-dev', 'zh-medical-few-dev']) {
    const own = loadDataset(`${OWN}/${name}.json`);
    variants(name, own.rules, own.queries, own.oosQueries ?? [], [0], robots);
  }
  return robots;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The decision on one question under an offset (thresholds and margin of the defaults). */
export function answered(a: Asked, offset: number, threshold = 0.94): boolean {
  const s1 = a.exact1 ? 1 : Math.min(0.99, sigmoid(a.z1 + offset));
  const s2 = a.exact2 ? 1 : Math.min(s1, 0.99, sigmoid(a.z2 + offset));
  return (s1 === 1 && s2 < 1) || (s1 >= threshold && s1 - s2 >= DEFAULT_MATCH_SETTINGS.margin);
}

function cell(robot: Robot, offset: number): string {
  const inScope = robot.asked.filter((a) => a.inScope);
  const oos = robot.asked.filter((a) => !a.inScope);
  const bm = inScope.filter((a) => answered(a, offset));
  const right = bm.filter((a) => a.right).length;
  const oosBm = oos.filter((a) => answered(a, offset)).length;
  const share = (bm.length / Math.max(1, inScope.length)).toFixed(2);
  const precision = (right / Math.max(1, bm.length)).toFixed(3);
  return `${share}/${precision} oos ${(oosBm / Math.max(1, oos.length)).toFixed(3)}`;
}

/** Wrong-answer rates of the self-test shown side by side. */
const RATES = (process.env['KB_RATES'] ?? '0.01').split(',').map(Number);

function main(): void {
  // KB_ROBOTS=file keeps the gathered robots between runs (gathering takes minutes).
  const cache = process.env['KB_ROBOTS'];
  const robots: Robot[] =
    cache && existsSync(cache)
      ? (JSON.parse(readFileSync(cache, 'utf8')) as Robot[])
      : gatherRobots();
  if (cache && !existsSync(cache)) writeFileSync(cache, JSON.stringify(robots));
  console.log('robot: offset, BESTMATCH share/precision in scope, share of out-of-scope answered');
  for (const robot of robots) {
    const cells = RATES.map((rate) => {
      const offset = calibrationOffset(robot.probes, undefined, rate);
      return `${offset.toFixed(2).padStart(5)}: ${cell(robot, offset)}`;
    });
    console.log(
      `${robot.name.padEnd(32)} probes ${String(robot.probes.length).padStart(4)}  offset 0: ${cell(robot, 0)}  | ${cells.join(' | ')}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) main();
