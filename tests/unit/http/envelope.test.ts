import assert from 'node:assert/strict';
import { test } from 'node:test';
import { success, successJsonInSlices } from '../../../electron/service/http/envelope';

test('an envelope serialised in slices is the same text as JSON.stringify of it', async () => {
  const succeed = Array.from({ length: 3000 }, (_, i) => ({
    ruleId: `r${i}`,
    ruleName: `退货 "${i}" \\ 😀`,
    questions: ['一', 'two\nlines'],
    active: null,
    skipped: undefined,
  }));
  const data = {
    failInfo: [{ index: 4, code: 'invalid-field', msg: 'x' }],
    succeed,
    none: undefined,
  };
  assert.equal(await successJsonInSlices(data), JSON.stringify(success(data)));
  const empty = { failInfo: [], succeed: [], total: 0 };
  assert.equal(await successJsonInSlices(empty), JSON.stringify(success(empty)));
});
