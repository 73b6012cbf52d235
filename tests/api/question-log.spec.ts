import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ConsoleRobot, TryResult } from '../../electron/service/console-types';
import type {
  Dashboard,
  InboxAddResult,
  InboxGroup,
  QuestionLogPage,
  RuleAnalytics,
  RuleAnalyticsPage,
  RuleHits,
} from '../../electron/service/question-log-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';
import { onPostgres } from '../helpers/test-store';

const DAY = 86_400_000;
const RULES = [
  ruleInput('reset password', ['How do I reset my password']),
  ruleInput('reset pin', ['How do I reset my card PIN']),
  ruleInput('opening hours', ['What are your opening hours']),
  ruleInput('delivery', ['How long does delivery take']),
];

/** A service on a clock the test moves, with one robot holding RULES. */
async function setUp(clock: { now: number }) {
  const h = await startTestService({ now: () => clock.now });
  const api = consoleClient(h.service.url, h.service.consoleToken);
  const { tenantId, robot } = await registerTenantWithRobot(h.client);
  const { succeed } = await robot.importRules(RULES);
  assert.equal(succeed.length, RULES.length);
  return { h, api, tenantId, robot, R: `/tenants/${tenantId}/robots/default` };
}

const logOf = (api: ReturnType<typeof consoleClient>, R: string, query = '') =>
  api.ok<QuestionLogPage>('GET', `${R}/question-log${query}`);

