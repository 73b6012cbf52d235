/**
 * The embedded store keeps each answer once (decision 152): a rule's search text holds its name
 * and phrasings, and the editor's text filter keys the answer as it reads it (`kb_norm`, the
 * matcher's normalisation), so that answers are still found as the text key reads them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { normalizeText } from '../../../electron/service/matching/normalize';
import { EmbeddedStore } from '../../../electron/service/store/embedded/embedded-store';
import type { NewRule, RobotKey } from '../../../electron/service/store/contract/records';

const NOW = Date.UTC(2026, 10, 1);
/** Already its own text key (lower case, no punctuation): found as it is in the snapshot. */
const ANSWER = 'zebra crossings lemonade kiosk';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'search-text-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const open = () =>
  EmbeddedStore.open({ dataDir: dir, logger: silentLogger, textKey: normalizeText });

function rule(ruleId: string, name: string, answer: string): NewRule {
  return {
    ruleId,
    ruleName: name,
    nameKey: name,
    categoryId: '',
    active: true,
    allowSimGen: null,
    effectBegin: null,
    effectEnd: null,
    questions: [`${name}?`],
    answer,
    matchPolicy: 'similarity',
    negativeKeywords: [],
    menu: null,
    createdAt: NOW,
  };
}

async function withRobot(store: EmbeddedStore): Promise<RobotKey> {
  const tenantId = await store.tenants.register({
    tenant: { phoneNumber: '13800138000', mail: 'a@example.com', company: 'x', createdAt: NOW },
    admin: {
      userId: 'user-1',
      username: 'Admin_01',
      usernameKey: 'admin_01',
      role: 'ADMIN',
      passwordHash: 'scrypt$x',
    },
    robot: {
      robotId: 'default',
      name: 'Default robot',
      secret: 's'.repeat(43),
      settingsJson: '{}',
      createdAt: NOW,
    },
  });
  return { tenantId, robotId: 'default' };
}

const occurrences = (bytes: Buffer, text: string) => {
  let count = 0;
  for (let at = bytes.indexOf(text); at >= 0; at = bytes.indexOf(text, at + 1)) count++;
  return count;
};

test('an answer is stored once, and the text filter still finds it as the text key reads it', async () => {
  const store = await open();
  const robot = await withRobot(store);
  await store.rules.insert(robot, [rule('r-1', 'kiosk', ANSWER)], NOW, 'tester');
  const [edited] = await store.rules.insert(
    robot,
    [rule('r-2', 'tea', '退貨請在七天內申請')],
    NOW,
    't',
  );
  assert.ok(edited);
  await store.rules.update(robot, 'r-2', { ...edited, answer: '發票 ZEBRA Ｃrossings' }, NOW, 't');
  const names = async (text: string) => {
    const page = await store.rules.query(robot, {
      offset: 0,
      limit: 10,
      sort: 'created',
      descending: false,
      now: NOW,
      text,
    });
    return page.rows.map((r) => r.ruleName);
  };
  assert.deepEqual(await names('LEMONADE kiosk'), ['kiosk']);
  assert.deepEqual(await names('发票 zebra crossings'), ['tea'], 'an updated answer, keyed');
  assert.deepEqual(await names('zebra crossings'), ['kiosk', 'tea']);
  assert.deepEqual(await names('七天'), []);
  await store.close();
  // The answer in its column only, not again in the rule's search text.
  assert.equal(occurrences(readFileSync(join(dir, 'kb.sqlite')), ANSWER), 1);
});
