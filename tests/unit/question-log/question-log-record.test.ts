/**
 * Recording queues the entry in the ask's turn and records the turn's asks right after it: a
 * reader sees them at once all the same, a user's next question still finds their RECOMMEND,
 * and a failure to record is logged instead of ending the process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Logger } from '../../../electron/service/logger';
import { silentLogger } from '../../../electron/service/logger';
import { QuestionLog } from '../../../electron/service/question-log/question-log';
import { DayFileLog } from '../../../electron/service/store/embedded/question-log/day-file-log';
import { loggedQuestion } from '../../helpers/logged-question';

const T0 = Date.UTC(2026, 0, 1, 8);
const robot = { tenantId: 1, robotId: 'default' };
const settings = () => ({
  retentionDays: 90,
  maxBytes: 1e9,
  lowScore: 0.9,
  evidenceScore: 0.7,
  margin: 0.1,
});
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Every entry the store holds, oldest first. */
async function stored(repository: DayFileLog): Promise<string[]> {
  const questions: string[] = [];
  for await (const slice of repository.slices('1/default', 0, Number.MAX_SAFE_INTEGER)) {
    questions.push(...slice.map((entry) => entry.question));
  }
  return questions;
}

const recommend = { answerType: 'RECOMMEND' as const, ruleId: null, recommended: ['r1', 'r2'] };
const items = [
  { ruleId: 'r1', question: 'How do I reset my card?', score: 0.6 },
  { ruleId: 'r2', question: 'How do I block my card?', score: 0.5 },
];

function withLog(run: (log: QuestionLog, repository: DayFileLog) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-record-'));
    const repository = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
    const log = new QuestionLog({
      repository,
      now: () => T0,
      logger: silentLogger,
      robot: settings,
    });
    try {
      await run(log, repository);
    } finally {
      await log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'a reader sees the asks of the current turn, a choice from a RECOMMEND included',
  withLog(async (log) => {
    log.record(robot, loggedQuestion(T0, 'card trouble', recommend), items);
    log.record(robot, loggedQuestion(T0 + 1, 'how do i block my card? ', { ruleId: 'r2' }), null);
    const page = await log.page(robot, { offset: 0, limit: 10 });
    assert.deepEqual(
      page.entries.map((entry) => [entry.question, entry.chosenFrom]),
      [
        ['how do i block my card? ', 'card trouble'],
        ['card trouble', null],
      ],
    );
  }),
);

test(
  'the asks of a turn reach the store once the turn has ended, in their order',
  withLog(async (log, repository) => {
    await log.page(robot, { offset: 0, limit: 1 }); // the log opened
    for (let i = 0; i < 5; i++) log.record(robot, loggedQuestion(T0 + i, `q${i}`), null);
    assert.deepEqual(await stored(repository), []);
    await nextTurn();
    assert.deepEqual(await stored(repository), ['q0', 'q1', 'q2', 'q3', 'q4']);
    // A user's next question, in a later turn, still finds their RECOMMEND.
    log.record(robot, loggedQuestion(T0 + 10, 'card trouble', recommend), items);
    await nextTurn();
    log.record(robot, loggedQuestion(T0 + 11, 'How do I reset my card?', { ruleId: 'r1' }), null);
    const [latest] = (await log.page(robot, { offset: 0, limit: 1 })).entries;
    assert.equal(latest?.chosenFrom, 'card trouble');
  }),
);

test('an entry that cannot be recorded is logged as an error; the others are recorded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-record-'));
  const repository = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
  const errors: string[] = [];
  const logger: Logger = { ...silentLogger, error: (message) => errors.push(message) };
  const log = new QuestionLog({ repository, now: () => T0, logger, robot: settings });
  const append = repository.append.bind(repository);
  repository.append = (key, entry, figures) => {
    if (entry.question === 'poison') throw new Error('cannot append');
    append(key, entry, figures);
  };
  try {
    log.record(robot, loggedQuestion(T0, 'before'), null);
    log.record(robot, loggedQuestion(T0 + 1, 'poison'), null);
    log.record(robot, loggedQuestion(T0 + 2, 'after'), null);
    // Recorded while the log opens (then appended once it is open), and once it is open.
    await log.page(robot, { offset: 0, limit: 1 });
    log.record(robot, loggedQuestion(T0 + 3, 'poison'), null);
    log.record(robot, loggedQuestion(T0 + 4, 'last'), null);
    await nextTurn();
    assert.deepEqual(errors, [
      'could not record a question in the log',
      'could not record a question in the log',
    ]);
    assert.deepEqual(await stored(repository), ['before', 'after', 'last']);
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('changed budgets whose pass failed are tried again at the next check, not left till the hourly pass', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-budgets-'));
  const repository = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
  let maxBytes = 1e9;
  const passes: number[] = [];
  let failNext = false;
  let secondTry: () => void = () => undefined;
  const tried = new Promise<void>((resolve) => (secondTry = resolve));
  const enforce = repository.enforceRetention.bind(repository);
  // A purge that fails once, as one past the database's statement timeout does.
  repository.enforceRetention = async (log, keepFrom, bytes) => {
    passes.push(bytes);
    if (bytes === 5e8 && failNext) {
      failNext = false;
      throw new Error('canceling statement due to statement timeout');
    }
    if (bytes === 5e8) secondTry();
    return enforce(log, keepFrom, bytes);
  };
  const log = new QuestionLog({
    repository,
    now: () => T0,
    logger: silentLogger,
    robot: () => ({ ...settings(), maxBytes }),
    budgetCheckMs: 5,
  });
  try {
    log.record(robot, loggedQuestion(T0, 'card trouble', { ruleId: 'r1' }), null);
    await log.page(robot, { offset: 0, limit: 10 });
    failNext = true;
    maxBytes = 5e8;
    const bound = setTimeout(() => secondTry(), 20_000);
    await tried;
    clearTimeout(bound);
    assert.deepEqual(
      passes.filter((bytes) => bytes === 5e8).length >= 2,
      true,
      `the changed budget was tried again: ${JSON.stringify(passes)}`,
    );
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
