/**
 * The question log's costs (docs/question-log.md):
 *   askLogRatio: HTTP ask requests/s of a service with the log on divided by one with it off
 *     (KB_QUESTION_LOG=0), same rules, same load, alternating rounds, medians;
 *   logBytesPerMillionAsks: bytes of day files the logged service wrote, per million asks;
 *   inboxGroup100kMs: the inbox of 100k missed questions recorded (the route's work, in-process:
 *     from the groups kept as they were recorded);
 *   logRecordUs: what recording costs one ask, in-process (a RECOMMEND of 5 items, the user's
 *     click memory included, recorded in turns of 16 asks): the steadier figure on a shared
 *     machine, to set against an ask's.
 *   askLogCpuRatio: CPU per ask of the service with the log off divided by with it on (all its
 *     threads, from /proc, over the same rounds as askLogRatio): what the log costs the service
 *     itself, whatever share of the two cores the load generator takes in a round.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import { silentLogger } from '../../electron/service/logger';
import { QuestionLog } from '../../electron/service/question-log/question-log';
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import { DayFileLog } from '../../electron/service/store/embedded/question-log/day-file-log';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir } from '../helpers/service';
import { alternatingRps, askRps } from './http-load';
import { cpuSeconds } from './stats';
import type { AskTarget, LoadOptions } from './http-load';

export interface QuestionLogFigures {
  askLogRatio: number;
  logOnRps: number;
  logOffRps: number;
  logBytesPerMillionAsks: number;
  inboxGroup100kMs: number;
  inboxGroups: number;
  logRecordUs: number;
  askLogCpuRatio: number;
  /** CPU µs of the service per ask (median of its rounds), log on and off. */
  cpuUsPerAskOn: number;
  cpuUsPerAskOff: number;
}

export interface QuestionLogBenchDeps {
  rules: readonly RuleInput[];
  questions: readonly string[];
  registerRobot: (url: string) => Promise<RobotClient>;
  importAll: (robot: RobotClient, rules: readonly RuleInput[]) => Promise<number>;
  load: LoadOptions;
  rounds: number;
  /** The team server: the logged service's database and the unlogged one's (else embedded). */
  databases?: { on: string; off: string };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile() && /\.(jsonl|idx)$/.test(path));
}

async function logSize(dataDir: string): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for (const path of filesUnder(join(dataDir, 'question-log'))) {
    const text = readFileSync(path, 'utf8');
    bytes += Buffer.byteLength(text);
    lines += text.split('\n').length - 1;
  }
  return { bytes, lines };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[values.length >> 1] ?? Number.NaN;

export async function askRatio(deps: QuestionLogBenchDeps) {
  const onDir = makeDataDir('bench-log-on');
  const offDir = makeDataDir('bench-log-off');
  const services: ChildService[] = [];
  try {
    const database = (url: string | undefined): Record<string, string> =>
      url ? { KB_DATABASE_URL: url } : {};
    const on = await spawnService(onDir, { env: database(deps.databases?.on) });
    services.push(on);
    const off = await spawnService(offDir, {
      env: { KB_QUESTION_LOG: '0', ...database(deps.databases?.off) },
    });
    services.push(off);
    const targets: AskTarget[] = [];
    for (const service of [on, off]) {
      const robot = await deps.registerRobot(service.url);
      await deps.importAll(robot, deps.rules);
      for (const question of deps.questions.slice(0, 200)) await robot.ask(question);
      targets.push({
        origin: new URL(service.url).origin,
        basePath: robot.basePath,
        robotSecret: robot.robotSecret,
        credentials: TEST_CREDENTIALS,
      });
    }
    const [onTarget, offTarget] = targets as [AskTarget, AskTarget];
    const cpuPerAsk = { on: [] as number[], off: [] as number[] };
    const measured = (target: AskTarget, service: ChildService, into: number[]) => async () => {
      const before = cpuSeconds(service.child.pid);
      const rps = await askRps(target, deps.questions, deps.load);
      into.push(((cpuSeconds(service.child.pid) - before) * 1e6) / (rps * deps.load.durationSec));
      return rps;
    };
    const logOn = measured(onTarget, on, cpuPerAsk.on);
    const logOff = measured(offTarget, off, cpuPerAsk.off);
    // Each round in both orders (on, off, off, on): whichever runs second after a burst of other
    // work on the shared machine does not always favour the same side.
    const rps = await alternatingRps(
      { on: logOn, off: logOff, offAgain: logOff, onAgain: logOn },
      deps.rounds,
    );
    for (const service of services) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    services.length = 0;
    const size = await logSize(onDir);
    return {
      logOnRps: ((rps.on ?? Number.NaN) + (rps.onAgain ?? Number.NaN)) / 2,
      logOffRps: ((rps.off ?? Number.NaN) + (rps.offAgain ?? Number.NaN)) / 2,
      logBytesPerMillionAsks: (size.bytes / Math.max(1, size.lines)) * 1_000_000,
      cpuUsPerAskOn: median(cpuPerAsk.on),
      cpuUsPerAskOff: median(cpuPerAsk.off),
    };
  } finally {
    for (const service of services) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    rmSync(onDir, { recursive: true, force: true });
    rmSync(offDir, { recursive: true, force: true });
  }
}

