/**
 * The inbox suggests a rule only when the evidence supports one (the rule users chose, or a
 * RECOMMEND whose first item is well ahead of the second for half the group), and the
 * dashboard's top missed questions are real misses only (the fallback, a RECOMMEND): a question
 * answered, however low its score, is none. Recorded through the real path (QuestionLog over
 * the embedded store).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { QuestionLog } from '../../../electron/service/question-log/question-log';
import { DayFileLog } from '../../../electron/service/store/embedded/question-log/day-file-log';
import { loggedQuestion } from '../../helpers/logged-question';

const T0 = Date.UTC(2026, 0, 1, 8);
const robot = { tenantId: 1, robotId: 'default' };
const NAMES = new Map([
  ['r-cod', '支持货到付款吗'],
  ['r-pay', '支付方式'],
  ['r-unbox', '开箱验货'],
  ['r-pin', 'reset pin'],
  ['r-card', 'block card'],
]);

/** A RECOMMEND of two items with these scores. */
function recommend(at: number, question: string, user: string, first: number, second: number) {
  const items = [
    { ruleId: 'r-first', question: 'first', score: first },
    { ruleId: 'r-second', question: 'second', score: second },
  ];
  return { items, at, question, user };
}

async function withLog(run: (log: QuestionLog) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kb-qlog-evidence-'));
  const repository = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
  const log = new QuestionLog({
    repository,
    now: () => T0 + 60_000,
    logger: silentLogger,
    // A robot of BESTMATCH threshold 0.94: low score under 0.97, evidence from 0.705.
    robot: () => ({
      retentionDays: 90,
      maxBytes: 1e9,
      lowScore: 0.97,
      evidenceScore: 0.705,
      margin: 0.1,
    }),
  });
  try {
    await run(log);
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = async (ruleIds: string[]) =>
  new Map(ruleIds.filter((id) => NAMES.has(id)).map((id) => [id, NAMES.get(id) ?? '']));

test('a RECOMMEND of close scores, a fallback or a barely matched rule suggests nothing', async () => {
  await withLog(async (log) => {
    // 数字人民币: listed 支持货到付款吗 first, barely ahead of 支付方式.
    for (let i = 0; i < 3; i++) {
      log.record(
        robot,
        loggedQuestion(T0 + i, '可以用数字人民币吗', {
          userId: `u${i}`,
          answerType: 'RECOMMEND',
          ruleId: null,
          score: 0.62,
          recommended: ['r-cod', 'r-pay'],
        }),
        [
          { number: 1, ruleId: 'r-cod', question: '支持货到付款吗', score: 0.62 },
          { number: 2, ruleId: 'r-pay', question: '支付方式', score: 0.6 },
        ].map(({ ruleId, question, score }) => ({ ruleId, question, score })),
      );
    }
    // 能开收据吗: answered by 开箱验货 at 0.96, under the robot's low score.
    log.record(
      robot,
      loggedQuestion(T0 + 10, '能开收据吗', { userId: 'v', ruleId: 'r-unbox', score: 0.96 }),
      null,
    );
    log.record(
      robot,
      loggedQuestion(T0 + 11, 'is there a student discount', {
        userId: 'w',
        module: 'NONE',
        ruleId: null,
        score: 0,
      }),
      null,
    );
    const groups = await log.inbox(robot, 50, names);
    assert.deepEqual(
      groups.map((group) => [group.examples[0]?.question, group.count, group.suggestedRuleId]),
      [
        ['可以用数字人民币吗', 3, null],
        ['is there a student discount', 1, null],
        ['能开收据吗', 1, null],
      ],
    );
  });
});

test('a clear first item suggests its rule; a rule users chose comes first', async () => {
  await withLog(async (log) => {
    // Clearly ahead (0.85 against 0.6): the matcher's own ranking points to reset pin.
    for (let i = 0; i < 2; i++) {
      const ask = recommend(T0 + i, 'how do i reset the pin code', `u${i}`, 0.85, 0.6);
      log.record(
        robot,
        loggedQuestion(ask.at, ask.question, {
          userId: ask.user,
          answerType: 'RECOMMEND',
          ruleId: null,
          score: 0.85,
          recommended: ['r-pin', 'r-card'],
        }),
        ask.items.map((item, n) => ({ ...item, ruleId: n === 0 ? 'r-pin' : 'r-card' })),
      );
    }
    // Listed close (0.72, 0.7), but the user chose block card from the list.
    const items = [
      { ruleId: 'r-pin', question: 'How do I reset my PIN', score: 0.72 },
      { ruleId: 'r-card', question: 'How do I block my card', score: 0.7 },
    ];
    log.record(
      robot,
      loggedQuestion(T0 + 10, 'my card is gone', {
        userId: 'x',
        answerType: 'RECOMMEND',
        ruleId: null,
        score: 0.72,
        recommended: ['r-pin', 'r-card'],
      }),
      items,
    );
    await new Promise((resolve) => setImmediate(resolve));
    log.record(
      robot,
      loggedQuestion(T0 + 20, 'How do I block my card', {
        userId: 'x',
        ruleId: 'r-card',
        score: 1,
      }),
      null,
    );
    const groups = await log.inbox(robot, 50, names);
    assert.deepEqual(
      groups.map((group) => [group.examples[0]?.question, group.suggestedRuleName]),
      [
        ['my card is gone', 'block card'],
        ['how do i reset the pin code', 'reset pin'],
      ],
    );
  });
});

test('top missed questions are the fallback and RECOMMEND ones only', async () => {
  await withLog(async (log) => {
    const answeredLow = { ruleId: 'r-unbox', score: 0.96 };
    for (let i = 0; i < 3; i++)
      log.record(robot, loggedQuestion(T0 + i, '能开收据吗', answeredLow), null);
    const fallback = { module: 'NONE' as const, ruleId: null, score: 0 };
    log.record(robot, loggedQuestion(T0 + 5, 'is there a student discount', fallback), null);
    const board = await log.dashboard(robot, 1);
    assert.deepEqual(board.topMissed, [{ question: 'is there a student discount', count: 1 }]);
    assert.deepEqual(board.topQuestions[0], { question: '能开收据吗', count: 3 });
    assert.equal(board.days.at(-1)?.total, 4);
  });
});
