/**
 * The contract every store implementation must pass (repositories/store.ts): the same tests run
 * against the embedded store (embedded-store.spec.ts) and against any other store added later.
 * A store is opened on a location, closed, and opened again on the same location.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UniqueViolation } from '../../electron/service/repositories/errors';
import type { NewRule, RobotKey } from '../../electron/service/repositories/records';
import type { KbStore } from '../../electron/service/repositories/store';

export interface StoreFactory {
  /** A new, empty location (a data directory, a database). */
  create(): Promise<string>;
  open(location: string): Promise<KbStore>;
  destroy(location: string): Promise<void>;
}

const NOW = 1_763_800_000_000;

let nextId = 0;
function rule(name: string, fields: Partial<NewRule> = {}): NewRule {
  nextId += 1;
  return {
    ruleId: `rule-${String(nextId).padStart(6, '0')}`,
    ruleName: name,
    nameKey: name.trim(),
    categoryId: '',
    active: true,
    allowSimGen: null,
    effectBegin: null,
    effectEnd: null,
    questions: [`${name}?`, `问 ${name}`],
    answer: `Answer for ${name}`,
    createdAt: NOW,
    ...fields,
  };
}

async function rejectsWith(promise: Promise<unknown>, key: UniqueViolation['key']): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof UniqueViolation, `expected UniqueViolation, got ${String(error)}`);
    assert.equal(error.key, key);
    return true;
  });
}

