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
        deletedAt: null,
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
      const added = await store.rules.insert(
        robot,
        [rule('甲'), rule('乙'), rule('丙')],
        NOW,
        'tester',
      );
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

    test('match policies, negative keywords and menus are stored, updated and kept in the trash', async () => {
      const [target] = await store.rules.insert(robot, [rule('菜单目标')], NOW, 'tester');
      assert.ok(target);
      const menu = [{ ruleId: target.ruleId, text: '第一项' }];
      const [made] = await store.rules.insert(
        robot,
        [rule('菜单', { matchPolicy: 'contains', negativeKeywords: ['不要'], menu })],
        NOW,
        'tester',
      );
      assert.ok(made);
      assert.equal(made.matchPolicy, 'contains');
      assert.deepEqual(await store.rules.find(robot, made.ruleId), made);
      assert.equal(target.matchPolicy, 'similarity', 'absent: the default policy');
      assert.deepEqual(target.negativeKeywords, []);
      assert.equal(target.menu, null);
      assert.ok((await store.rules.menus()).some((m) => m.ruleId === made.ruleId));
      const matchable = (await store.rules.matchable(robot)).find((r) => r.ruleId === made.ruleId);
      assert.equal(matchable?.matchPolicy, 'contains');
      assert.deepEqual(matchable?.negativeKeywords, ['不要']);
      const updated = await store.rules.update(
        robot,
        made.ruleId,
        { ...made, matchPolicy: 'exact', negativeKeywords: [], menu: [] },
        NOW + 1,
        'tester',
      );
      assert.equal(updated?.matchPolicy, 'exact');
      assert.equal(updated?.menu, null, 'an empty menu is none');
      assert.ok(!(await store.rules.menus()).some((m) => m.ruleId === made.ruleId));
      await store.rules.update(robot, made.ruleId, { ...made, menu }, NOW + 2, 'tester');
      await store.rules.remove(robot, [made.ruleId], NOW + 3, 'tester');
      const [back] = await store.rules.restore(robot, [made.ruleId], NOW + 4, 'tester');
      assert.deepEqual(back?.menu, menu);
      assert.equal(back?.matchPolicy, 'contains');
      assert.deepEqual(back?.negativeKeywords, ['不要']);
      await store.rules.remove(robot, [made.ruleId, target.ruleId], NOW + 5, 'tester');
      await store.rules.purgeDeleted(NOW + 6);
    });

    test('rule names and ids are unique; a failed insert changes nothing', async () => {
      assert.deepEqual(await store.rules.takenNameKeys(robot, ['甲', '丁']), new Set(['甲']));
      assert.equal(await store.rules.takenNameKeys(other, ['甲']).then((s) => s.size), 0);
      const holder = await store.rules.nameHolder(robot, '甲');
      assert.ok(holder);
      const count = (await store.rules.seqs(robot)).length;
      await rejectsWith(
        store.rules.insert(robot, [rule('丁'), rule('甲')], NOW, 'tester'),
        'rule-name',
      );
      await rejectsWith(
        store.rules.insert(other, [rule('戊', { ruleId: holder })], NOW, 'tester'),
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
      const [same] = await store.rules.insert(other, [rule('甲')], NOW, 'tester');
      assert.equal(same?.robotId, 'second');
    });

    test('update replaces the content; patchMany and remove report what they touched', async () => {
      const [a, b] = await store.rules.insert(
        robot,
        [rule('更新一'), rule('更新二')],
        NOW,
        'tester',
      );
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
        'tester',
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
          'tester',
        ),
        'rule-name',
      );
      assert.equal(
        await store.rules.update(other, a.ruleId, a, NOW, 'tester'),
        undefined,
        'not in that robot',
      );
      const patched = await store.rules.patchMany(
        robot,
        [a.ruleId, b.ruleId, a.ruleId, 'unknown'],
        { active: false, categoryId: '物流' },
        NOW + 20,
        'tester',
      );
      assert.deepEqual(
        patched.map((r) => [r.ruleId, r.active, r.categoryId]),
        [
          [a.ruleId, false, '物流'],
          [b.ruleId, false, '物流'],
        ],
      );
      const removed = await store.rules.remove(
        robot,
        [b.ruleId, 'unknown', b.ruleId],
        NOW + 25,
        'tester',
      );
      assert.deepEqual(
        removed.map((r) => r.ruleId),
        [b.ruleId],
      );
      assert.equal(removed[0]?.categoryId, '物流', 'removed rules are reported as they were');
      assert.equal(await store.rules.find(robot, b.ruleId), undefined);
    });

    test('deleted rules wait in the trash and come back at their position when it is free', async () => {
      const [a, b, c] = await store.rules.insert(
        robot,
        [rule('回收一'), rule('回收二'), rule('占位')],
        NOW,
        'tester',
      );
      assert.ok(a && b && c);
      await store.rules.remove(robot, [a.ruleId, b.ruleId], NOW + 40, 'tester');
      const trash = await store.rules.deleted(robot, 10);
      assert.deepEqual(
        trash
          .filter((r) => r.deletedAt === NOW + 40)
          .map((r) => r.ruleName)
          .sort(),
        ['回收一', '回收二'],
      );
      assert.equal(await store.rules.idExists(a.ruleId), false, 'a deleted rule is not a rule');
      // b's name is taken meanwhile: putting a and b back together fails whole.
      await store.rules.insert(robot, [rule('回收二')], NOW, 'tester');
      await rejectsWith(
        store.rules.restore(robot, [a.ruleId, b.ruleId], NOW + 50, 'tester'),
        'rule-name',
      );
      assert.equal(await store.rules.find(robot, a.ruleId), undefined, 'nothing was restored');
      const back = await store.rules.restore(robot, [a.ruleId, 'unknown'], NOW + 50, 'tester');
      assert.deepEqual(
        back.map((r) => [r.ruleId, r.seq, r.createdAt, r.updatedAt]),
        [[a.ruleId, a.seq, NOW, NOW + 50]],
      );
      assert.deepEqual(await store.rules.find(robot, a.ruleId), back[0]);
      assert.equal(
        await store.rules.restore(other, [b.ruleId], NOW, 'tester').then((r) => r.length),
        0,
        'trash is per robot',
      );
      // b, and the rule the update test deleted at NOW + 25.
      assert.equal(
        await store.rules.purgeDeleted(NOW + 41),
        2,
        'what was deleted before is purged',
      );
      assert.equal(
        (await store.rules.deleted(robot, 10)).some((r) => r.ruleId === b.ruleId),
        false,
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
        'tester',
      );
      const page = await store.rules.pageFrom(fresh, added[1]?.seq ?? 0, 5);
      assert.deepEqual(
        page.map((r) => r.ruleName),
        ['a 发票', 'c 物流'],
      );
      const base = { offset: 0, limit: 10, sort: 'created' as const, descending: false, now: NOW };
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
      const names = async (text: string) =>
        (await store.rules.query(fresh, { ...base, text })).rows.map((r) => r.ruleName);
      assert.deepEqual(await names('100%'), ['b 退货'], 'answers are searched');
      assert.deepEqual(await names('發票'), ['a 发票'], 'as the text key reads text');
      assert.deepEqual(await names('A 发'), ['a 发票']);
      assert.deepEqual(await names('退货!'), ['b 退货'], 'punctuation does not matter');
      assert.deepEqual(await names('递_到'), ['c 物流'], 'nor does it in the phrasing');
      assert.deepEqual(await names('zzz'), []);
      const second = await store.rules.query(fresh, { ...base, offset: 1, limit: 1 });
      assert.deepEqual([second.total, second.rows.map((r) => r.ruleName)], [3, ['a 发票']]);
      assert.deepEqual(await store.rules.languageCounts(fresh), { rules: 3, han: 3 });
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

    test('effective states at a time: active, inactive, scheduled, expired', async () => {
      const timed: RobotKey = { tenantId, robotId: 'timed' };
      await store.robots.insert({
        ...timed,
        name: 'Timed',
        secret: 'q'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      const at = Date.parse('2026-06-01T00:00:00+08:00');
      await store.rules.insert(
        timed,
        [
          rule('always'),
          rule('off', { active: false }),
          rule('later', { effectBegin: '2026-07-01T00:00:00+08:00' }),
          rule('over', { effectEnd: '2026-05-31T23:59:59+08:00' }),
          rule('now', {
            effectBegin: '2026-05-01T00:00:00Z',
            effectEnd: '2026-06-01T00:00:00+08:00',
          }),
        ],
        NOW,
        'tester',
      );
      const names = async (state: 'active' | 'inactive' | 'scheduled' | 'expired') =>
        (
          await store.rules.query(timed, {
            offset: 0,
            limit: 10,
            sort: 'created',
            descending: false,
            now: at,
            state,
          })
        ).rows.map((r) => r.ruleName);
      assert.deepEqual(await names('active'), ['always', 'now'], 'the window is inclusive');
      assert.deepEqual(await names('inactive'), ['off']);
      assert.deepEqual(await names('scheduled'), ['later']);
      assert.deepEqual(await names('expired'), ['over']);
    });

    test('categories: a managed list per robot, with counts, renames, merges and deletes', async () => {
      const shelf: RobotKey = { tenantId, robotId: 'shelf' };
      await store.robots.insert({
        ...shelf,
        name: 'Shelf',
        secret: 'c'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      const sales = await store.categories.create(shelf, '售前', '售前', NOW);
      const after = await store.categories.create(shelf, '售后', '售后', NOW);
      await rejectsWith(store.categories.create(shelf, '售前 ', '售前', NOW), 'category-name');
      const [x, y, z] = await store.rules.insert(
        shelf,
        [
          rule('分类一', { categoryId: sales.categoryId }),
          rule('分类二', { categoryId: after.categoryId }),
          rule('分类三'),
        ],
        NOW,
        'tester',
      );
      assert.ok(x && y && z);
      assert.deepEqual(
        (await store.categories.list(shelf)).map((c) => [c.name, c.rules]),
        [
          ['售前', 1],
          ['售后', 1],
        ],
      );
      assert.equal((await store.categories.list(other)).length, 0, 'lists are per robot');
      const renamed = await store.categories.rename(shelf, sales.categoryId, '咨询', '咨询');
      assert.equal(renamed?.name, '咨询');
      await rejectsWith(
        store.categories.rename(shelf, sales.categoryId, '售后', '售后'),
        'category-name',
      );
      assert.equal(await store.categories.rename(shelf, '999999', 'x', 'x'), undefined);
      assert.equal(await store.categories.find(shelf, 'not-an-id'), undefined);
      const moved = await store.categories.merge(
        shelf,
        [after.categoryId],
        sales.categoryId,
        NOW + 1,
        'tester',
      );
      assert.deepEqual(moved, [y.ruleId]);
      assert.equal((await store.rules.find(shelf, y.ruleId))?.categoryId, sales.categoryId);
      assert.deepEqual(
        (await store.categories.list(shelf)).map((c) => [c.name, c.rules]),
        [['咨询', 2]],
      );
      const cleared = await store.categories.remove(shelf, sales.categoryId, NOW + 2, 'tester');
      assert.deepEqual(cleared.sort(), [x.ruleId, y.ruleId].sort());
      assert.equal((await store.rules.find(shelf, x.ruleId))?.categoryId, '');
      assert.equal((await store.categories.list(shelf)).length, 0);
    });

    test('administrators in the trash free their username until restored', async () => {
      await store.users.insert(
        tenantId,
        {
          userId: 'user-9',
          username: 'temp',
          usernameKey: 'temp',
          role: 'ADMIN',
          passwordHash: 'h',
        },
        NOW,
      );
      assert.equal(await store.users.remove(tenantId, 'user-9', NOW + 1), true);
      assert.equal(await store.users.remove(tenantId, 'user-9', NOW + 1), false);
      assert.equal(await store.users.find(tenantId, 'user-9'), undefined);
      assert.deepEqual(
        (await store.users.deleted()).map((u) => [u.userId, u.deletedAt]),
        [['user-9', NOW + 1]],
      );
      await store.users.insert(
        tenantId,
        {
          userId: 'user-10',
          username: 'TEMP',
          usernameKey: 'temp',
          role: 'ADMIN',
          passwordHash: 'h',
        },
        NOW,
      );
      await rejectsWith(store.users.restore(tenantId, 'user-9'), 'username');
      await store.users.update(
        tenantId,
        'user-10',
        { username: 'temp2', usernameKey: 'temp2' },
        NOW,
      );
      assert.equal((await store.users.restore(tenantId, 'user-9'))?.username, 'temp');
      assert.equal(
        await store.users.restore(tenantId, 'user-9'),
        undefined,
        'no longer in the trash',
      );
      await store.users.remove(tenantId, 'user-10', NOW + 1);
      assert.equal(await store.users.purgeDeleted(NOW + 2), 1);
      assert.equal((await store.users.deleted()).length, 0);
    });

    test('deleted robots and tenants are hidden until restored, and purged with what they hold', async () => {
      const doomed = await store.tenants.register({
        tenant: {
          phoneNumber: '13900139000',
          mail: 'd@example.com',
          company: '待删',
          createdAt: NOW,
        },
        admin: {
          userId: 'user-d',
          username: 'owner',
          usernameKey: 'owner',
          role: 'ADMIN',
          passwordHash: 'h',
        },
        robot: {
          robotId: 'default',
          name: 'Default robot',
          secret: 'd'.repeat(43),
          settingsJson: '{}',
          createdAt: NOW,
        },
      });
      const key: RobotKey = { tenantId: doomed, robotId: 'default' };
      await store.robots.insert({
        tenantId: doomed,
        robotId: 'spare',
        name: 'Spare',
        secret: 'e'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      await store.categories.create(key, '类', '类', NOW);
      await store.rules.insert(key, [rule('将被清除')], NOW, 'tester');
      const live = async () =>
        (await store.robots.all()).filter((r) => r.tenantId === doomed).map((r) => r.robotId);
      assert.deepEqual(await live(), ['default', 'spare']);
      assert.equal(
        await store.robots.setDeleted({ tenantId: doomed, robotId: 'spare' }, NOW + 1),
        true,
      );
      assert.deepEqual(await live(), ['default']);
      assert.deepEqual(
        (await store.robots.deleted())
          .filter((r) => r.tenantId === doomed)
          .map((r) => [r.robotId, r.deletedAt]),
        [['spare', NOW + 1]],
      );
      assert.equal(
        await store.robots.exists({ tenantId: doomed, robotId: 'spare' }),
        true,
        'its id stays taken',
      );
      assert.equal(
        await store.robots.setDeleted({ tenantId: doomed, robotId: 'spare' }, null),
        true,
      );
      assert.deepEqual(await live(), ['default', 'spare']);
      assert.equal(await store.tenants.setDeleted(doomed, NOW + 3), true);
      assert.equal(await store.tenants.exists(doomed), false);
      assert.deepEqual(await live(), [], 'robots of a deleted tenant are hidden');
      assert.equal(
        (await store.tenants.all()).find((t) => t.tenantId === doomed)?.deletedAt,
        NOW + 3,
      );
      assert.equal(await store.tenants.purgeDeleted(NOW + 2), 0, 'not yet');
      assert.equal(await store.tenants.purgeDeleted(NOW + 4), 1);
      assert.equal(
        (await store.tenants.all()).some((t) => t.tenantId === doomed),
        false,
      );
      assert.equal(await store.rules.maxSeq(key), 0, 'its rules are gone');
      assert.equal(await store.users.find(doomed, 'user-d'), undefined);
      assert.equal((await store.categories.list(key)).length, 0);
    });

    test('purging one robot deletes it for good with all it holds, and only it', async () => {
      const copy: RobotKey = { tenantId, robotId: 'half-copy' };
      await store.robots.insert({
        ...copy,
        name: 'Half a copy',
        secret: 'f'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      const category = await store.categories.create(copy, '复制', '复制', NOW);
      await store.rules.insert(
        copy,
        [rule('半个副本', { categoryId: category.categoryId })],
        NOW,
        'system',
      );
      await store.testSets.add(
        copy,
        [{ question: '半个副本?', expect: 'fallback', ruleId: null }],
        NOW,
      );
      const othersBefore = await store.rules.maxSeq(robot);
      assert.equal(await store.robots.purge(copy), true);
      assert.equal(await store.robots.exists(copy), false);
      assert.equal(await store.rules.maxSeq(copy), 0, 'its rules are gone');
      assert.equal((await store.categories.list(copy)).length, 0);
      assert.equal((await store.testSets.cases(copy)).length, 0);
      assert.equal(await store.rules.maxSeq(robot), othersBefore, 'other robots keep theirs');
      assert.equal(await store.robots.purge(copy), false, 'nothing left to purge');
    });

    test('every rule write records its actor, the trash and revisions keep it', async () => {
      const [made] = await store.rules.insert(robot, [rule('actor-made')], NOW, 'alice');
      const id = made?.ruleId ?? '';
      assert.equal(made?.updatedBy, 'alice');
      assert.equal((await store.rules.find(robot, id))?.updatedBy, 'alice');
      const content = { ...(made as NonNullable<typeof made>), answer: 'changed' };
      assert.equal(
        (await store.rules.update(robot, id, content, NOW + 1, 'bob'))?.updatedBy,
        'bob',
      );
      const [patched] = await store.rules.patchMany(robot, [id], { active: false }, NOW + 2, 'api');
      assert.equal(patched?.updatedBy, 'api');
      await store.rules.remove(robot, [id], NOW + 3, 'carol');
      const trashed = (await store.rules.deleted(robot, 100)).find((r) => r.ruleId === id);
      assert.equal(trashed?.updatedBy, 'carol', 'the trash keeps who deleted it');
      const [back] = await store.rules.restore(robot, [id], NOW + 4, 'dave');
      assert.equal(back?.updatedBy, 'dave');
      assert.equal((await store.rules.find(robot, id))?.updatedBy, 'dave');
      const published = await store.versions.publish(other, {
        note: '',
        author: 'dave',
        now: NOW + 5,
        confirmedFailures: null,
      });
      assert.ok(published);
      const [moved] = await store.rules.insert(other, [rule('actor-published')], NOW, 'erin');
      await store.versions.publish(other, {
        note: '',
        author: 'erin',
        now: NOW + 6,
        confirmedFailures: null,
      });
      const latest = await store.versions.latest(other);
      const kept = await store.versions.rules(other, latest?.version ?? 0);
      assert.equal(kept.find((r) => r.ruleId === moved?.ruleId)?.updatedBy, 'erin');
    });

    test('editor sessions: kept by token hash, used, ended and purged', async () => {
      const session = { tenantId, userId: 'user-1', createdAt: NOW, lastSeenAt: NOW };
      await store.sessions.insert('hash-a', session);
      await store.sessions.insert('hash-b', { ...session, createdAt: NOW - 10_000 });
      assert.deepEqual(await store.sessions.find('hash-a'), session);
      assert.equal(await store.sessions.find('hash-x'), undefined);
      await store.sessions.touch('hash-a', NOW + 500);
      assert.equal((await store.sessions.find('hash-a'))?.lastSeenAt, NOW + 500);
      assert.equal(await store.sessions.purgeExpired(NOW - 1, NOW - 1), 1, 'made too long ago');
      assert.equal(await store.sessions.find('hash-b'), undefined);
      assert.equal(await store.sessions.remove('hash-a'), true);
      assert.equal(await store.sessions.remove('hash-a'), false);
      const position = store.position;
      assert.equal(await store.sessions.purgeExpired(NOW, NOW), 0);
      assert.equal(store.position, position, 'nothing to purge writes nothing');
    });

    test('failed sign-ins: counted per subject since a time, cleared, purged', async () => {
      await store.signInFailures.record(['user:x', 'address:1'], NOW, NOW - 1000);
      await store.signInFailures.record(['user:x'], NOW + 10, NOW - 1000);
      assert.deepEqual(await store.signInFailures.since('user:x', NOW - 1), [NOW, NOW + 10]);
      assert.deepEqual(await store.signInFailures.since('user:x', NOW + 5), [NOW + 10]);
      assert.deepEqual(await store.signInFailures.since('address:1', 0), [NOW]);
      await store.signInFailures.record(['user:x'], NOW + 2000, NOW + 5);
      assert.deepEqual(await store.signInFailures.since('user:x', 0), [NOW + 10, NOW + 2000]);
      await store.signInFailures.clear('user:x');
      assert.deepEqual(await store.signInFailures.since('user:x', 0), []);
      assert.equal(await store.signInFailures.purge(NOW + 1), 1);
      assert.deepEqual(await store.signInFailures.since('address:1', 0), []);
    });

    test('administrators by username key, with their password hashes, of live tenants', async () => {
      const found = await store.users.withUsernameKey('admin_01');
      assert.ok(found.some((u) => u.tenantId === tenantId && u.passwordHash === 'scrypt$x'));
      assert.deepEqual(await store.users.withUsernameKey('nobody'), []);
    });

    test('a call that finds nothing to change writes nothing (the position stays)', async () => {
      const position = store.position;
      assert.equal(await store.users.remove(tenantId, 'nobody', NOW), false);
      assert.equal(await store.users.restore(tenantId, 'nobody'), undefined);
      assert.equal(await store.users.update(tenantId, 'nobody', { role: 'ADMIN' }, NOW), undefined);
      assert.equal(await store.categories.rename(robot, '999999', 'x', 'x'), undefined);
      assert.equal(store.position, position);
    });

    test('what was acknowledged is there after closing and opening again', async () => {
      const [kept] = await store.rules.insert(robot, [rule('持久')], NOW, 'tester');
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
