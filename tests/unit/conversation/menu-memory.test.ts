import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MenuMemory, entryNumber } from '../../../electron/service/conversation/menu-memory';

const ITEMS = [
  { number: 1, ruleId: 'a', question: '退货', score: 1 },
  { number: 2, ruleId: 'b', question: 'Refund status', score: 1 },
];

test('entry numbers in the forms people type them', () => {
  for (const [reply, number] of [
    ['2', 2],
    ['２', 2],
    [' 2. ', 2],
    ['#2', 2],
    ['no 2', 2],
    ['Option 12', 12],
    ['第2个', 2],
    ['第二项', 2],
    ['二', 2],
    ['选3', 3],
    ['十一', 11],
  ] as const) {
    assert.equal(entryNumber(reply), number, reply);
  }
  for (const reply of ['2 items please', 'refund 2', '', '第', 'two hundred']) {
    assert.equal(entryNumber(reply), null, reply);
  }
});

test('a menu is open for its user and robot, for its window, by number or text', () => {
  const memory = new MenuMemory(1000, 10);
  memory.remember('t/r', 'u1', ITEMS, 0);
  assert.equal(memory.choice('t/r', 'u1', '2', 10)?.ruleId, 'b');
  assert.equal(memory.choice('t/r', 'u1', 'REFUND  status!', 10)?.ruleId, 'b');
  assert.equal(memory.choice('t/r', 'u1', '退貨', 10)?.ruleId, 'a', 'Traditional as Simplified');
  assert.equal(memory.choice('t/r', 'u1', '3', 10), undefined, 'no such entry');
  assert.equal(memory.choice('t/r', 'u2', '1', 10), undefined, 'another user');
  assert.equal(memory.choice('t/other', 'u1', '1', 10), undefined, 'another robot');
  assert.equal(memory.choice('t/r', 'u1', '1', 1001), undefined, 'the window is over');
  assert.equal(memory.size, 0, 'an expired menu is forgotten');
});

test('the least recently seen users are forgotten first', () => {
  const memory = new MenuMemory(1000, 2);
  memory.remember('r', 'u1', ITEMS, 0);
  memory.remember('r', 'u2', ITEMS, 0);
  memory.remember('r', 'u3', ITEMS, 0);
  assert.equal(memory.size, 2);
  assert.equal(memory.choice('r', 'u1', '1', 1), undefined);
  assert.equal(memory.choice('r', 'u3', '1', 1)?.ruleId, 'a');
});
