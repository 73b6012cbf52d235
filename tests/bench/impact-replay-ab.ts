/**
 * The impact preview's replay alone, in one process (no service, no question log): a Zipf
 * knowledge base of 10,000 rules as `from`, the same with `--edited` rules changed (answers and
 * phrasings in turn, as impact-bench.ts edits them) as `to`, and `--questions` customer
 * questions replayed by impact.ts's `compareSides` (on `--workers` worker threads, or on the
 * loop's slices with `--workers 0`), `--previews` times in a row against the same `from` (the
 * publish page's preview after each edit, then the publish gate's). Prints, per preview, the
 * wall time, the process's CPU, the longest the event loop went without a turn, and a digest
 * of the comparison (to check that two builds count the same). Written to run from a checkout
 * of an older build as well (`git worktree add`, then copy this file): what only a newer build
 * has is looked up at run time.
 * With `--warm`, the `from` side's outcomes are worked out first as the service does after a
 * publish (impact-warm.ts: one worker), timed on its own line (`preview: 0`).
 * `npx tsx tests/bench/impact-replay-ab.ts --questions 20000 --edited 300 --workers 2 --warm`.
 * @module
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_MATCH_SETTINGS, createRobotIndex } from '../../electron/service/matching/index';
import type { MatchableRule, RobotIndex } from '../../electron/service/matching/types';
import { ReplayPlan } from '../../electron/service/publishing/impact-bound';
import type { ImpactSide, Replay } from '../../electron/service/publishing/impact-compare';
import { compareSides } from '../../electron/service/publishing/impact';
import { ReachableQuestions } from '../../electron/service/publishing/impact-reach';
import { fillIndex, matchableRules } from './generate-rules';
import { zipfKb } from './zipf-kb';

const { values } = parseArgs({
  options: {
    questions: { type: 'string', default: '20000' },
    edited: { type: 'string', default: '300' },
    rules: { type: 'string', default: '10000' },
    workers: { type: 'string', default: '2' },
    previews: { type: 'string', default: '2' },
    /** Warm the `from` side first (impact-warm.ts, decision 179), timed on its own. */
    warm: { type: 'boolean', default: false },
  },
});
const count = Number(values.questions);
const edited = Number(values.edited);
const workers = Number(values.workers);
const kb = zipfKb(Number(values.rules), 42);
const questions = kb.questions(count).map((text, i) => ({ text, asks: 1 + (i % 3) }));
const before = matchableRules(kb.rules);
const after: MatchableRule[] = before.map((rule) => ({ ...rule }));
const answers: string[] = [];
const reach = new ReachableQuestions([]);
const answerOf = new Map(before.map((rule, i) => [rule.ruleId, `answer ${i}`]));
const newAnswerOf = new Map(answerOf);
for (let done = 0; done < edited; done++) {
  const rule = after[(done * 31) % after.length] as MatchableRule;
  if (done % 2 === 0) {
    answers.push(rule.ruleId);
    newAnswerOf.set(rule.ruleId, `${answerOf.get(rule.ruleId)} (edited)`);
  } else {
    reach.add({ ruleName: rule.ruleName, questions: [...rule.questions] });
    rule.questions = rule.questions.slice(1);
    reach.add({ ruleName: rule.ruleName, questions: [...rule.questions] });
  }
}
const sideOf = (
  name: string,
  index: RobotIndex,
  rules: readonly MatchableRule[],
  texts: Map<string, string>,
): ImpactSide => ({
  name,
  index,
  rules: new Map(
    rules.map((rule) => [
      rule.ruleId,
      { ruleName: rule.ruleName, answer: texts.get(rule.ruleId) as string },
    ]),
  ),
});
const a = sideOf(
  'published',
  fillIndex(createRobotIndex({ selfCalibration: false }), before),
  before,
  answerOf,
);
const b = sideOf(
  'draft',
  fillIndex(createRobotIndex({ selfCalibration: false }), after),
  after,
  newAnswerOf,
);
const plan = new ReplayPlan(reach, answers);
const at = Date.now();
const settings = DEFAULT_MATCH_SETTINGS;
// Only builds with decision 172 keep the `from` side's outcomes.
const keptFor = await import('../../electron/service/publishing/impact-from-cache').then(
  (module) => module.fromOutcomesFor,
  () => undefined,
);

/** The longest the event loop went without a turn while `run` ran, and its wall and CPU. */
async function timed<T>(run: () => Promise<T>) {
  let held = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last);
    last = now;
  }, 1);
  const cpu = process.cpuUsage();
  const t = performance.now();
  const result = await run();
  const ms = performance.now() - t;
  const spent = process.cpuUsage(cpu);
  clearInterval(timer);
  return {
    result,
    wallMs: Math.round(ms),
    cpuMs: Math.round((spent.user + spent.system) / 1000),
    heldMs: Math.round(held),
  };
}

if (values.warm) {
  const warmSide = await import('../../electron/service/publishing/impact-warm').then(
    (module) => module.warmSide,
  );
  const { result, ...times } = await timed(() =>
    warmSide(a.index, questions, at, settings, new AbortController().signal, { workers: 1 }),
  );
  console.log(JSON.stringify({ preview: 0, warm: result, questions: count, edited, ...times }));
}

for (let preview = 1; preview <= Number(values.previews); preview++) {
  const known = keptFor?.(a.index, at, settings) ?? null;
  const replay: Replay = { a, b, questions, reach: plan, at, settings, known };
  const { result, ...times } = await timed(() =>
    compareSides(
      replay,
      {},
      { workerMinQuestions: workers === 0 ? Infinity : 0, workers: Math.max(1, workers) },
    ),
  );
  // What the report counts (not how many questions were asked of either side, which a tighter
  // filter lowers): equal across builds.
  const counted = { kinds: result.kinds, asks: result.replayedAsks };
  const digest = createHash('sha256').update(JSON.stringify(counted)).digest('hex').slice(0, 16);
  console.log(
    JSON.stringify({
      preview,
      questions: count,
      edited,
      workers,
      matched: result.matched,
      fromAsked: (result as { fromAsked?: number }).fromAsked ?? null,
      changed: Object.fromEntries(Object.entries(result.kinds).map(([k, v]) => [k, v.questions])),
      ...times,
      kept: known?.size ?? null,
      digest,
      load: loadavg()[0],
    }),
  );
}
