/**
 * A robot's rules read in pages (`facts`, `questions`) wait, page by page, for a batch written
 * in steps to end: a page read inside the batch's open transaction would list rows its rollback
 * then takes back, and whole rule analytics keeps that list until the store's next write
 * (decision 168).
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
import { nextTurn } from '../../../electron/service/time-slices';
import { storeRule } from '../../helpers/node-memory';

// More than one page (500 rules), so that the read has a turn between pages.
const RULES = 620;
let dir: string;
let store: EmbeddedStore;
let robot: { tenantId: number; robotId: string };

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kbstudio-rule-pages-'));
  store = await EmbeddedStore.open({ dataDir: dir, logger: silentLogger, textKey: normalizeText });
  const tenantId = await store.tenants.register({
    tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: 0 },
    admin: { userId: 'u1', username: 'a', usernameKey: 'a', passwordHash: 'x', role: 'ADMIN' },
    robot: { robotId: 'default', name: 'R', secret: 's1', settingsJson: '{}', createdAt: 0 },
  });
  robot = { tenantId, robotId: 'default' };
  const rules = Array.from({ length: RULES }, (_, i) => storeRule(`r${i}`, `question ${i}`));
  await store.rules.insert(robot, rules, 0, 'tester');
});

after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a page read after a batch began waits for its rollback and lists none of its rows', async () => {
  const db = (store as unknown as { db: Store }).db;
  // The first page is read as the call is made; the batch opens before the second page.
  const facts = store.rules.facts(robot);
  const batch = db.writeInSteps(async (tx) => {
    tx.run('UPDATE rules SET rule_name = ? WHERE rule_id = ?', ['ghost', `r${RULES - 1}`]);
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    throw new Error('the batch fails');
  });
  await assert.rejects(batch, /the batch fails/);
  const names = (await facts).map((fact) => fact.ruleName);
  assert.equal(names.length, RULES);
  assert.ok(!names.includes('ghost'), 'a rolled-back name was listed');
  assert.equal(names[RULES - 1], `r${RULES - 1}`);
});
