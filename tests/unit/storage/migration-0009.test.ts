/**
 * A database written before migration 9 opened by this version: rules a rollback wrote back with
 * the search text "{}" (the fault of issue 29) are found again, and the versions the service
 * noted in English ("publish mode: review", "rollback to version 1") say it as facts instead.
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

test('rules damaged by an old rollback are searchable again; version notes become facts', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kbstudio-migration-'));
  try {
    const old = await Store.open({
      dataDir,
      logger: silentLogger,
      migrations: MIGRATIONS.slice(0, 7),
    });
    old.write((tx) => {
      tx.run(
        "INSERT INTO tenants (tenant_id, phone_number, mail, company, created_at) VALUES (1, '13800138000', 'a@b.cn', 'c', 1)",
      );
      tx.run(
        "INSERT INTO robots (tenant_id, robot_id, name, secret, settings, created_at) VALUES (1, 'default', '默认机器人', 's', '{}', 1)",
      );
      const rule = (seq: number, name: string, search: string) =>
        tx.run(
          `INSERT INTO rules (rule_seq, rule_id, tenant_id, robot_id, rule_name, name_key, category_id, questions, answer, created_at, updated_at, search_text)
           VALUES (?, ?, 1, 'default', ?, ?, '', ?, '七天无理由退货', 1, 1, ?)`,
          [seq, `id-${seq}`, name, name, JSON.stringify([`怎么${name}`]), search],
        );
      rule(1, '退货政策', '{}');
      rule(2, '运费', '运费\n怎么运费\n七天无理由退货');
      const version = (v: number, note: string, author: string, back: number | null) =>
        tx.run(
          `INSERT INTO versions (tenant_id, robot_id, version, note, author, created_at, rules, added, changed, removed, rolled_back_to)
           VALUES (1, 'default', ?, ?, ?, 1, 2, 0, 0, 0, ?)`,
          [v, note, author, back],
        );
      version(1, 'publish mode: review', 'api', null);
      version(2, '七天改为十五天', 'admin_01', null);
      version(3, 'rollback to version 1', 'admin_01', 1);
      version(4, 'rollback to version 1', 'admin_01', 2);
    });
    await old.close();

    const store = await EmbeddedStore.open({
      dataDir,
      logger: silentLogger,
      textKey: normalizeText,
    });
    const robot = { tenantId: 1, robotId: 'default' };
    const search = async (text: string) =>
      (
        await store.rules.query(robot, {
          offset: 0,
          limit: 10,
          sort: 'created',
          descending: false,
          now: 0,
          text,
        })
      ).rows.map((r) => r.ruleId);
    assert.deepEqual(await search('退货政策'), ['id-1'], 'found by its name again');
    assert.deepEqual(await search('怎么退货'), ['id-1'], 'and by its phrasing');
    assert.deepEqual(await search('运费'), ['id-2'], 'an undamaged rule keeps its text');
    const versions = await store.versions.list(robot);
    assert.deepEqual(
      versions.map((v) => [v.version, v.note, v.modeSwitch, v.rolledBackTo]),
      [
        [4, 'rollback to version 1', null, 2],
        [3, '', null, 1],
        [2, '七天改为十五天', null, null],
        [1, '', 'review', null],
      ],
      'only the notes the service wrote itself become facts',
    );
    await store.close();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
