/**
 * A database of the previous version (free-text categories, no search text, no window times)
 * opened by this one: categories become managed ones with ids, windows get their times in ms,
 * rules get their search text, and nothing else changes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { normalizeText } from '../../../electron/service/matching/normalize';
import { Store } from '../../../electron/service/store/embedded/database';
import { EmbeddedStore } from '../../../electron/service/store/embedded/embedded-store';
import { MIGRATIONS } from '../../../electron/service/store/sql/migrations/index';

test('free-text categories become managed categories; windows and search text are filled', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kbstudio-migration-'));
  try {
    const old = await Store.open({
      dataDir,
      logger: silentLogger,
      migrations: MIGRATIONS.slice(0, 2),
    });
    old.write((tx) => {
      tx.run("INSERT INTO tenants VALUES (1, '13800138000', 'a@b.cn', 'c', 1)");
      tx.run("INSERT INTO robots VALUES (1, 'default', 'Default robot', 's', '{}', 1)");
      const rule = (seq: number, name: string, category: string, end: string | null) =>
        tx.run(
          `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, category_id, questions, answer, effect_end, created_at, updated_at)
           VALUES (?, ?, 1, 'default', ?, ?, ?, ?, 'A', ?, 1, 1)`,
          [seq, `id-${seq}`, name, name, category, JSON.stringify([`問題 ${name}`]), end],
        );
      rule(1, 'one', '售后', null);
      rule(2, 'two', ' 售后 ', '2030-01-01T08:00:00+08:00');
      rule(3, 'three', '物流', null);
      rule(4, 'four', '', null);
    });
    await old.close();

    const store = await EmbeddedStore.open({
      dataDir,
      logger: silentLogger,
      textKey: normalizeText,
    });
    const robot = { tenantId: 1, robotId: 'default' };
    const categories = await store.categories.list(robot);
    assert.deepEqual(
      categories.map((c) => [c.name, c.rules]),
      [
        ['售后', 2],
        ['物流', 1],
      ],
    );
    const idOf = (name: string) => categories.find((c) => c.name === name)?.categoryId;
    const byId = async (ruleId: string) => (await store.rules.find(robot, ruleId))?.categoryId;
    assert.equal(await byId('id-1'), idOf('售后'));
    assert.equal(await byId('id-2'), idOf('售后'), 'names equal once trimmed share a category');
    assert.equal(await byId('id-3'), idOf('物流'));
    assert.equal(await byId('id-4'), '');
    const filter = { offset: 0, limit: 10, sort: 'created' as const, descending: false };
    const expired = await store.rules.query(robot, {
      ...filter,
      now: Date.parse('2030-01-01T00:00:01Z'),
      state: 'expired',
    });
    assert.deepEqual(
      expired.rows.map((r) => r.ruleId),
      ['id-2'],
      'the window end in ms',
    );
    const found = await store.rules.query(robot, { ...filter, now: 0, text: '问题 three' });
    assert.deepEqual(
      found.rows.map((r) => r.ruleId),
      ['id-3'],
      'search text filled at open',
    );
    await store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
