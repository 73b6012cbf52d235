/**
 * The impact preview's figures (docs/publishing.md, "What a publish changes for customers"): a
 * robot of 10,000 rules in review mode with a draft that changed some of them (300 unless
 * told), its question log filled with 100,000 distinct customer questions (150,000 asks, through the service's own
 * recorder, in-process, while the service is stopped), then `GET versions/impact` timed over HTTP
 * on the in-process service while another process asks one question at a time (ask-probe.ts):
 * the preview's time, and ask p99 and max idle (before it) and while it runs.
 * `npm run bench -- --impact` (`--impact-questions N` for another size, `--impact-edited N` for
 * another number of rules changed: 300 by default, a few for the usual publish).
 * @module
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import { startService } from '../../electron/service/index';
import type { KbService } from '../../electron/service/index';
import { createConsoleLogger, silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/normalize';
import type { ImpactReport } from '../../electron/service/publishing-types';
import { QuestionLog } from '../../electron/service/question-log/question-log';
import { DayFileLog } from '../../electron/service/store/embedded/question-log/day-file-log';
import { consoleClient } from '../helpers/console-client';
import { TEST_CREDENTIALS, TEST_ENV, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import { percentile, round } from './stats';
import { typedVariant } from './typed-questions';

const PROBE = join(import.meta.dirname, 'ask-probe.ts');
const RULES = 10_000;

export interface ImpactFigures {
  rules: number;
  questions: number;
  asks: number;
  previewMs: number;
  changedQuestions: number;
  /** Rules the draft changed, and questions asked of both targets (those they can reach). */
  edited: number;
  matched: number;
  load: number[];
  /** The longest the service's event loop went without a turn while the preview ran. */
  heldMs: number;
  idle: { asks: number; p99: number; max: number };
  during: { asks: number; p99: number; max: number };
}

const start = (dataDir: string) =>
  startService({
    dataDir,
    logger: process.env.KB_BENCH_LOG === '1' ? createConsoleLogger('bench') : silentLogger,
    env: TEST_ENV,
    port: 0,
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
  return { asks: ms.length, p99: round(percentile(ms, 99)), max: round(Math.max(0, ...ms)) };
};

export async function measureImpact(questionCount = 100_000, edited = 300): Promise<ImpactFigures> {
  const dataDir = makeDataDir('bench-impact');
  let service: KbService = await start(dataDir);
  let probe: ReturnType<typeof startProbe> | undefined;
  try {
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const secret = (await client.listRobots(tenantId))[0]?.robotSecret ?? '';
    const robot = client.robot(tenantId, 'default', secret);
    const rules = generateRules(RULES, 42);
    const ruleIds: string[] = [];
    for (let i = 0; i < rules.length; i += 1000) {
      const result = await robot.importRules(rules.slice(i, i + 1000));
      ruleIds.push(...result.succeed.map((rule) => rule.ruleId));
    }
    const R = `/tenants/${tenantId}/robots/default`;
    const api = consoleClient(service.url, service.consoleToken);
    // Review mode publishes the draft as v1; the draft then changes answers and phrasings.
    await api.ok('PATCH', R, { settings: { publishMode: 'review' } });
    for (let k = 0; k < edited; k++) {
      const i = (k * 31) % ruleIds.length;
      const rule = rules[i] as RuleInput;
      const patch =
        k % 2 === 0
          ? { answer: `${rule.answer} (edited)` }
          : { questions: rule.questions.slice(1) };
      await api.ok('PATCH', `${R}/rules/${ruleIds[i]}`, patch);
    }
    await service.stop();
    const questions = distinctQuestions(rules, questionCount);
    const asks = await fill(dataDir, tenantId, questions, Date.now());
    service = await start(dataDir);
    const probeQuestions = questions.slice(0, 2000).map((q) => `${q} ?`);
    const asking = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS }).robot(
      tenantId,
      'default',
      secret,
    );
    for (const question of probeQuestions.slice(0, 200)) await asking.ask(question, 'warm-up');
    probe = startProbe(service.url, tenantId, secret, probeQuestions);
    const idleStart = Date.now();
    while (probe.samples.length < 300 && Date.now() - idleStart < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const idleEnd = Date.now();
    const held = holdWatch();
    const t = performance.now();
    // In-process (no socket): at this size the answer comes after a keep-alive socket's idle
    // limit on a loaded machine; the asks timed meanwhile go over HTTP.
    const injected = await service.inject({
      method: 'GET',
      url: `/console/api${R}/versions/impact`,
      headers: { authorization: `Bearer ${service.consoleToken}` },
    });
    if (injected.statusCode !== 200) throw new Error(`impact failed: ${injected.body}`);
    const report = (JSON.parse(injected.body) as { data: ImpactReport }).data;
    const previewMs = performance.now() - t;
    const holds = held.stop();
    const previewEnd = Date.now();
    await probe.stop();
    const samples = probe.samples;
    probe = undefined;
    if (report.replayed !== questionCount) {
      throw new Error(`replayed ${report.replayed} questions, not ${questionCount}`);
    }
    return {
      rules: RULES,
      questions: report.replayed,
      asks,
      previewMs: round(previewMs),
      changedQuestions: report.changed.questions,
      edited,
      matched: report.matched,
      heldMs: round(Math.max(0, ...holds.map((h) => h.ms))),
      load: loadavg().map(round),
      idle: latency(samples, idleStart, idleEnd),
      during: latency(samples, idleEnd, previewEnd),
    };
  } finally {
    await probe?.stop();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function impactLine(f: ImpactFigures): string {
  return (
    `impact preview: ${f.questions} distinct questions (${f.asks} asks) at ${f.rules} rules, ` +
    `${f.edited} rules changed, in ${round(f.previewMs / 1000)} s (target ≤ 10 s), ` +
    `${f.matched} reachable and asked of both, ${f.changedQuestions} change answer; ` +
    `ask p99 ${f.during.p99} ms / max ${f.during.max} ms while it runs (${f.during.asks} asks) vs ` +
    `idle p99 ${f.idle.p99} ms / max ${f.idle.max} ms (${f.idle.asks} asks): ` +
    `p99 ×${round(f.during.p99 / Math.max(0.001, f.idle.p99))} (target: no ask over 50 ms), ` +
    `event loop held ${f.heldMs} ms at most; ` +
    `load average ${f.load.join(' ')}`
  );
}