describe('question log (console API over HTTP)', () => {
  const clock = { now: Date.UTC(2026, 10, 2, 9) };
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  before(async () => {
    ({ h, api, robot, R } = await setUp(clock));
  });
  after(() => h.close());

  test('every ask is logged with every field, the try pane marked as such', async () => {
    await robot.ask('How do I reset my password', 'user-1');
    await robot.ask('how do I reset', 'user-2');
    await robot.ask('can you tell me about the weather', 'user-3');
    await api.ok<TryResult>('POST', `${R}/try`, { question: 'What are your opening hours' });
    const { entries, total } = await logOf(api, R);
    assert.equal(total, 4);
    const [tried, fallback, recommended, answered] = entries;
    assert.deepEqual(Object.keys(answered ?? {}).sort(), [
      'answerType',
      'at',
      'channel',
      'chosenFrom',
      'menuEntry',
      'module',
      'question',
      'recommended',
      'ruleId',
      'score',
      'source',
      'userId',
      'version',
    ]);
    assert.deepEqual(
      { ...answered, ruleId: typeof answered?.ruleId },
      {
        at: clock.now,
        userId: 'user-1',
        channel: 'API',
        question: 'How do I reset my password',
        answerType: 'BESTMATCH',
        module: 'KB',
        score: 1,
        ruleId: 'string',
        recommended: [],
        version: null,
        source: 'api',
        chosenFrom: null,
        menuEntry: null,
      },
    );
    assert.equal(recommended?.answerType, 'RECOMMEND');
    assert.equal(recommended?.ruleId, null);
    assert.equal(recommended?.recommended.length, 2);
    assert.ok((recommended?.score ?? 0) > 0);
    assert.equal(fallback?.module, 'NONE');
    assert.equal(fallback?.score, 0);
    assert.deepEqual(fallback?.recommended, []);
    assert.equal(tried?.source, 'try');
    assert.equal(tried?.channel, 'TRY');
    assert.equal(tried?.userId, 'editor');
    // Filters.
    assert.equal((await logOf(api, R, '?source=try')).total, 1);
    assert.equal((await logOf(api, R, '?outcome=fallback')).total, 1);
    assert.equal((await logOf(api, R, '?q=weather')).entries[0]?.userId, 'user-3');
    assert.equal((await logOf(api, R, '?limit=1&offset=1')).entries[0]?.userId, 'user-3');
  });

  test('the log survives a restart (flushed at stop) and is exported as CSV', async () => {
    await h.restart();
    api = consoleClient(h.service.url, h.service.consoleToken);
    assert.equal((await logOf(api, R)).total, 4);
    const response = await fetch(`${h.service.url}/console/api${R}/question-log/export.csv`, {
      headers: { authorization: `Bearer ${h.service.consoleToken}` },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
    const lines = (await response.text())
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    assert.equal(
      lines[0],
      'time,userId,channel,source,question,answerType,module,score,ruleId,recommended,version,chosenFrom,menuEntry',
    );
    assert.equal(lines.length, 5);
    assert.match(
      lines[1] ?? '',
      /^2026-11-02T09:00:00.000Z,user-1,API,api,How do I reset my password,BESTMATCH,KB,1,/,
    );
  });

  test('bad queries are refused naming the field', async () => {
    const { status, body } = await api.call('GET', `${R}/question-log?outcome=maybe`);
    assert.equal(status, 400);
    assert.equal(body.code, 'invalid-field');
    const limit = await api.call('GET', `${R}/question-log?limit=5000`);
    assert.equal(limit.status, 400);
    const lone = await api.call('POST', `${R}/inbox/dismiss`, { keys: ['a\ud800'] });
    assert.equal(lone.status, 400);
    assert.equal(lone.body.code, 'invalid-field');
  });

  test('clear empties the log', async () => {
    assert.deepEqual(await api.ok('POST', `${R}/question-log/clear`), { removed: 4 });
    assert.equal((await logOf(api, R)).total, 0);
  });
});

/** The embedded log's segment files (their indexes apart). */
const lines = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort();

describe('question log retention', () => {
  test('entries older than the robot’s retention are removed, whole days at a time', async () => {
    const clock = { now: Date.UTC(2026, 0, 10, 12) };
    const { h, api, robot, R } = await setUp(clock);
    try {
      await robot.ask('How long does delivery take', 'u');
      clock.now += 5 * DAY;
      await robot.ask('What are your opening hours', 'u');
      await api.ok<ConsoleRobot>('PATCH', R, { settings: { logRetentionDays: 3 } });
      // Hidden at once from reads; the file goes once the new budgets are applied (soon after
      // the change, and at every start: a read after a start waits for its log's first pass).
      assert.equal((await logOf(api, R)).total, 1);
      await h.restart();
      const again = consoleClient(h.service.url, h.service.consoleToken);
      const { entries } = await logOf(again, R);
      assert.deepEqual(
        entries.map((e) => e.question),
        ['What are your opening hours'],
      );
      // The embedded log's segment files (a team server keeps the log in a table: the same reads).
      const dir = join(h.dataDir, 'question-log', String(R.split('/')[2]), 'default');
      if (!onPostgres) assert.deepEqual(lines(dir), ['2026-01-15-0000.jsonl']);
      // The default is 90 days.
      await again.ok<ConsoleRobot>('PATCH', R, { settings: { logRetentionDays: null } });
      const robotView = await again.ok<ConsoleRobot>('PATCH', R, {});
      assert.equal(robotView.settings.logRetentionDays, 90);
    } finally {
      await h.close();
    }
  });

  test('a log over its maximum size loses its oldest days', async () => {
    const clock = { now: Date.UTC(2026, 0, 1, 12) };
    const { h, api, robot, R } = await setUp(clock);
    try {
      for (let day = 0; day < 3; day++) {
        for (let i = 0; i < 5; i++) await robot.ask(`question ${day} ${i}`, 'u');
        clock.now += DAY;
      }
      await api.ok<ConsoleRobot>('PATCH', R, { settings: { logMaxMegabytes: 1 } });
      await h.restart();
      const api2 = consoleClient(h.service.url, h.service.consoleToken);
      assert.equal((await logOf(api2, R)).total, 15, 'well under 1 MB: nothing goes');
      const dir = join(h.dataDir, 'question-log', String(R.split('/')[2]), 'default');
      if (!onPostgres) assert.ok(existsSync(join(dir, '2026-01-01-0000.jsonl')));
    } finally {
      await h.close();
    }
  });
});

describe('inbox of missed questions', () => {
  const clock = { now: Date.UTC(2026, 10, 2, 9) };
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  before(async () => {
    ({ h, api, robot, R } = await setUp(clock));
  });
  after(() => h.close());

  const inbox = () => api.ok<{ groups: InboxGroup[] }>('GET', `${R}/inbox`);

  test('groups similar missed questions, most frequent first, with counts and examples', async () => {
    await robot.ask('is there a student discount', 'a');
    await robot.ask('Is there a student discount?', 'b');
    await robot.ask('is there a student discount today', 'c');
    await robot.ask('can you tell me about the weather', 'd');
    await robot.ask('How do I reset my password', 'e'); // answered: not in the inbox
    await api.ok('POST', `${R}/try`, { question: 'is there a student discount' }); // the editor's own
    const { groups } = await inbox();
    assert.equal(groups.length, 2);
    const [parcel, weather] = groups;
    assert.equal(parcel?.count, 3);
    assert.equal(parcel?.key, 'is there a student discount');
    assert.deepEqual(parcel?.examples, [
      { question: 'is there a student discount', count: 2 },
      { question: 'is there a student discount today', count: 1 },
    ]);
    assert.deepEqual(parcel?.outcomes, { fallback: 3, recommended: 0, lowScore: 0 });
    assert.equal(parcel?.suggestedRuleId, null);
    assert.equal(weather?.count, 1);
  });

  test('adding the questions as phrasings makes the same question BESTMATCH and handles the group', async () => {
    const before = await robot.ask('is there a student discount', 'f');
    assert.equal(before.module, 'NONE');
    const rules = await robot.listRules(0, 10);
    const delivery = rules.list.find((rule) => rule.ruleName === 'delivery');
    assert.ok(delivery);
    const added = await api.ok<InboxAddResult>('POST', `${R}/inbox/add-phrasings`, {
      key: 'is there a student discount',
      ruleId: delivery.ruleId,
      questions: ['is there a student discount', 'is there a student discount today'],
    });
    assert.deepEqual(added, {
      ruleId: delivery.ruleId,
      added: ['is there a student discount', 'is there a student discount today'],
      present: [],
      notFitting: [],
    });
    const after = await robot.ask('is there a student discount', 'g');
    assert.equal(after.answerType, 'BESTMATCH');
    assert.equal(after.module, 'KB');
    assert.equal(after.answer, 'Answer for delivery');
    const { groups } = await inbox();
    assert.deepEqual(
      groups.map((g) => g.key),
      ['can you tell me about the weather'],
    );
  });

  test('the 10-phrasing limit: what does not fit is said, and the group stays', async () => {
    const rules = await robot.listRules(0, 10);
    const hours = rules.list.find((rule) => rule.ruleName === 'opening hours');
    assert.ok(hours);
    const many = Array.from({ length: 11 }, (_, i) => `when do you open on day ${i}`);
    const result = await api.ok<InboxAddResult>('POST', `${R}/inbox/add-phrasings`, {
      key: 'can you tell me about the weather',
      ruleId: hours.ruleId,
      questions: ['What are your opening hours', ...many],
    });
    assert.deepEqual(result.present, ['What are your opening hours']);
    assert.equal(result.added.length, 9);
    assert.deepEqual(result.notFitting, many.slice(9));
    assert.equal((await robot.getRule(hours.ruleId)).questions.length, 10);
    assert.equal((await inbox()).groups.length, 1);
    const unknown = await api.call('POST', `${R}/inbox/add-phrasings`, {
      key: 'x',
      ruleId: 'no-such-rule',
      questions: ['x'],
    });
    assert.equal(unknown.status, 404);
  });

  test('dismissed groups leave; a new occurrence comes back only after 30 days', async () => {
    assert.deepEqual(
      await api.ok('POST', `${R}/inbox/dismiss`, { keys: ['can you tell me about the weather'] }),
      { dismissed: 1 },
    );
    assert.equal((await inbox()).groups.length, 0);
    clock.now += 10 * DAY;
    await robot.ask('Can you tell me about the weather', 'h');
    assert.equal((await inbox()).groups.length, 0);
    clock.now += 21 * DAY;
    await robot.ask('can you tell me about the weather?', 'i');
    const { groups } = await inbox();
    assert.equal(groups.length, 1);
    assert.equal(groups[0]?.count, 1);
  });

  test('a new rule from a group', async () => {
    await robot.ask('do you sell gift cards', 'j');
    const created = await api.ok<{ ruleId: string }>('POST', `${R}/inbox/new-rule`, {
      key: 'do you sell gift cards',
      ruleName: 'gift cards',
      questions: ['do you sell gift cards'],
      answer: 'Yes, in every shop.',
    });
    assert.equal((await robot.ask('do you sell gift cards', 'k')).answer, 'Yes, in every shop.');
    assert.equal((await robot.getRule(created.ruleId)).ruleName, 'gift cards');
    assert.ok(!(await inbox()).groups.some((g) => g.key === 'do you sell gift cards'));
  });
});

describe('click feedback and rule analytics', () => {
  const clock = { now: Date.UTC(2026, 10, 2, 9) };
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  before(async () => {
    ({ h, api, robot, R } = await setUp(clock));
  });
  after(() => h.close());

  test('a recommended question asked next by the same user is recorded as the choice, and offered first', async () => {
    await robot.ask('can you tell me about the weather', 'other');
    await robot.ask('can you tell me about the weather', 'other');
    const offered = await robot.ask('how do I reset', 'clicker');
    assert.equal(offered.answerType, 'RECOMMEND');
    const pick = offered.items?.find((item) => item.question === 'How do I reset my card PIN');
    assert.ok(pick);
    clock.now += 60_000;
    // Another user asking the same is no choice; nor is the chooser after the window.
    await robot.ask('How do I reset my card PIN', 'someone-else');
    await robot.ask('How do I reset my card PIN', 'clicker');
    const { entries } = await logOf(api, R, '?q=clicker');
    assert.equal(entries[0]?.chosenFrom, 'how do I reset');
    assert.equal(entries[0]?.ruleId, pick.ruleId);
    const others = await logOf(api, R, '?q=someone-else');
    assert.equal(others.entries[0]?.chosenFrom, null);

    await robot.ask('how do I reset', 'late');
    clock.now += 6 * 60_000;
    await robot.ask('How do I reset my card PIN', 'late');
    assert.equal((await logOf(api, R, '?q=late')).entries[0]?.chosenFrom, null);

    const { groups } = await api.ok<{ groups: InboxGroup[] }>('GET', `${R}/inbox`);
    assert.equal(groups[0]?.key, 'how do i reset', 'the group with a choice comes first');
    assert.equal(groups[0]?.count, 2);
    assert.deepEqual(groups[0]?.chosen, [{ ruleId: pick.ruleId, ruleName: 'reset pin', count: 1 }]);
    assert.equal(groups[0]?.suggestedRuleId, pick.ruleId);
    assert.equal(groups[0]?.suggestedRuleName, 'reset pin');
    assert.equal(groups[1]?.count, 2);
  });

  test('hits per rule, last hit, never hit, confusable pairs, expiring rules', async () => {
    const hits = await api.ok<{ rules: RuleHits[] }>('GET', `${R}/rule-hits`);
    const pin = hits.rules.find((rule) => rule.hits > 0);
    assert.equal(pin?.hits, 3);
    assert.equal(pin?.chosen, 1);
    assert.equal(pin?.lastHit, clock.now);
    await robot.ask('How do I reset my card PIN', 'x');
    const after = await api.ok<{ rules: RuleHits[] }>('GET', `${R}/rule-hits`);
    assert.equal(after.rules.find((rule) => rule.ruleId === pin?.ruleId)?.hits, 4);

    const rules = await robot.listRules(0, 10);
    const hours = rules.list.find((rule) => rule.ruleName === 'opening hours');
    assert.ok(hours);
    await api.ok('PATCH', `${R}/rules/${hours.ruleId}`, {
      effectEndDate: new Date(clock.now + 10 * DAY).toISOString().replace('Z', '+00:00'),
    });
    const analytics = await api.ok<RuleAnalytics>('GET', `${R}/analytics`);
    assert.equal(analytics.rules.length, 4);
    assert.equal(analytics.neverHit.length, 3);
    assert.ok(analytics.neverHit.includes(hours.ruleId));
    assert.equal(analytics.confusable.length, 1);
    assert.equal(analytics.confusable[0]?.count, 2);
    assert.deepEqual(
      analytics.expiring.map((rule) => rule.ruleId),
      [hours.ruleId],
    );
    assert.equal(analytics.hitsByDay[0]?.ruleId, pin?.ruleId);
    assert.deepEqual(analytics.hitsByDay[0]?.days, [{ day: '2026-11-02', hits: 4 }]);
  });

  test('rule analytics in pages: the rules of each page, the pairs and hits per day of the robot (decision 118)', async () => {
    const whole = await api.ok<RuleAnalytics>('GET', `${R}/analytics`);
    const first = await api.ok<RuleAnalyticsPage>('GET', `${R}/analytics?limit=3`);
    const second = await api.ok<RuleAnalyticsPage>('GET', `${R}/analytics?offset=3&limit=3`);
    assert.equal(first.total, 4);
    assert.equal(second.total, 4);
    assert.deepEqual([...first.rules, ...second.rules], whole.rules, 'in creation order');
    assert.equal(second.rules.length, 1);
    assert.deepEqual([...first.neverHit, ...second.neverHit], whole.neverHit);
    assert.deepEqual([...first.expiring, ...second.expiring], whole.expiring);
    for (const page of [first, second]) {
      assert.deepEqual(page.confusable, whole.confusable);
      assert.deepEqual(page.hitsByDay, whole.hitsByDay);
    }
    const past = await api.ok<RuleAnalyticsPage>('GET', `${R}/analytics?offset=10&limit=3`);
    assert.deepEqual([past.rules, past.neverHit, past.total], [[], [], 4]);
    const refused = await api.call('GET', `${R}/analytics?limit=0`);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'invalid-paging');
  });

  test('the dashboard counts questions per day by outcome, and the top questions', async () => {
    const board = await api.ok<Dashboard>('GET', `${R}/dashboard?days=7`);
    assert.equal(board.days.length, 7);
    const today = board.days.at(-1);
    assert.deepEqual(today, {
      day: '2026-11-02',
      total: 8,
      answered: 4,
      recommended: 2,
      fallback: 2,
      chat: 0,
      menu: 0,
    });
    assert.deepEqual(board.days[0], {
      day: '2026-10-27',
      total: 0,
      answered: 0,
      recommended: 0,
      fallback: 0,
      chat: 0,
      menu: 0,
    });
    assert.deepEqual(board.topQuestions[0], { question: 'How do I reset my card PIN', count: 4 });
    assert.deepEqual(
      board.topMissed.map((q) => q.count),
      [2, 2],
    );
  });
});