/** 100k missed questions: variants of `questions` (a word dropped, a suffix), over 30 days. */
function missedEntries(questions: readonly string[], count: number, now: number): LoggedQuestion[] {
  const suffixes = ['', ' please', '?', ' now', ' thanks'];
  return Array.from({ length: count }, (_, i) => {
    const base = questions[(i * 7919) % questions.length] ?? 'question';
    const words = base.split(' ');
    if (i % 3 === 0 && words.length > 3) words.splice(i % words.length, 1);
    return {
      at: now - 30 * 86_400_000 + Math.floor((i / count) * 30 * 86_400_000),
      userId: `u${i % 5000}`,
      channel: 'API',
      question: `${words.join(' ')}${suffixes[i % suffixes.length]}`,
      answerType: i % 2 === 0 ? 'RECOMMEND' : 'BESTMATCH',
      module: i % 2 === 0 ? 'KB' : 'NONE',
      score: i % 2 === 0 ? 0.5 : 0,
      ruleId: null,
      recommended: i % 2 === 0 ? ['r1', 'r2', 'r3'] : [],
      version: null,
      source: 'api',
      chosenFrom: null,
      menuEntry: null,
    };
  });
}

export async function inboxTime(questions: readonly string[]) {
  const dataDir = makeDataDir('bench-inbox');
  const now = Date.now();
  const repository = new DayFileLog({ dataDir, logger: silentLogger, flushMs: 60_000 });
  try {
    const log = new QuestionLog({
      repository,
      now: () => now,
      logger: silentLogger,
      robot: () => ({
        retentionDays: 90,
        maxBytes: 1e12,
        lowScore: 0.97,
        evidenceScore: 0.7,
        margin: 0.1,
      }),
    });
    const robot = { tenantId: 1, robotId: 'r' };
    // Recorded as asks are, a turn of 1000 at a time: the inbox's groups are kept as they come.
    let turn = 0;
    for (const entry of missedEntries(questions, 100_000, now)) {
      log.record(robot, entry, null);
      if (++turn % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await repository.flush();
    const names = async () => new Map<string, string>();
    await log.inbox(robot, 50, names); // warm-up: code paths and the stemmer's cache
    const samples: number[] = [];
    let groups = 0;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      groups = (await log.inbox(robot, 1000, names)).length;
      samples.push(performance.now() - start);
    }
    return { inboxGroup100kMs: [...samples].sort((a, b) => a - b)[1] ?? Number.NaN, groups };
  } finally {
    await repository.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function recordMicros(): Promise<number> {
  const dataDir = makeDataDir('bench-record');
  const repository = new DayFileLog({ dataDir, logger: silentLogger });
  const log = new QuestionLog({
    repository,
    now: Date.now,
    logger: silentLogger,
    robot: () => ({
      retentionDays: 90,
      maxBytes: 1e12,
      lowScore: 0.97,
      evidenceScore: 0.7,
      margin: 0.1,
    }),
  });
  const items = [1, 2, 3, 4, 5].map((i) => ({
    ruleId: `0190c0de-0000-7000-8000-00000000000${i}`,
    question: `How do I reset the card number ${i}`,
    score: 0.5,
  }));
  const robot = { tenantId: 1, robotId: 'default' };
  const samples: number[] = [];
  try {
    for (let round = 0; round < 5; round++) {
      const count = 100_000;
      const start = performance.now();
      for (let i = 0; i < count; i++) {
        // The asks of a turn are recorded right after it: a turn of 16 asks (the load's
        // connections), then the turn's end.
        if (i % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
        log.record(
          robot,
          {
            at: Date.now(),
            userId: `user-${i % 100}`,
            channel: 'API',
            question: `how do I reset my card ${i % 1000}`,
            answerType: 'RECOMMEND',
            module: 'KB',
            score: 0.5,
            ruleId: null,
            recommended: items.map((item) => item.ruleId),
            version: null,
            source: 'api',
            chosenFrom: null,
            menuEntry: null,
          },
          items,
        );
      }
      await new Promise((resolve) => setImmediate(resolve));
      samples.push(((performance.now() - start) * 1000) / count);
      await repository.flush();
    }
  } finally {
    await log.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return [...samples].sort((a, b) => a - b)[2] ?? Number.NaN;
}

export async function measureQuestionLog(deps: QuestionLogBenchDeps): Promise<QuestionLogFigures> {
  const ratio = await askRatio(deps);
  const inbox = await inboxTime(deps.questions);
  const logRecordUs = await recordMicros();
  return {
    logRecordUs,
    askLogRatio: ratio.logOnRps / ratio.logOffRps,
    askLogCpuRatio: ratio.cpuUsPerAskOff / ratio.cpuUsPerAskOn,
    cpuUsPerAskOn: ratio.cpuUsPerAskOn,
    cpuUsPerAskOff: ratio.cpuUsPerAskOff,
    logOnRps: ratio.logOnRps,
    logOffRps: ratio.logOffRps,
    logBytesPerMillionAsks: ratio.logBytesPerMillionAsks,
    inboxGroup100kMs: inbox.inboxGroup100kMs,
    inboxGroups: inbox.groups,
  };
}
