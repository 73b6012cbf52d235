import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLICK_WINDOW_MS, ClickMemory } from '../../../electron/service/question-log/click-memory';

const items = [
  { ruleId: 'r1', question: 'How do I reset my PIN?' },
  { ruleId: 'r2', question: 'How do I reset my password' },
];

test('the next question of the same user, one of the items (case and spaces aside), within the window, is a choice', () => {
  const memory = new ClickMemory();
  assert.equal(memory.take('u', 0, 'how do i reset', items), null);
  assert.deepEqual(memory.take('u', 1000, ' how do I reset my pin? ', null), {
    question: 'how do i reset',
    ruleId: 'r1',
  });
  // The offer is used up.
  assert.equal(memory.take('u', 2000, 'how do I reset my password', null), null);
});

test('another question, another user or a late one is no choice', () => {
  const memory = new ClickMemory();
  memory.take('u', 0, 'how do i reset', items);
  assert.equal(memory.take('v', 10, 'How do I reset my PIN?', null), null);
  assert.equal(memory.take('u', 20, 'something else', null), null);
  assert.equal(memory.take('u', 30, 'How do I reset my PIN?', null), null, 'the offer ended');
  memory.take('w', 0, 'how do i reset', items);
  assert.equal(memory.take('w', CLICK_WINDOW_MS + 1, 'How do I reset my PIN?', null), null);
});

test('bounded: the least recently seen users are forgotten first', () => {
  const memory = new ClickMemory(3);
  for (const user of ['a', 'b', 'c', 'd']) memory.take(user, 0, 'q', items);
  assert.equal(memory.size, 3);
  assert.equal(memory.take('a', 1, 'How do I reset my PIN?', null), null);
  assert.equal(memory.take('d', 1, 'How do I reset my PIN?', null)?.ruleId, 'r1');
});

test('spaces around the shown item count no more than around the question', () => {
  const memory = new ClickMemory();
  const spaced = [
    { ruleId: 'r1', question: '  Reset my PIN ' },
    { ruleId: 'r2', question: 'Reset my PIN?' },
  ];
  memory.take('u', 0, 'pin', spaced);
  assert.equal(memory.take('u', 1, 'reset my pin', null)?.ruleId, 'r1');
  memory.take('u', 2, 'pin', spaced);
  assert.equal(memory.take('u', 3, 'RESET MY PIN?', null)?.ruleId, 'r2');
  memory.take('u', 4, 'pin', spaced);
  assert.equal(memory.take('u', 5, 'reset my pi', null), null, 'a prefix is not the item');
});
