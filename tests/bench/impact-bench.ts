/**
 * The impact preview's figures (docs/publishing.md, "What a publish changes for customers"): a
 * robot of 10,000 rules in review mode, its question log filled with 100,000 distinct customer
 * questions (150,000 asks, through the service's own recorder, in-process, while the service is
 * stopped), then, for a draft changing a few rules and then many, `GET versions/impact` timed
 * on the in-process service while another process asks one question at a time (ask-probe.ts):
 * the preview's time against two asks of the matcher per question asked of both sides (the
 * baseline, same run), its CPU (the process's, the worker's included, and the event loop's busy
 * time), the service's peak memory above its idle, and ask p50/p99/max idle (before it) and
 * while it runs. Each preview on the worker thread (decision 128) and on the loop's slices (the
 * service restarted with every preview on the loop), alternating, `--impact-rounds` times, each
 * once the service's background work (self-tests, the published side's warm-up) is done. Twice:
 * a knowledge base and log over a Zipf vocabulary (zipf-kb.ts) and the 100-word worst case.
 * `npm run bench -- --impact` (`--impact-questions N`, `--impact-edited 5,300`,
 * `--impact-kb zipf,narrow`, `--impact-edits mixed,answers`, `--impact-runners worker,loop`,
 * `--impact-rounds 1`).
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import { DEFAULT_MATCH_SETTINGS } from '../../electron/service/matching/index';
import { startService } from '../../electron/service/index';
import type { KbService } from '../../electron/service/index';
import { createConsoleLogger, silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/normalize';
import type { ImpactReport } from '../../electron/service/publishing-types';
import { QuestionLog } from '../../electron/service/question-log/question-log';
import { DayFileLog } from '../../electron/service/store/embedded/question-log/day-file-log';
import { consoleClient } from '../helpers/console-client';
import { TEST_CREDENTIALS, TEST_ENV, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules, standaloneIndex } from './generate-rules';
import { percentile, round } from './stats';
import { typedVariant } from './typed-questions';
import { zipfKb } from './zipf-kb';

const PROBE = join(import.meta.dirname, 'ask-probe.ts');
const RULES = 10_000;

/** Where the service replays a preview: on its worker thread, or on the loop's slices. */
export type ImpactRunner = 'worker' | 'loop';

const start = (dataDir: string, runner: ImpactRunner = 'worker') =>
  startService({
    dataDir,
    logger: process.env.KB_BENCH_LOG === '1' ? createConsoleLogger('bench') : silentLogger,
    env: TEST_ENV,
    port: 0,
    ...(runner === 'loop' ? { impactWorkerMinQuestions: Number.MAX_SAFE_INTEGER } : {}),
  });

/** `count` distinct (by normalised text) questions a customer might type, from the phrasings. */
function distinctQuestions(rules: readonly RuleInput[], count: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const rule = rules[(i * 7919) % rules.length] as RuleInput;
    const phrasing = rule.questions[i % rule.questions.length] ?? rule.ruleName;
    // Past the variants of a phrasing, a word a customer added makes it another question.
    const text = i < count ? typedVariant(phrasing, i) : `${typedVariant(phrasing, i)} ${i % 97}`;
    const key = normalizeText(text);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}

