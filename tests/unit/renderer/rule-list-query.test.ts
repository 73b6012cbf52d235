import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleListParams } from '../../../renderer/api/rule-list-params';

test('the “no category” filter reaches the service as category= (not dropped as empty)', () => {
  // What the toolbar's filters make of "(no category)" (rules-grid/rule-query.ts).
  const params = new URLSearchParams(ruleListParams({ category: '', q: '' }));
  assert.equal(params.get('category'), '');
  assert.equal(params.has('q'), false, 'an empty search is left out');
  assert.equal(new URLSearchParams(ruleListParams({})).has('category'), false);
  assert.equal(
    ruleListParams({ category: '7', q: '退货', limit: 8 }),
    'category=7&q=%E9%80%80%E8%B4%A7&limit=8',
  );
});
