import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { Store } from '../../../electron/service/store/embedded/database';
import { MIGRATIONS } from '../../../electron/service/store/sql/migrations/index';
import { SqlJsCategoryRepository } from '../../../electron/service/store/embedded/repositories/category-repository';

test('a category id beyond the safe integers names no category (never its rounded neighbour)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'category-ids-'));
  const store = await Store.open({ dataDir: dir, logger: silentLogger, migrations: MIGRATIONS });
  try {
    const robot = { tenantId: 1, robotId: 'default' };
    store.write((tx) => {
      tx.run(
        "INSERT INTO tenants (tenant_id, phone_number, mail, company, created_at) VALUES (1, '', '', '', 0)",
      );
      tx.run(
        "INSERT INTO robots (tenant_id, robot_id, name, secret, created_at) VALUES (1, 'default', 'r', 's', 0)",
      );
      // 2^53: the integer that "9007199254740993" becomes as a JavaScript number.
      tx.run(
        "INSERT INTO categories (category_id, tenant_id, robot_id, name, name_key, created_at) VALUES (9007199254740992, 1, 'default', 'far', 'far', 0)",
      );
      tx.run(
        "INSERT INTO categories (category_id, tenant_id, robot_id, name, name_key, created_at) VALUES (999999999999999, 1, 'default', 'max', 'max', 0)",
      );
    });
    const categories = new SqlJsCategoryRepository(store);
    assert.equal((await categories.find(robot, '999999999999999'))?.name, 'max');
    for (const id of ['9007199254740993', '9007199254740992', '1000000000000000']) {
      assert.equal(await categories.find(robot, id), undefined, id);
      assert.equal(await categories.rename(robot, id, 'renamed', 'renamed'), undefined, id);
    }
    assert.deepEqual(
      (await categories.list(robot)).map((c) => c.name),
      ['far', 'max'],
      'nothing was renamed',
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
