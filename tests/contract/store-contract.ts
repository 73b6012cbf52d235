/**
 * The contract every store implementation must pass (store/contract/store.ts): the same tests run
 * against the embedded store (embedded-store.spec.ts) and against any other store added later.
 * A store is opened on a location, closed, and opened again on the same location.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UniqueViolation } from '../../electron/service/store/contract/errors';
import { RULE_SORT_KEYS } from '../../electron/service/validation/console-schemas';
import type { NewRule, RobotKey, RuleFilter } from '../../electron/service/store/contract/records';
import type { TestCaseContent } from '../../electron/service/store/contract/test-sets';
import type { KbStore } from '../../electron/service/store/contract/store';

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
      const many = await store.rules.findMany(robot, [
        added[2]?.ruleId ?? '',
        'unknown',
        added[0]?.ruleId ?? '',
      ]);
      assert.deepEqual(
        many.sort((a, b) => a.seq - b.seq),
        [added[0], added[2]],
      );
      assert.deepEqual(await store.rules.findMany(other, [added[0]?.ruleId ?? '']), []);
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
        await store.rules.facts(fresh),
        matchable.map(({ ruleId, ruleName, effectEnd }) => ({ ruleId, ruleName, effectEnd })),
        'a rule’s facts are those the matcher reads, in the same order',
      );
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

    test('a robot’s rules, phrasings and facts past a page of the store are read whole, in creation order', async () => {
      const many: RobotKey = { tenantId, robotId: 'many-facts' };
      await store.robots.insert({
        ...many,
        name: 'Many facts',
        secret: 'm'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      // Past eight of the embedded store's pages (500 rules), with a hole in the sequence.
      const added = await store.rules.insert(
        many,
        Array.from({ length: 4_100 }, (_, i) =>
          rule(`fact ${i}`, i % 7 === 0 ? { effectEnd: '2031-01-01T00:00:00.000Z' } : {}),
        ),
        NOW,
        'tester',
      );
      await store.rules.remove(many, [(added[2_000] as { ruleId: string }).ruleId], NOW, 'tester');
      const facts = await store.rules.facts(many);
      const matchable = await store.rules.matchable(many);
      const kept = added.filter((_, i) => i !== 2_000).map((made) => made.ruleId);
      assert.deepEqual(
        matchable.map((r) => r.ruleId),
        kept,
      );
      assert.deepEqual(
        facts,
        matchable.map(({ ruleId, ruleName, effectEnd }) => ({ ruleId, ruleName, effectEnd })),
      );
      assert.deepEqual(
        (await store.rules.questions(many)).map((r) => [r.ruleId, r.questions]),
        matchable.map((r) => [r.ruleId, r.questions]),
      );
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

    /** A new robot of the tenant, for a test that needs its rules alone. */
    async function robotNamed(robotId: string): Promise<RobotKey> {
      const key: RobotKey = { tenantId, robotId };
      await store.robots.insert({
        ...key,
        name: robotId,
        secret: 'v'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      return key;
    }

    test('sorts: by update, category, state and question-log figures, ties in creation order', async () => {
      const sorted = await robotNamed('sorted');
      const [a, b, c, d] = await store.rules.insert(
        sorted,
        [
          rule('S-b', { categoryId: '2' }),
          rule('S-a', { categoryId: '10', active: false }),
          rule('S-d', { categoryId: '2' }),
          rule('S-c', { categoryId: '' }),
        ],
        NOW,
        'tester',
      );
      assert.ok(a && b && c && d);
      await store.rules.patchMany(sorted, [c.ruleId], { active: true }, NOW + 5, 'tester');
      const base = { offset: 0, limit: 10, descending: false, now: NOW };
      const names = async (filter: Partial<RuleFilter> & Pick<RuleFilter, 'sort'>) =>
        (await store.rules.query(sorted, { ...base, ...filter })).rows.map((r) => r.ruleName);
      assert.deepEqual(await names({ sort: 'updated' }), ['S-b', 'S-a', 'S-c', 'S-d']);
      assert.deepEqual(await names({ sort: 'updated', descending: true }), [
        'S-d',
        'S-b',
        'S-a',
        'S-c',
      ]);
      // Category ids are text: compared as bytes, '' < '10' < '2'.
      assert.deepEqual(await names({ sort: 'category' }), ['S-c', 'S-a', 'S-b', 'S-d']);
      assert.deepEqual(await names({ sort: 'active' }), ['S-a', 'S-b', 'S-d', 'S-c']);
      assert.deepEqual(await names({ sort: 'active', descending: true }), [
        'S-b',
        'S-d',
        'S-c',
        'S-a',
      ]);
      const hitFigures = [
        { ruleId: c.ruleId, hits: 3, lastHit: NOW + 1 },
        { ruleId: a.ruleId, hits: 7, lastHit: NOW - 1 },
        { ruleId: b.ruleId, hits: 0, lastHit: null },
      ];
      // Rules not hit (S-a's figure has no hits) count 0, in creation order.
      assert.deepEqual(await names({ sort: 'hits', descending: true, hitFigures }), [
        'S-b',
        'S-d',
        'S-a',
        'S-c',
      ]);
      assert.deepEqual(await names({ sort: 'lastHit', hitFigures }), ['S-a', 'S-c', 'S-b', 'S-d']);
      assert.deepEqual(
        await names({ sort: 'hits', hitFigures, limit: 2, offset: 1 }),
        ['S-c', 'S-d'],
        'pages of a figure sort',
      );
      assert.deepEqual(await names({ sort: 'hits' }), ['S-b', 'S-a', 'S-d', 'S-c'], 'no figures');
      const chosen = await store.rules.query(sorted, {
        ...base,
        sort: 'ruleName',
        ruleIds: [d.ruleId, b.ruleId, 'unknown'],
      });
      assert.deepEqual([chosen.total, chosen.rows.map((r) => r.ruleName)], [2, ['S-a', 'S-c']]);
      const none = await store.rules.query(sorted, { ...base, sort: 'created', ruleIds: [] });
      assert.deepEqual([none.total, none.rows], [0, []]);
      const names2 = await store.rules.namesOf([d.ruleId, 'unknown', a.ruleId]);
      assert.deepEqual([...names2.keys()], [d.ruleId, a.ruleId], 'names in the order asked');
    });

    test('names sort as bytes: upper case before lower case, then other scripts', async () => {
      const byName = await robotNamed('by-name');
      await store.rules.insert(
        byName,
        ['b', 'B', 'a', '啊', 'A', 'Z', 'é'].map((name) => rule(name)),
        NOW,
        'tester',
      );
      const { rows } = await store.rules.query(byName, {
        offset: 0,
        limit: 10,
        sort: 'ruleName',
        descending: false,
        now: NOW,
      });
      assert.deepEqual(
        rows.map((r) => r.ruleName),
        ['A', 'B', 'Z', 'a', 'b', 'é', '啊'],
      );
    });

    test("pages past the embedded walk's window: every sort both ways, a text filter and deep offsets, in byte order", async () => {
      // 2,300 rules: more than two of the embedded store's windows (rule-page-scan.ts), names
      // whose UTF-8 and UTF-16 orders differ (an emoji against U+E000), hits on some rules.
      const many = await robotNamed('many-pages');
      const prefixes = ['a', 'B', '啊', '😀', '\uE000', 'é', 'Z'];
      const model = Array.from({ length: 2300 }, (_, i) => ({
        i,
        name: `${prefixes[(i * 5) % prefixes.length] ?? ''}${(i * 7919) % 10007}`,
        categoryId: String(i % 13),
        active: i % 3 !== 0,
        marked: i % 7 === 0,
      }));
      const ids: string[] = [];
      for (let from = 0; from < model.length; from += 500) {
        const batch = model.slice(from, from + 500).map((m) =>
          rule(m.name, {
            categoryId: m.categoryId,
            active: m.active,
            answer: m.marked ? `marker ${m.i}` : `plain ${m.i}`,
          }),
        );
        ids.push(...(await store.rules.insert(many, batch, NOW, 'tester')).map((r) => r.ruleId));
      }
      const hitFigures = model
        .filter((m) => m.i % 11 === 0)
        .map((m) => ({ ruleId: ids[m.i] ?? '', hits: (m.i * 31) % 17, lastHit: NOW + (m.i % 5) }));
      let turned = false;
      setImmediate(() => (turned = true));
      await store.rules.query(many, {
        offset: 0,
        limit: 50,
        sort: 'ruleName',
        descending: false,
        now: NOW,
        text: 'marker',
      });
      assert.ok(turned, 'the event loop turned while a page read every rule');
      const figureOf = new Map(hitFigures.map((h) => [h.ruleId, h]));
      const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
      const keyOf = (m: (typeof model)[number], sort: RuleFilter['sort']): number | string => {
        const hit = figureOf.get(ids[m.i] ?? '');
        switch (sort) {
          case 'ruleName':
            return m.name;
          case 'category':
            return m.categoryId;
          case 'active':
            return m.active ? 1 : 0;
          case 'updated':
            return NOW; // every rule written at NOW: creation order decides
          case 'hits':
          case 'lastHit':
            return hit && hit.hits > 0 ? (hit[sort] ?? 0) : 0;
          default:
            return m.i;
        }
      };
      // Every key the API accepts: a new one is walked here without a change to this test.
      for (const sort of RULE_SORT_KEYS) {
        for (const descending of [false, true]) {
          for (const text of [undefined, 'marker']) {
            const kept = model.filter((m) => text === undefined || m.marked);
            const ordered = [...kept].sort((x, y) => {
              const a = keyOf(x, sort);
              const b = keyOf(y, sort);
              const byKey =
                typeof a === 'number' && typeof b === 'number'
                  ? a - b
                  : bytes(String(a), String(b));
              return (descending ? -byKey : byKey) || x.i - y.i;
            });
            for (const [offset, limit] of [
              [0, 50],
              [990, 20],
              [kept.length - 30, 100],
            ] as const) {
              const page = await store.rules.query(many, {
                offset,
                limit,
                sort,
                descending,
                now: NOW,
                hitFigures,
                ...(text === undefined ? {} : { text }),
              });
              assert.deepEqual(
                [page.total, page.rows.map((r) => r.ruleName)],
                [kept.length, ordered.slice(offset, offset + limit).map((m) => m.name)],
                `${sort} ${descending ? 'desc' : 'asc'} text=${String(text)} offset=${offset}`,
              );
            }
          }
        }
      }
    });

    test('bulk changes and deletes answer in the order asked; the trash lists the latest first', async () => {
      const bulk = await robotNamed('bulk');
      const [a, b, c] = await store.rules.insert(
        bulk,
        [rule('B-1'), rule('B-2'), rule('B-3')],
        NOW,
        'tester',
      );
      assert.ok(a && b && c);
      const patched = await store.rules.patchMany(
        bulk,
        [c.ruleId, a.ruleId],
        { categoryId: '7' },
        NOW + 1,
        'tester',
      );
      assert.deepEqual(
        patched.map((r) => [r.ruleId, r.categoryId, r.updatedAt]),
        [
          [c.ruleId, '7', NOW + 1],
          [a.ruleId, '7', NOW + 1],
        ],
      );
      assert.deepEqual(
        await store.rules.patchMany(bulk, [a.ruleId], {}, NOW, 'tester'),
        [],
        'no fields',
      );
      const removed = await store.rules.remove(bulk, [c.ruleId, a.ruleId], NOW + 2, 'tester');
      assert.deepEqual(
        removed.map((r) => r.ruleId),
        [c.ruleId, a.ruleId],
      );
      await store.rules.remove(bulk, [b.ruleId], NOW + 3, 'tester');
      const trash = await store.rules.deleted(bulk, 10);
      assert.deepEqual(
        trash.map((r) => [r.ruleName, r.deletedAt]),
        [
          ['B-2', NOW + 3],
          ['B-1', NOW + 2],
          ['B-3', NOW + 2],
        ],
        'latest first, then in creation order',
      );
      assert.equal((await store.rules.deleted(bulk, 1)).length, 1);
      const back = await store.rules.restore(
        bulk,
        [c.ruleId, b.ruleId, a.ruleId],
        NOW + 4,
        'tester',
      );
      assert.deepEqual(
        back.map((r) => [r.ruleName, r.seq]),
        [
          ['B-3', c.seq],
          ['B-2', b.seq],
          ['B-1', a.seq],
        ],
        'in the order asked, each at its old position',
      );
      assert.deepEqual(await store.rules.seqs(bulk), [a.seq, b.seq, c.seq]);
      assert.equal((await store.rules.deleted(bulk, 10)).length, 0);
    });

    test('versions: publish what changed, compare, roll back, read a version', async () => {
      const pub = await robotNamed('published');
      const request = (note: string, now: number) => ({
        note,
        author: 'api',
        now,
        confirmedFailures: null,
      });
      assert.equal(await store.versions.latest(pub), undefined);
      assert.equal(await store.versions.draftDiffers(pub), true, 'without versions');
      const [a, b] = await store.rules.insert(pub, [rule('V-a'), rule('V-b')], NOW, 'tester');
      assert.ok(a && b);
      const first = await store.versions.publish(pub, request('first', NOW + 1));
      assert.deepEqual(first?.version, {
        version: 1,
        note: 'first',
        author: 'api',
        createdAt: NOW + 1,
        rules: 2,
        added: 2,
        changed: 0,
        removed: 0,
        rolledBackTo: null,
        confirmedFailures: null,
        modeSwitch: null,
      });
      assert.deepEqual(
        first?.opened.map((r) => r.ruleName),
        ['V-a', 'V-b'],
      );
      assert.equal(await store.versions.draftDiffers(pub), false);
      assert.equal(
        await store.versions.publish(pub, request('same', NOW + 2)),
        undefined,
        'nothing to publish',
      );
      // Changed back to what it was: no difference.
      await store.rules.update(pub, a.ruleId, { ...a, answer: 'other' }, NOW + 3, 'tester');
      assert.equal(await store.versions.draftDiffers(pub), true);
      await store.rules.update(pub, a.ruleId, a, NOW, 'tester');
      const fresh = await store.rules.find(pub, a.ruleId);
      assert.equal(fresh?.updatedAt, NOW);
      assert.equal(await store.versions.draftDiffers(pub), false, 'the same content again');
      await store.rules.update(pub, a.ruleId, { ...a, answer: 'changed' }, NOW + 4, 'tester');
      await store.rules.remove(pub, [b.ruleId], NOW + 4, 'tester');
      const [c] = await store.rules.insert(pub, [rule('V-c')], NOW + 4, 'tester');
      assert.ok(c);
      const second = await store.versions.publish(pub, {
        ...request('second', NOW + 5),
        confirmedFailures: '[1]',
      });
      assert.deepEqual(
        [second?.version.rules, second?.version.added, second?.version.changed],
        [2, 1, 1],
      );
      assert.equal(second?.version.removed, 1);
      assert.equal(second?.version.confirmedFailures, '[1]');
      assert.deepEqual(second?.closed.sort(), [a.ruleId, b.ruleId].sort());
      assert.deepEqual(
        (await store.versions.list(pub)).map((v) => v.version),
        [2, 1],
      );
      assert.equal((await store.versions.find(pub, 1))?.note, 'first');
      assert.equal(await store.versions.find(pub, 9), undefined);
      const v1 = await store.versions.rulesFrom(pub, 1, 0, 10);
      assert.deepEqual(
        v1.map((r) => [r.ruleName, r.answer]),
        [
          ['V-a', 'Answer for V-a'],
          ['V-b', 'Answer for V-b'],
        ],
      );
      // In pages: from a rule's position on, at most `limit`.
      const [firstOfV1] = await store.versions.rulesFrom(pub, 1, 0, 1);
      assert.deepEqual([firstOfV1?.ruleName], ['V-a']);
      assert.deepEqual(
        (await store.versions.rulesFrom(pub, 1, (firstOfV1?.seq ?? 0) + 1, 1)).map(
          (r) => r.ruleName,
        ),
        ['V-b'],
      );
      assert.deepEqual(
        (await store.versions.publishedMatchable(pub)).map((r) => r.ruleName),
        ['V-a', 'V-c'],
      );
      assert.equal(await store.versions.publishedAnswerOf(a.ruleId), 'changed');
      assert.equal(await store.versions.publishedAnswerOf(b.ruleId), undefined);
      assert.deepEqual(
        [...(await store.versions.publishedNamesOf([c.ruleId, b.ruleId, a.ruleId])).values()],
        ['V-c', 'V-a'],
      );
      const back = await store.versions.rollback(pub, 1, request('back', NOW + 6), 'tester');
      assert.ok(back);
      assert.equal(back.published.version.version, 3);
      assert.equal(back.published.version.rolledBackTo, 1);
      assert.deepEqual(
        back.draft.removed.map((r) => r.ruleName),
        ['V-a', 'V-c'],
      );
      assert.deepEqual(
        back.draft.added.map((r) => [r.ruleName, r.seq, r.answer, r.updatedAt]),
        [
          ['V-a', a.seq, 'Answer for V-a', NOW + 6],
          ['V-b', b.seq, 'Answer for V-b', NOW + 6],
        ],
      );
      assert.deepEqual(
        (
          await store.rules.query(pub, {
            offset: 0,
            limit: 10,
            sort: 'created',
            descending: false,
            now: NOW,
          })
        ).rows.map((r) => r.ruleName),
        ['V-a', 'V-b'],
      );
      assert.ok(
        (await store.rules.deleted(pub, 10)).some((r) => r.ruleId === c.ruleId),
        'what the rollback took out is in the trash',
      );
      assert.equal(await store.versions.draftDiffers(pub), false);
      assert.equal(await store.versions.rollback(pub, 9, request('x', NOW), 'tester'), undefined);
    });

    test('test sets: cases in order, updated and removed; runs kept newest first', async () => {
      const tested = await robotNamed('tested');
      assert.deepEqual(await store.testSets.cases(tested), []);
      const added = await store.testSets.add(
        tested,
        [
          { question: 'q1', expect: 'rule', ruleId: 'rule-x' },
          { question: 'q2', expect: 'fallback', ruleId: null },
          { question: 'q3', expect: 'recommend', ruleId: 'rule-y' },
        ],
        NOW,
      );
      assert.ok(added.every((c, i) => i === 0 || c.caseId > (added[i - 1]?.caseId ?? 0)));
      assert.deepEqual(await store.testSets.cases(tested), added);
      assert.equal((await store.testSets.cases(other)).length, 0, 'per robot');
      const [one, two, three] = added;
      assert.ok(one && two && three);
      const updated = await store.testSets.update(
        tested,
        two.caseId,
        { question: 'q2 again', expect: 'rule', ruleId: 'rule-z' },
        NOW + 1,
      );
      assert.deepEqual(updated, {
        caseId: two.caseId,
        question: 'q2 again',
        expect: 'rule',
        ruleId: 'rule-z',
        createdAt: NOW,
        updatedAt: NOW + 1,
      });
      assert.equal(
        await store.testSets.update(other, two.caseId, updated as TestCaseContent, NOW),
        undefined,
      );
      assert.equal(await store.testSets.remove(tested, [one.caseId, three.caseId, 999_999]), 2);
      assert.equal(await store.testSets.remove(other, [two.caseId]), 0);
      assert.deepEqual(
        (await store.testSets.cases(tested)).map((c) => c.question),
        ['q2 again'],
      );
      assert.deepEqual(await store.testSets.add(tested, [], NOW), []);
      const results = JSON.stringify([{ caseId: two.caseId, passed: true, text: '结果' }]);
      const first = await store.testSets.saveRun(tested, {
        edition: 'draft',
        createdAt: NOW,
        summary: '{"passed":1}',
        results,
      });
      const second = await store.testSets.saveRun(tested, {
        edition: 'v1',
        createdAt: NOW + 1,
        summary: '{"passed":0}',
        results: '[]',
      });
      assert.ok(second > first);
      assert.deepEqual(await store.testSets.runs(tested, 10), [
        { runId: second, edition: 'v1', createdAt: NOW + 1, summary: '{"passed":0}' },
        { runId: first, edition: 'draft', createdAt: NOW, summary: '{"passed":1}' },
      ]);
      assert.equal((await store.testSets.runs(tested, 1)).length, 1);
      assert.deepEqual(await store.testSets.run(tested, first), {
        runId: first,
        edition: 'draft',
        createdAt: NOW,
        summary: '{"passed":1}',
        results,
      });
      assert.equal(await store.testSets.run(other, first), undefined, 'per robot');
    });

    test('administrators are listed oldest first, then by name as bytes', async () => {
      for (const [userId, username] of [
        ['user-o2', 'b-later'],
        ['user-o1', 'B-later'],
      ] as const) {
        await store.users.insert(
          tenantId,
          { userId, username, usernameKey: username, role: 'ADMIN', passwordHash: 'h' },
          NOW + 100,
        );
      }
      const all = (await store.users.all()).map((u) => u.username);
      assert.deepEqual(all.slice(-2), ['B-later', 'b-later']);
      assert.ok(all.indexOf('Admin_01') < all.indexOf('B-later'));
    });

    test("a robot's change count moves at every write to its rules, never back, and only its own", async () => {
      const counted: RobotKey = { tenantId, robotId: 'counted' };
      await store.robots.insert({
        ...counted,
        name: 'Counted',
        secret: 'c'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      assert.equal(await store.rules.changeCount(counted), 0, 'no write yet');
      const seen = [0];
      const moved = async (what: string) => {
        const count = await store.rules.changeCount(counted);
        assert.ok(!seen.includes(count), `${what}: a count not seen before (${count})`);
        seen.push(count);
      };
      const othersBefore = await store.rules.changeCount(robot);
      const [a, b] = await store.rules.insert(
        counted,
        [rule('计数一'), rule('计数二')],
        NOW,
        'tester',
      );
      assert.ok(a && b);
      await moved('an import');
      await store.rules.update(
        counted,
        a.ruleId,
        { ...a, questions: ['计数的新问题'] },
        NOW,
        'tester',
      );
      await moved('an update');
      await store.rules.patchMany(counted, [b.ruleId], { active: false }, NOW, 'tester');
      await moved('a state change');
      await store.rules.remove(counted, [a.ruleId], NOW, 'tester');
      await moved('a deletion');
      await store.rules.restore(counted, [a.ruleId], NOW, 'tester');
      await moved('a restore');
      assert.equal(await store.rules.changeCount(robot), othersBefore, 'other robots keep theirs');
      assert.equal(await store.robots.purge(counted), true);
      await moved('a purge');
      await store.robots.insert({
        ...counted,
        name: 'Counted again',
        secret: 'c'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW + 1,
      });
      assert.equal(
        await store.rules.changeCount(counted),
        seen.at(-1),
        'made again: no count of before',
      );
      await store.rules.insert(counted, [rule('计数一')], NOW, 'tester');
      await moved('an import into the robot made again');
    });

    test("a robot's change count is the same however often it is read, after many writes", async () => {
      // Many single writes, then reads: the team server folds a robot's marks into one row as
      // it reads them (past 64); the count must not move for that, and must move at the next write.
      const many: RobotKey = { tenantId, robotId: 'many-writes' };
      await store.robots.insert({
        ...many,
        name: 'Many writes',
        secret: 'm'.repeat(43),
        settingsJson: '{}',
        createdAt: NOW,
      });
      const [first] = await store.rules.insert(many, [rule('写很多次')], NOW, 'tester');
      assert.ok(first);
      for (let i = 0; i < 80; i += 1)
        await store.rules.update(
          many,
          first.ruleId,
          { ...first, questions: [`写第${i}次`] },
          NOW,
          'tester',
        );
      const before = await store.rules.changeCount(many);
      assert.ok(before >= 81, `every write counted (${before})`);
      assert.equal(await store.rules.changeCount(many), before, 'a second read, the same count');
      assert.equal(await store.rules.changeCount(many), before, 'a third read, the same count');
      await store.rules.update(
        many,
        first.ruleId,
        { ...first, questions: ['最后一次'] },
        NOW,
        'tester',
      );
      const after = await store.rules.changeCount(many);
      assert.ok(after > before, `the next write moves it (${before} → ${after})`);
      assert.equal(await store.rules.changeCount(many), after);
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

    test('versions: unpublished changes listed, a rollback written back searchable, the draft discarded', async () => {
      const pub = await robotNamed('unpublished');
      const request = (note: string, now: number) => ({
        note,
        author: 'api',
        now,
        confirmedFailures: null,
      });
      assert.deepEqual(await store.versions.unpublished(pub, 10), { changes: [], more: false });
      assert.equal(await store.versions.discardDraft(pub, NOW, 'tester'), undefined, 'no version');
      const [a, b, c] = await store.rules.insert(
        pub,
        [rule('U-a', { answer: '七天无理由退货' }), rule('U-b'), rule('U-c')],
        NOW,
        'tester',
      );
      assert.ok(a && b && c);
      const first = await store.versions.publish(pub, {
        ...request('', NOW + 1),
        modeSwitch: 'review',
      });
      assert.equal(first?.version.modeSwitch, 'review', 'a fact of the version');
      // Edited and edited back, at another time: no change (only content counts).
      await store.rules.update(pub, b.ruleId, { ...b, answer: 'other' }, NOW + 2, 'tester');
      await store.rules.update(pub, b.ruleId, b, NOW + 3, 'tester');
      assert.equal(await store.versions.draftDiffers(pub), false);
      assert.equal(await store.versions.publish(pub, request('same', NOW + 3)), undefined);
      await store.rules.update(
        pub,
        a.ruleId,
        { ...a, answer: '十五天无理由退货' },
        NOW + 4,
        'tester',
      );
      const second = await store.versions.publish(pub, request('v2', NOW + 5));
      assert.deepEqual(
        [second?.version.added, second?.version.changed, second?.version.removed],
        [0, 1, 0],
      );
      // Unpublished: c changed, b removed, d added.
      await store.rules.update(pub, c.ruleId, { ...c, answer: 'new' }, NOW + 6, 'tester');
      await store.rules.remove(pub, [b.ruleId], NOW + 6, 'tester');
      const [d] = await store.rules.insert(pub, [rule('U-d')], NOW + 6, 'tester');
      assert.ok(d);
      const listed = await store.versions.unpublished(pub, 10);
      assert.equal(listed.more, false);
      assert.deepEqual(listed.changes.map((x) => [x.ruleName, x.change]).sort(), [
        ['U-b', 'removed'],
        ['U-c', 'changed'],
        ['U-d', 'added'],
      ]);
      const capped = await store.versions.unpublished(pub, 2);
      assert.deepEqual([capped.changes.length, capped.more], [2, true]);
      // A rollback to v1 replaces the three and a's edit: a version that changed a, b, c, d.
      const back = await store.versions.rollback(pub, 1, request('', NOW + 7), 'tester');
      assert.ok(back);
      const v3 = back.published.version;
      assert.deepEqual([v3.added, v3.changed, v3.removed], [0, 1, 0], 'counted against v2');
      const search = (text: string) =>
        store.rules.query(pub, {
          offset: 0,
          limit: 10,
          sort: 'created',
          descending: false,
          now: NOW,
          text,
        });
      for (const text of ['U-a', '七天', '问 U-b', 'U-c?']) {
        assert.equal(
          (await search(text)).rows.length,
          1,
          `the rules written back are found by ${text}`,
        );
      }
      assert.deepEqual((await store.versions.unpublished(pub, 10)).changes, []);
      // Discarded: the draft is the latest version again, no version written.
      await store.rules.update(pub, a.ruleId, { ...a, answer: '三十天' }, NOW + 8, 'tester');
      const [e] = await store.rules.insert(pub, [rule('U-e')], NOW + 8, 'tester');
      assert.ok(e);
      const reset = await store.versions.discardDraft(pub, NOW + 9, 'carol');
      assert.ok(reset);
      assert.deepEqual(reset.removed.map((r) => r.ruleName).sort(), ['U-a', 'U-e']);
      assert.deepEqual(
        reset.added.map((r) => [r.ruleName, r.answer, r.updatedBy]),
        [['U-a', '七天无理由退货', 'carol']],
      );
      assert.equal((await store.versions.latest(pub))?.version, 3);
      assert.equal(await store.versions.draftDiffers(pub), false);
      assert.equal((await search('七天')).rows.length, 1);
      assert.ok((await store.rules.deleted(pub, 10)).some((r) => r.ruleId === e.ruleId));
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
      const kept = await store.versions.rulesFrom(other, latest?.version ?? 0, 0, 100);
      assert.equal(kept.find((r) => r.ruleId === moved?.ruleId)?.updatedBy, 'erin');
    });

    test('editor sessions: kept by token hash, used, listed, ended and purged', async () => {
      const session = {
        tenantId,
        userId: 'user-1',
        createdAt: NOW,
        lastSeenAt: NOW,
        address: '203.0.113.7',
        userAgent: 'Firefox',
      };
      await store.sessions.insert('hash-a', session);
      await store.sessions.insert('hash-b', { ...session, createdAt: NOW - 10_000 });
      assert.deepEqual(await store.sessions.find('hash-a'), session);
      assert.equal(await store.sessions.find('hash-x'), undefined);
      assert.deepEqual(
        (await store.sessions.ofUser(tenantId, 'user-1')).map((s) => [s.tokenHash, s.createdAt]),
        [
          ['hash-a', NOW],
          ['hash-b', NOW - 10_000],
        ],
        'the newest first',
      );
      assert.deepEqual(await store.sessions.ofUser(tenantId, 'user-2'), []);
      await store.sessions.touch('hash-a', NOW + 500);
      assert.equal((await store.sessions.find('hash-a'))?.lastSeenAt, NOW + 500);
      assert.equal(await store.sessions.purgeExpired(NOW - 1, NOW - 1), 1, 'made too long ago');
      assert.equal(await store.sessions.find('hash-b'), undefined);
      assert.equal(await store.sessions.remove('hash-a'), true);
      assert.equal(await store.sessions.remove('hash-a'), false);
      const position = store.position;
      assert.equal(await store.sessions.purgeExpired(NOW, NOW), 0);
      assert.equal(store.position, position, 'nothing to purge writes nothing');
      await store.sessions.insert('hash-c', session);
      await store.sessions.insert('hash-d', session);
      assert.equal(await store.sessions.removeOfUser(tenantId, 'user-1'), 2);
      assert.deepEqual(await store.sessions.ofUser(tenantId, 'user-1'), []);
    });

    test("a password or role change, or deleting the user or its tenant, ends the user's sessions", async () => {
      const admin = (userId: string) => ({
        userId,
        username: userId,
        usernameKey: userId,
        role: 'ADMIN',
        passwordHash: 'scrypt$before',
      });
      const open = (hash: string, userId: string, tenant = tenantId) =>
        store.sessions.insert(hash, {
          tenantId: tenant,
          userId,
          createdAt: NOW,
          lastSeenAt: NOW,
          address: '',
          userAgent: '',
        });
      await store.users.insert(tenantId, admin('ends-1'), NOW);
      await store.users.insert(tenantId, admin('ends-2'), NOW);
      await open('ends-a', 'ends-1');
      await open('ends-b', 'ends-2');
      await store.users.update(tenantId, 'ends-1', { username: 'ends-one' }, NOW + 1);
      assert.ok(await store.sessions.find('ends-a'), 'a new username keeps the sessions');
      await store.users.update(tenantId, 'ends-1', { passwordHash: 'scrypt$after' }, NOW + 2);
      assert.equal(await store.sessions.find('ends-a'), undefined, 'a new password ends them');
      assert.ok(await store.sessions.find('ends-b'), "another user's stay");
      await open('ends-c', 'ends-1');
      await store.users.update(tenantId, 'ends-1', { role: 'EDITOR' }, NOW + 3);
      assert.equal(await store.sessions.find('ends-c'), undefined, 'a new role ends them');
      await store.users.remove(tenantId, 'ends-2', NOW + 4);
      assert.equal(await store.sessions.find('ends-b'), undefined, 'deleting the user ends them');
      await store.users.restore(tenantId, 'ends-2');
      assert.equal(await store.sessions.find('ends-b'), undefined, 'and a restore does not revive');
      const doomed = await store.tenants.register({
        tenant: { phoneNumber: '13800138000', mail: 'a@example.com', company: 'x', createdAt: NOW },
        admin: admin('ends-3'),
        robot: {
          robotId: 'default',
          name: 'Default robot',
          secret: 's'.repeat(43),
          settingsJson: '{}',
          createdAt: NOW,
        },
      });
      await open('ends-d', 'ends-3', doomed);
      await store.tenants.setDeleted(doomed, NOW + 5);
      assert.equal(await store.sessions.find('ends-d'), undefined, 'deleting the tenant ends them');
    });

    test('sign-in attempts: reserved per subject, decided on what is counted, released', async () => {
      const since = NOW - 1000;
      const seen: number[][] = [];
      const reserve = (id: string, at: number, record: string[]) =>
        store.signInFailures.reserve({ id, at, since }, ['s:x', 's:y'], (failures) => {
          seen.push([...(failures.get('s:x') ?? [])]);
          return { record, result: id };
        });
      assert.equal(await reserve('a1', NOW, ['s:x', 's:y']), 'a1');
      assert.equal(await reserve('a2', NOW + 10, ['s:x']), 'a2');
      assert.equal(await reserve('a3', NOW + 20, []), 'a3', 'a refusal records nothing');
      assert.deepEqual(seen, [[], [NOW], [NOW, NOW + 10]]);
      assert.deepEqual(await store.signInFailures.since('s:x', NOW - 1), [NOW, NOW + 10]);
      assert.deepEqual(await store.signInFailures.since('s:x', NOW + 5), [NOW + 10]);
      await store.signInFailures.release('a2', ['s:x', 's:y']);
      assert.deepEqual(await store.signInFailures.since('s:x', 0), [NOW]);
      assert.deepEqual(await store.signInFailures.since('s:y', 0), [NOW]);
      await store.signInFailures.clear('s:x');
      assert.deepEqual(await store.signInFailures.since('s:x', 0), []);
      assert.equal(await store.signInFailures.purge(NOW + 1), 1);
      assert.deepEqual(await store.signInFailures.since('s:y', 0), []);
    });

    test('sign-in attempts made at once are counted one after the other', async () => {
      const counted = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store.signInFailures.reserve(
            { id: `p${i}`, at: NOW, since: 0 },
            ['s:parallel'],
            (failures) => {
              const before = failures.get('s:parallel')?.length ?? 0;
              return { record: before < 5 ? ['s:parallel'] : [], result: before };
            },
          ),
        ),
      );
      assert.deepEqual(
        [...counted].sort((a, b) => a - b),
        [0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5],
      );
      assert.equal((await store.signInFailures.since('s:parallel', 0)).length, 5);
    });

    test('the addresses an account signed in from, remembered and forgotten', async () => {
      assert.equal(await store.signInFailures.isKnownClient('1/u', '198.51.100.1', 0), false);
      await store.signInFailures.rememberClient('1/u', '198.51.100.1', NOW);
      await store.signInFailures.rememberClient('1/u', '198.51.100.1', NOW + 50);
      assert.equal(await store.signInFailures.isKnownClient('1/u', '198.51.100.1', NOW + 50), true);
      assert.equal(
        await store.signInFailures.isKnownClient('1/u', '198.51.100.1', NOW + 51),
        false,
      );
      assert.equal(await store.signInFailures.isKnownClient('1/u', '198.51.100.2', 0), false);
      assert.equal(await store.signInFailures.isKnownClient('1/v', '198.51.100.1', 0), false);
      assert.equal(await store.signInFailures.forgetClients(NOW + 50), 0);
      assert.equal(await store.signInFailures.forgetClients(NOW + 51), 1);
      assert.equal(await store.signInFailures.isKnownClient('1/u', '198.51.100.1', 0), false);
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

    test('the vector cache keeps vectors by (model, text), the first one kept, across a reopen', async () => {
      const position = store.position;
      const v = (values: number[], scale: number) => ({ values: Int8Array.from(values), scale });
      assert.equal((await store.vectors.get('m', ['a', 'b'])).size, 0);
      await store.vectors.put(
        'm',
        new Map([
          ['a', v([1, -2, 127], 0.5)],
          ['问', v([3, 4, -128], 0.25)],
        ]),
      );
      await store.vectors.put('m', new Map([['a', v([9, 9, 9], 1)]]));
      await store.vectors.put('other', new Map([['a', v([5], 2)]]));
      const found = await store.vectors.get('m', ['a', '问', 'b']);
      assert.deepEqual([...found.keys()].sort(), ['a', '问']);
      assert.deepEqual(found.get('a'), v([1, -2, 127], 0.5));
      assert.deepEqual(found.get('问'), v([3, 4, -128], 0.25));
      assert.deepEqual((await store.vectors.get('other', ['a'])).get('a'), v([5], 2));
      assert.equal(
        store.position,
        position,
        'a cached vector is not a write of the knowledge base',
      );
      await store.close();
      store = await factory.open(location);
      assert.deepEqual((await store.vectors.get('m', ['a'])).get('a'), v([1, -2, 127], 0.5));
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