/** Records `questions` as customers' asks (one in two asked twice) in the stopped service's log. */
async function fill(dataDir: string, tenantId: number, questions: readonly string[], end: number) {
  const log = new QuestionLog({
    repository: new DayFileLog({ dataDir, logger: silentLogger, now: () => end }),
    now: () => end,
    logger: silentLogger,
    robot: () => ({
      retentionDays: 90,
      maxBytes: 1e12,
      lowScore: 0.97,
      evidenceScore: 0.7,
      margin: 0.1,
    }),
  });
  let asks = 0;
  for (let i = 0; i < questions.length; i++) {
    for (let k = 0; k < 1 + (i % 2); k++) {
      log.record(
        { tenantId, robotId: 'default' },
        {
          at: end - ((i * 13 + k) % (6 * 86_400_000)),
          userId: `user-${i % 5000}`,
          channel: 'API',
          question: questions[i] as string,
          answerType: 'BESTMATCH',
          module: 'KB',
          score: 0.95,
          ruleId: null,
          recommended: [],
          version: 1,
          source: 'api',
          chosenFrom: null,
          menuEntry: null,
        },
        null,
      );
      if (++asks % 2000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await log.close();
  return asks;
}

/** Starts the probe asking; its samples (epoch ms at the end, latency) once stopped. */
function startProbe(url: string, tenantId: number, secret: string, questions: readonly string[]) {
  const file = join(makeDataDir('bench-impact-probe'), 'questions.json');
  writeFileSync(file, JSON.stringify(questions));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', PROBE, url, String(tenantId), secret, file],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const samples: { at: number; ms: number }[] = [];
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const [at, ms] = line.split(' ');
      samples.push({ at: Number(at), ms: Number(ms) });
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    samples,
    async stop() {
      child.stdin.end('stop\n');
      await exited;
    },
  };
}

/**
 * Watches the event loop (the service runs in this process) for turns further apart than
 * 20 ms: what held it, whatever the machine's load does to the asks' own times. With
 * KB_BENCH_HOLDS=<file>, the holds' monotonic times (µs, the clock of --cpu-prof) are written
 * there, to find in a profile what held.
 */
function holdWatch() {
  const holds: { at: number; ms: number }[] = [];
  let last = process.hrtime.bigint();
  const timer = setInterval(() => {
    const now = process.hrtime.bigint();
    const ms = Number(now - last) / 1e6;
    if (ms > 20) holds.push({ at: Number(last / 1000n), ms });
    last = now;
  }, 1);
  return {
    stop() {
      clearInterval(timer);
      const file = process.env.KB_BENCH_HOLDS;
      if (file) writeFileSync(file, JSON.stringify(holds));
      return holds;
    },
  };
}

const latency = (samples: readonly { at: number; ms: number }[], from: number, to: number) => {
  const ms = samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.ms);
  return {
    asks: ms.length,
    p50: round(percentile(ms, 50)),
    p99: round(percentile(ms, 99)),
    max: round(Math.max(0, ...ms)),
  };
};

/**
 * The CPU time of the process's main thread (the service's event loop), ms, from Linux's
 * /proc (clock ticks of 10 ms): the process's own figure counts the worker's too. NaN elsewhere.
 */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Waits until this process (the in-process service) has spent under a tenth of a core for 2 s
 * running, at most `maxMs`: its self-tests and the impact warm-up then are done. Returns the
 * time waited, ms.
 */
async function backgroundSettled(maxMs = 180_000): Promise<number> {
  const started = Date.now();
  let quietSeconds = 0;
  while (quietSeconds < 2 && Date.now() - started < maxMs) {
    const cpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const spent = process.cpuUsage(cpu);
    quietSeconds = (spent.user + spent.system) / 1000 < 100 ? quietSeconds + 1 : 0;
  }
  return Date.now() - started;
}

/** The process's resident memory at its highest while it runs, sampled every 50 ms. */
function peakRss() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

type Latency = ReturnType<typeof latency>;

/** One preview's figures; `edited` rules of the draft changed against the published version. */
export interface ImpactRun {
  edited: number;
  runner: ImpactRunner;
  round: number;
  previewMs: number;
  /** CPU of the whole process while the preview ran (the worker's included), ms. */
  cpuMs: number;
  /** CPU of the service's main thread (the event loop: the asks' included), ms. */
  mainCpuMs: number;
  /** The event loop's busy time while it ran (wall time in its tasks, waits for a core included), ms. */
  loopBusyMs: number;
  /** Resident memory at its peak during the preview above the process's before it, MB. */
  rssAboveMb: number;
  matched: number;
  changedQuestions: number;
  /** The preview's time per question asked of both sides, against two asks of the matcher. */
  perMatchedMs: number;
  load: number[];
  /** The longest the service's event loop went without a turn while the preview ran. */
  heldMs: number;
  /**
   * How long the service's background work (the indexes' self-tests, the published side's
   * warm-up) ran before the preview was asked for, ms: a preview follows a publish by minutes,
   * not seconds, so it is timed once that work is done.
   */
  settledMs: number;
  /** Questions the preview asked of the `from` side (0: all its outcomes were worked out ahead). */
  fromAsked: number;
  idle: Latency;
  during: Latency;
}

export interface ImpactFigures {
  /** `zipf`: a realistic vocabulary (zipf-kb.ts); `narrow`: 100 words, the worst case. */
  kb: ImpactKb;
  edits: ImpactEdits;
  rules: number;
  questions: number;
  asks: number;
  /** The baseline: two asks of the matcher (`decide`, in this process) per question, ms. */
  twoAsksMs: number;
  runs: ImpactRun[];
}

export type ImpactKb = 'zipf' | 'narrow';

/**
 * What the draft changes: `mixed`, answers and phrasings in turn (a phrasing moves the idf
 * every score reads: its terms' questions are asked of both sides); `answers`, answers alone
 * (bounded by the changed rules' ceilings, decision 116).
 */
export type ImpactEdits = 'mixed' | 'answers';

/** The knowledge base and its customers' questions. */
function knowledgeBase(kb: ImpactKb, count: number) {
  if (kb === 'narrow') {
    const rules = generateRules(RULES, 42);
    return { rules, questions: distinctQuestions(rules, count) };
  }
  const zipf = zipfKb(RULES, 42);
  return { rules: zipf.rules, questions: zipf.questions(count) };
}

/** Two decisions of the matcher per question, ms: the cost a replay cannot go under. */
function twoAsks(rules: readonly RuleInput[], questions: readonly string[]): number {
  const index = standaloneIndex(rules);
  const now = Date.now();
  const sample = questions.slice(0, 2000);
  const decide = (question: string) =>
    index.decide?.(question, now, DEFAULT_MATCH_SETTINGS) ??
    index.match(question, now, DEFAULT_MATCH_SETTINGS);
  for (const question of sample.slice(0, 200)) decide(question);
  const started = performance.now();
  for (const question of sample) decide(question);
  return (2 * (performance.now() - started)) / sample.length;
}

/**
 * The preview of 10,000 rules and `questionCount` logged questions, once per count of rules
 * changed in `edited` (ascending: each adds edits to the last draft).
 */
export async function measureImpact(
  questionCount = 100_000,
  edited: readonly number[] = [5, 300],
  kb: ImpactKb = 'zipf',
  edits: ImpactEdits = 'mixed',
  runners: readonly ImpactRunner[] = ['worker', 'loop'],
  rounds = 1,
): Promise<ImpactFigures> {
  const dataDir = makeDataDir('bench-impact');
  let service: KbService = await start(dataDir);
  let probe: ReturnType<typeof startProbe> | undefined;
  try {
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const secret = (await client.listRobots(tenantId))[0]?.robotSecret ?? '';
    const robot = client.robot(tenantId, 'default', secret);
    const { rules, questions } = knowledgeBase(kb, questionCount);
    const ruleIds: string[] = [];
    for (let i = 0; i < rules.length; i += 1000) {
      const result = await robot.importRules(rules.slice(i, i + 1000));
      ruleIds.push(...result.succeed.map((rule) => rule.ruleId));
    }
    const R = `/tenants/${tenantId}/robots/default`;
    // Review mode publishes the draft as v1; the draft then changes answers and phrasings.
    await consoleClient(service.url, service.consoleToken).ok('PATCH', R, {
      settings: { publishMode: 'review' },
    });
    await service.stop();
    const asks = await fill(dataDir, tenantId, questions, Date.now());
    const probeQuestions = questions.slice(0, 2000).map((q) => `${q} ?`);
    let running: ImpactRunner | null = null;
    /** The service with previews on `runner`, restarted when it was on the other, warmed up. */
    const serviceOn = async (runner: ImpactRunner) => {
      if (running === runner) return service;
      if (running !== null) await service.stop();
      service = await start(dataDir, runner);
      running = runner;
      const asking = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS }).robot(
        tenantId,
        'default',
        secret,
      );
      for (const question of probeQuestions.slice(0, 200)) await asking.ask(question, 'warm-up');
      return service;
    };
    await serviceOn(runners[0] ?? 'worker');
    const twoAsksMs = twoAsks(rules, questions);
    const runs: ImpactRun[] = [];
    let done = 0;
    for (const count of edited) {
      for (; done < count; done++) {
        const i = (done * 31) % ruleIds.length;
        const rule = rules[i] as RuleInput;
        const patch =
          edits === 'answers' || done % 2 === 0
            ? { answer: `${rule.answer} (edited)` }
            : { questions: rule.questions.slice(1) };
        const api = consoleClient(service.url, service.consoleToken);
        await api.ok('PATCH', `${R}/rules/${ruleIds[i]}`, patch);
      }
      for (let turn = 1; turn <= rounds; turn++) {
        // Alternating, so that the machine's load falls on both alike.
        const order = turn % 2 === 1 ? runners : [...runners].reverse();
        for (const runner of order) {
          const on = await serviceOn(runner);
          const settledMs = await backgroundSettled();
          probe = startProbe(on.url, tenantId, secret, probeQuestions);
          const idleStart = Date.now();
          while (probe.samples.length < 300 && Date.now() - idleStart < 30_000) {
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          const idleEnd = Date.now();
          const held = holdWatch();
          const rss = peakRss();
          const rssBefore = process.memoryUsage.rss();
          const cpu = process.cpuUsage();
          const mainCpu = mainThreadCpuMs();
          const busy = performance.eventLoopUtilization();
          const t = performance.now();
          // In-process (no socket): at this size the answer comes after a keep-alive socket's
          // idle limit on a loaded machine; the asks timed meanwhile go over HTTP.
          const injected = await on.inject({
            method: 'GET',
            url: `/console/api${R}/versions/impact`,
            headers: { authorization: `Bearer ${on.consoleToken}` },
          });
          const previewMs = performance.now() - t;
          const loopBusyMs = performance.eventLoopUtilization(busy).active;
          const spent = process.cpuUsage(cpu);
          const mainCpuMs = mainThreadCpuMs() - mainCpu;
          const rssPeak = rss.stop();
          const holds = held.stop();
          const previewEnd = Date.now();
          await probe.stop();
          const samples = probe.samples;
          probe = undefined;
          if (injected.statusCode !== 200) throw new Error(`impact failed: ${injected.body}`);
          const report = (JSON.parse(injected.body) as { data: ImpactReport }).data;
          if (report.replayed !== questions.length) {
            throw new Error(`replayed ${report.replayed} questions, not ${questions.length}`);
          }
          runs.push({
            edited: count,
            runner,
            round: turn,
            previewMs: round(previewMs),
            cpuMs: round((spent.user + spent.system) / 1000),
            mainCpuMs: round(mainCpuMs),
            loopBusyMs: round(loopBusyMs),
            rssAboveMb: round((rssPeak - rssBefore) / 2 ** 20),
            matched: report.matched,
            changedQuestions: report.changed.questions,
            perMatchedMs: round(previewMs / Math.max(1, report.matched), 3),
            heldMs: round(Math.max(0, ...holds.map((h) => h.ms))),
            settledMs,
            fromAsked: report.fromAsked,
            load: loadavg().map((value) => round(value)),
            idle: latency(samples, idleStart, idleEnd),
            during: latency(samples, idleEnd, previewEnd),
          });
          console.log(runLine(runs.at(-1) as ImpactRun, questions.length, twoAsksMs));
        }
      }
    }
    return { kb, edits, rules: RULES, questions: questions.length, asks, twoAsksMs, runs };
  } finally {
    await probe?.stop();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function runLine(r: ImpactRun, questions: number, twoAsksMs: number): string {
  const ask = (l: Latency) => `p50 ${l.p50} / p99 ${l.p99} / max ${l.max} ms (${l.asks} asks)`;
  return (
    `  ${r.edited} rules changed, ${r.runner} (round ${r.round}): ${round(r.previewMs / 1000)} s ` +
    `(target ≤ 10 s) = ×${round(r.previewMs / Math.max(0.001, questions * twoAsksMs), 3)} of ` +
    `asking every question of both sides (the baseline × ${questions}); CPU ${round(r.cpuMs / 1000)} s ` +
    `(process, worker included; main thread ${round(r.mainCpuMs / 1000)} s), ` +
    `event loop busy ${round(r.loopBusyMs / 1000)} s; ` +
    `peak RSS +${r.rssAboveMb} MB; ` +
    `${r.matched} that may change asked of both (${round((100 * r.matched) / questions)}%), ` +
    `${r.changedQuestions} change answer; ` +
    `asks while it runs ${ask(r.during)} vs idle ${ask(r.idle)}: ` +
    `p99 ×${round(r.during.p99 / Math.max(0.001, r.idle.p99))} (target: no ask over 50 ms); ` +
    `event loop held ${r.heldMs} ms at most; load average ${r.load.join(' ')}; ` +
    `${r.fromAsked} asked of the published side (its warm-up and the self-tests ran ` +
    `${round(r.settledMs / 1000)} s before)`
  );
}

export function impactLine(f: ImpactFigures): string {
  const kb =
    f.kb === 'zipf' ? 'Zipf vocabulary of 4,000 words' : '100-word vocabulary (worst case)';
  const median = (values: number[]) => round(percentile(values, 50));
  const of = (edited: number, runner: ImpactRunner) =>
    f.runs.filter((r) => r.edited === edited && r.runner === runner);
  const ratios = [...new Set(f.runs.map((r) => r.edited))].flatMap((edited) => {
    const [worker, loop] = [of(edited, 'worker'), of(edited, 'loop')];
    if (worker.length === 0 || loop.length === 0) return [];
    const ratio = (value: (r: ImpactRun) => number) =>
      round(median(worker.map(value)) / Math.max(0.001, median(loop.map(value))));
    return [
      `  ${edited} rules changed, worker ÷ loop (medians of ${worker.length} round(s)): wall ` +
        `×${ratio((r) => r.previewMs)}, process CPU ×${ratio((r) => r.cpuMs)}, main thread CPU ` +
        `×${ratio((r) => r.mainCpuMs)}, ask p99 during ×${ratio((r) => r.during.p99)}, ` +
        `ask max during ×${ratio((r) => r.during.max)}, peak RSS above idle ` +
        `${median(worker.map((r) => r.rssAboveMb))} vs ${median(loop.map((r) => r.rssAboveMb))} MB`,
    ];
  });
  return [
    `impact preview, ${kb}: ${f.questions} distinct questions (${f.asks} asks) at ${f.rules} ` +
      `rules, ${f.edits === 'answers' ? 'answers changed alone' : 'answers and phrasings changed'}; two asks of the matcher ${round(f.twoAsksMs, 3)} ms per question (baseline)`,
    ...f.runs.map((r) => runLine(r, f.questions, f.twoAsksMs)),
    ...ratios,
  ].join('\n');
}