export function storeContract(name: string, factory: StoreFactory): void {
  describe(`store contract: ${name}`, () => {
    let location: string;
    let store: KbStore;
    let tenantId: number;
    let robot: RobotKey;
    let other: RobotKey;

    before(async () => {
      location = await factory.create();
      store = await factory.open(location);
      tenantId = await store.tenants.register({
        tenant: {
          phoneNumber: '13800138000',
          mail: 'a@example.com',
          company: '演示',
          createdAt: NOW,
        },
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
      robot = { tenantId, robotId: 'default' };
      other = { tenantId, robotId: 'second' };
      await store.robots.insert({
        ...other,
        name: 'Second',
        secret: 't'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW + 1,
      });
    });
    after(async () => {
      await store.close();
      await factory.destroy(location);
    });

    test('registration makes the tenant, its administrator and its robot together', async () => {
      assert.equal(await store.tenants.exists(tenantId), true);
      assert.equal(await store.tenants.exists(tenantId + 1000), false);
      const [tenant] = (await store.tenants.all()).filter((t) => t.tenantId === tenantId);
      assert.deepEqual(tenant, {
        tenantId,
        phoneNumber: '13800138000',
        mail: 'a@example.com',
        company: '演示',
        createdAt: NOW,
      });
      const admin = await store.users.find(tenantId, 'user-1');
      assert.equal(admin?.username, 'Admin_01');
      assert.equal(admin?.role, 'ADMIN');
      const robots = await store.robots.all();
      assert.deepEqual(
        robots.filter((r) => r.tenantId === tenantId).map((r) => r.robotId),
        ['default', 'second'],
        'robots in creation order',
      );
      const second = await store.tenants.register({
        tenant: {
          phoneNumber: '+8613800138000',
          mail: 'b@example.com',
          company: 'B',
          createdAt: NOW,
        },
        admin: {
          userId: 'user-2',
          username: 'Admin_01',
          usernameKey: 'admin_01',
          role: 'ADMIN',
          passwordHash: 'h',
        },
        robot: {
          robotId: 'default',
          name: 'Default robot',
          secret: 'u'.repeat(43),
          settingsJson: '{}',
          createdAt: NOW,
        },
      });
      assert.ok(second > tenantId, 'tenant ids grow');
    });

    test('usernames are unique per tenant by their key', async () => {
      const added = await store.users.insert(
        tenantId,
        {
          userId: 'user-3',
          username: 'editor',
          usernameKey: 'editor',
          role: 'ADMIN',
          passwordHash: 'h',
        },
        NOW,
      );
      assert.equal(added.username, 'editor');
      await rejectsWith(
        store.users.insert(
          tenantId,
          {
            userId: 'user-4',
            username: 'ADMIN_01',
            usernameKey: 'admin_01',
            role: 'ADMIN',
            passwordHash: 'h',
          },
          NOW,
        ),
        'username',
      );
      await rejectsWith(
        store.users.update(
          tenantId,
          'user-3',
          { username: 'admin_01', usernameKey: 'admin_01' },
          NOW,
        ),
        'username',
      );
      const renamed = await store.users.update(
        tenantId,
        'user-3',
        { username: '编辑', usernameKey: '编辑', passwordHash: 'h2' },
        NOW + 5,
      );
      assert.equal(renamed?.username, '编辑');
      assert.equal(renamed?.updatedAt, NOW + 5);
      assert.equal(await store.users.update(tenantId, 'nobody', { role: 'ADMIN' }, NOW), undefined);
      const all = await store.users.all();
      assert.ok(all.some((u) => u.userId === 'user-3' && u.username === '编辑'));
    });

    test('robots: update what is given, report unknown robots', async () => {
      assert.equal(await store.robots.exists(other), true);
      assert.equal(await store.robots.update(other, { settingsJson: '{"maxRecommend":3}' }), true);
      assert.equal(
        await store.robots.update({ tenantId, robotId: 'nobody' }, { name: 'x' }),
        false,
      );
      const stored = (await store.robots.all()).find(
        (r) => r.robotId === 'second' && r.tenantId === tenantId,
      );
      assert.equal(stored?.settingsJson, '{"maxRecommend":3}');
      assert.equal(stored?.name, 'Second');
    });

    test('inserted rules come back as stored, in creation order, with growing positions', async () => {
      const before = store.position;
      const added = await store.rules.insert(robot, [rule('甲'), rule('乙'), rule('丙')], NOW);
      assert.ok(store.position > before, 'the position grows with a write');
      assert.deepEqual(
        added.map((r) => r.ruleName),
        ['甲', '乙', '丙'],
      );
      assert.ok(added.every((r, i) => i === 0 || r.seq > (added[i - 1]?.seq ?? 0)));
      const found = await store.rules.find(robot, added[1]?.ruleId ?? '');
      assert.deepEqual(found, added[1]);
      assert.equal(
        await store.rules.find(other, added[1]?.ruleId ?? ''),
        undefined,
        'robots are apart',
      );
      assert.equal(await store.rules.answerOf(added[2]?.ruleId ?? ''), 'Answer for 丙');
      assert.deepEqual(
        await store.rules.seqs(robot),
        added.map((r) => r.seq),
      );
      assert.equal(await store.rules.maxSeq(robot), added[2]?.seq);
      assert.equal(await store.rules.maxSeq(other), 0);
      const names = await store.rules.namesOf([added[0]?.ruleId ?? '', 'unknown']);
      assert.deepEqual([...names.values()], ['甲']);
    });

    test('rule names and ids are unique; a failed insert changes nothing', async () => {
      assert.deepEqual(await store.rules.takenNameKeys(robot, ['甲', '丁']), new Set(['甲']));
      assert.equal(await store.rules.takenNameKeys(other, ['甲']).then((s) => s.size), 0);
      const holder = await store.rules.nameHolder(robot, '甲');
      assert.ok(holder);
      const count = (await store.rules.seqs(robot)).length;
      await rejectsWith(store.rules.insert(robot, [rule('丁'), rule('甲')], NOW), 'rule-name');
      await rejectsWith(
        store.rules.insert(other, [rule('戊', { ruleId: holder })], NOW),
        'rule-id',
      );
      assert.equal(
        (await store.rules.seqs(robot)).length,
        count,
        'nothing of the batch was written',
      );
      assert.equal(await store.rules.nameHolder(robot, '丁'), undefined);
      assert.equal(await store.rules.idExists(holder), true);
      assert.equal(await store.rules.idExists('never'), false);
      // Another robot may use the same name.
      const [same] = await store.rules.insert(other, [rule('甲')], NOW);
      assert.equal(same?.robotId, 'second');
    });

    test('update replaces the content; patchMany and remove report what they touched', async () => {
      const [a, b] = await store.rules.insert(robot, [rule('更新一'), rule('更新二')], NOW);
      assert.ok(a && b);
      const updated = await store.rules.update(
        robot,
        a.ruleId,
        {
          ...a,
          ruleName: '更新一 (新)',
          nameKey: '更新一 (新)',
          questions: ['新的问题'],
          allowSimGen: true,
          effectEnd: '2030-01-01T00:00:00+08:00',
        },
        NOW + 10,
      );
      assert.equal(updated?.ruleName, '更新一 (新)');
      assert.deepEqual(updated?.questions, ['新的问题']);
      assert.equal(updated?.allowSimGen, true);
      assert.equal(updated?.effectEnd, '2030-01-01T00:00:00+08:00');
      assert.equal(updated?.updatedAt, NOW + 10);
      assert.equal(updated?.seq, a.seq, 'an update keeps the position');
      await rejectsWith(
        store.rules.update(
          robot,
          b.ruleId,
          { ...b, ruleName: '更新一 (新)', nameKey: '更新一 (新)' },
          NOW,
        ),
        'rule-name',
      );
      assert.equal(
        await store.rules.update(other, a.ruleId, a, NOW),
        undefined,
        'not in that robot',
      );
      const patched = await store.rules.patchMany(
        robot,
        [a.ruleId, b.ruleId, a.ruleId, 'unknown'],
        { active: false, categoryId: '物流' },
        NOW + 20,
      );
      assert.deepEqual(
        patched.map((r) => [r.ruleId, r.active, r.categoryId]),
        [
          [a.ruleId, false, '物流'],
          [b.ruleId, false, '物流'],
        ],
      );
      const removed = await store.rules.remove(robot, [b.ruleId, 'unknown', b.ruleId]);
      assert.deepEqual(
        removed.map((r) => r.ruleId),
        [b.ruleId],
      );
      assert.equal(removed[0]?.categoryId, '物流', 'removed rules are reported as they were');
      assert.equal(await store.rules.find(robot, b.ruleId), undefined);
    });

    test('reinsert puts a rule back at its position when free, else at the end', async () => {
      const [a, b, c] = await store.rules.insert(
        robot,
        [rule('回收一'), rule('回收二'), rule('占位')],
        NOW,
      );
      assert.ok(a && b && c);
      await store.rules.remove(robot, [a.ruleId, b.ruleId]);
      const back = await store.rules.reinsert(
        robot,
        [
          { ...a, seq: a.seq },
          { ...b, seq: c.seq },
        ],
        NOW + 30,
      );
      assert.equal(back[0]?.seq, a.seq, 'a free position is reused');
      assert.ok((back[1]?.seq ?? 0) > c.seq, 'a taken position sends the rule to the end');
      assert.equal(back[0]?.createdAt, NOW);
      await rejectsWith(
        store.rules.reinsert(robot, [{ ...a, ruleName: '别名', nameKey: '别名', seq: null }], NOW),
        'rule-id',
      );
    });

    test('pages from a position, filtered queries, phrasings, categories, matchable rules', async () => {
      const fresh: RobotKey = { tenantId, robotId: 'paging' };
      await store.robots.insert({
        ...fresh,
        name: 'Paging',
        secret: 'p'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      const added = await store.rules.insert(
        fresh,
        [
          rule('b 退货', { categoryId: '售后', answer: '100% 退款' }),
          rule('a 发票', { categoryId: '财务', active: false }),
          rule('c 物流', { categoryId: '售后', questions: ['快递_到哪了'] }),
        ],
        NOW,
      );
      const page = await store.rules.pageFrom(fresh, added[1]?.seq ?? 0, 5);
      assert.deepEqual(
        page.map((r) => r.ruleName),
        ['a 发票', 'c 物流'],
      );
      const base = { offset: 0, limit: 10, sort: 'created' as const, descending: false };
      const all = await store.rules.query(fresh, base);
      assert.equal(all.total, 3);
      assert.deepEqual(
        (await store.rules.query(fresh, { ...base, sort: 'ruleName' })).rows.map((r) => r.ruleName),
        ['a 发票', 'b 退货', 'c 物流'],
      );
      assert.deepEqual(
        (await store.rules.query(fresh, { ...base, descending: true })).rows.map((r) => r.ruleName),
        ['c 物流', 'a 发票', 'b 退货'],
      );
      assert.deepEqual(
        (await store.rules.query(fresh, { ...base, active: false })).rows.map((r) => r.ruleName),
        ['a 发票'],
      );
      assert.deepEqual(
        (await store.rules.query(fresh, { ...base, category: '售后' })).rows.map((r) => r.ruleName),
        ['b 退货', 'c 物流'],
      );
      const byText = await store.rules.query(fresh, { ...base, text: '100%' });
      assert.deepEqual(
        byText.rows.map((r) => r.ruleName),
        ['b 退货'],
        '% is literal',
      );
      assert.deepEqual(
        (await store.rules.query(fresh, { ...base, text: '快递_' })).rows.map((r) => r.ruleName),
        ['c 物流'],
        '_ is literal',
      );
      assert.equal((await store.rules.query(fresh, { ...base, text: '递%到' })).total, 0);
      const second = await store.rules.query(fresh, { ...base, offset: 1, limit: 1 });
      assert.deepEqual([second.total, second.rows.map((r) => r.ruleName)], [3, ['a 发票']]);
      assert.deepEqual(await store.rules.categories(fresh), ['售后', '财务']);
      assert.deepEqual(
        (await store.rules.questions(fresh)).map((q) => q.questions[0]),
        ['b 退货?', 'a 发票?', '快递_到哪了'],
      );
      const matchable = await store.rules.matchable(fresh);
      assert.deepEqual(
        matchable.map((r) => [r.ruleName, r.active, r.robotId]),
        [
          ['b 退货', true, 'paging'],
          ['a 发票', false, 'paging'],
          ['c 物流', true, 'paging'],
        ],
      );
      const everything = await store.rules.matchable();
      assert.ok(everything.length > matchable.length, 'without a robot: every robot');
    });

    test('what was acknowledged is there after closing and opening again', async () => {
      const [kept] = await store.rules.insert(robot, [rule('持久')], NOW);
      const position = store.position;
      await store.close();
      store = await factory.open(location);
      assert.equal(store.position, position);
      assert.deepEqual(await store.rules.find(robot, kept?.ruleId ?? ''), kept);
      assert.equal(await store.tenants.exists(tenantId), true);
      assert.equal(store.recoveredFromUncleanStop, false);
    });
  });
}
