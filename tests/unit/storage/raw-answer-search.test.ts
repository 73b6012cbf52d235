/**
 * The embedded store keeps an answer once (decision 200): an answer whose text key a `LIKE` on
 * itself finds exactly is left out of the rule's search text, and the text filter finds it in the
 * answer column. The filter's results stay those of the text key over name, phrasings and answer
 * (a reference computed here), for answers left out and kept, for keys of one and several words;
 * and after a restart (the snapshot and the journal's replay keep the same rows).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { normalizeText } from '../../../electron/service/matching/normalize';
import type { Store } from '../../../electron/service/store/embedded/database';
import { EmbeddedStore } from '../../../electron/service/store/embedded/embedded-store';
import type { RuleFilter } from '../../../electron/service/store/contract/records';
import { storeRule } from '../../helpers/node-memory';

/** Answers left out (plain) and kept (traditional script, full width, accents, contractions). */
const ANSWERS = [
  '请在设置页面点击“重置密码”，然后按提示操作。',
  'Reset your password: open Settings, then Security.',
  'Open the APP and tap Account -> Password (reset).',
  '退貨請聯繫客服，七天內免運費。',
  'Ｗｉ－Ｆｉ密码在路由器背面',
  'Café hours: 8-18, CAFÉ closed on Sunday.',
  "You can't reset it twice; don't worry.",
  '发票 开具 invoice_2024 在“订单”中下载',
  '答'.repeat(300),
];

const KEYS = [
  '重置密码',
  '重置 密码',
  'reset',
  'RESET your',
  'your password',
  'password open',
  'settings then security',
  'account password',
  'password reset',
  // Found as a candidate (both words, in order), refused by the key: a word lies between.
  'reset password',
  'app',
  '退货',
  '联系客服',
  'wi fi',
  'wi-fi密码',
  'cafe',
  'cafe hours',
  'can not',
  "don't",
  'invoice 2024',
  '开具 invoice',
  '订单 中',
  '答答答',
  'nowhere',
  // A candidate too: the two words touch in the answer's key, with no space between.
  '设置 页面',
  'then as',
];

let dir: string;
let store: EmbeddedStore;
const robot = { tenantId: 0, robotId: 'default' };

const filter = (text: string): RuleFilter => ({
  offset: 0,
  limit: 100,
  text,
  now: 0,
  sort: 'created',
  descending: false,
});

/** The rules whose name, phrasings or answer has `text`'s key in its own key. */
function expected(text: string): string[] {
  const key = normalizeText(text);
  return ANSWERS.flatMap((answer, i) => {
    const fields = [`r${i}`, `question ${i}`, answer].map(normalizeText);
    return fields.some((field) => field.includes(key)) ? [`r${i}`] : [];
  });
}

async function found(text: string): Promise<string[]> {
  const { rows, total } = await store.rules.query(robot, filter(text));
  assert.equal(total, rows.length);
  return rows.map((rule) => rule.ruleId);
}

async function open(): Promise<void> {
  store = await EmbeddedStore.open({ dataDir: dir, logger: silentLogger, textKey: normalizeText });
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kbstudio-raw-answers-'));
  await open();
  robot.tenantId = await store.tenants.register({
    tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: 0 },
    admin: { userId: 'u1', username: 'a', usernameKey: 'a', passwordHash: 'x', role: 'ADMIN' },
    robot: { robotId: 'default', name: 'R', secret: 's1', settingsJson: '{}', createdAt: 0 },
  });
  await store.rules.insert(
    robot,
    ANSWERS.map((answer, i) => storeRule(`r${i}`, `question ${i}`, answer)),
    0,
    'tester',
  );
});

after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a plain answer is not repeated in the search text; one the key changes is', () => {
  const db = (store as unknown as { db: Store }).db;
  const rows = db.all<{ rule_id: string; search_text: string; answer: string }>(
    'SELECT rule_id, search_text, answer FROM rules ORDER BY rule_seq',
  );
  const keyed = (id: string) => {
    const row = rows.find((r) => r.rule_id === id);
    assert.ok(row);
    return row.search_text.includes(normalizeText(row.answer));
  };
  // Simplified Chinese with punctuation, English with capitals, a long answer: left out.
  for (const id of ['r0', 'r1', 'r2', 'r7', 'r8']) assert.equal(keyed(id), false, id);
  // Traditional script, full width, accents, contractions: kept, keyed.
  for (const id of ['r3', 'r4', 'r5', 'r6']) assert.equal(keyed(id), true, id);
});

test('the text filter finds what the text key finds, in answers left out and kept', async () => {
  for (const text of KEYS) assert.deepEqual(await found(text), expected(text), text);
});

test('an edited answer moves between the two forms, and the filter follows', async () => {
  const [rule] = await store.rules.findMany(robot, ['r3']);
  assert.ok(rule);
  await store.rules.update(
    robot,
    'r3',
    { ...rule, answer: '退货请联系客服，七天内免运费。' },
    1,
    't',
  );
  assert.deepEqual(await found('联系客服'), ['r3']);
  await store.rules.update(robot, 'r3', { ...rule, answer: ANSWERS[3] as string }, 2, 't');
  assert.deepEqual(await found('联系客服'), expected('联系客服'));
});

test('after a restart (snapshot and journal) the filter finds the same rules', async () => {
  await store.close();
  await open();
  for (const text of KEYS) assert.deepEqual(await found(text), expected(text), text);
});
