import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRoute, routeHash } from '../../../renderer/lib/workspace/route';

test('a try-pane link keeps its question through the address, Chinese and slashes included', () => {
  const route = {
    kind: 'robot',
    tenantId: 3,
    robotId: 'default',
    tryQuestion: '怎么退货/换货？',
  } as const;
  const hash = routeHash(route);
  assert.equal(hash, `#/tenants/3/robots/default/try/${encodeURIComponent('怎么退货/换货？')}`);
  assert.deepEqual(parseRoute(hash), route);
});

test('a rule link and the plain grid are unchanged', () => {
  assert.deepEqual(parseRoute('#/tenants/3/robots/default/rules/r1'), {
    kind: 'robot',
    tenantId: 3,
    robotId: 'default',
    ruleId: 'r1',
  });
  assert.equal(
    routeHash({ kind: 'robot', tenantId: 3, robotId: 'default' }),
    '#/tenants/3/robots/default',
  );
});
