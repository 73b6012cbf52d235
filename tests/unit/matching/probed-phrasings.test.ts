/**
 * The self-test's sample of phrasings is picked without listing every live phrasing first: it
 * must be the same sample as that list's even spread (every phrasing when they are few, else
 * the (i·stride)-th live one), through removals and replacements that leave dead phrasings.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RuleStore } from '../../../electron/service/matching/rule-store';
import { probedPhrasings } from '../../../electron/service/matching/self-test';

function reference(store: RuleStore, limit: number): number[] {
  const live: number[] = [];
  for (let p = 0; p < store.phrasingTotal; p += 1) {
    if ((store.phrasingRule[p] ?? -1) >= 0) live.push(p);
  }
  if (live.length <= limit) return live;
  const stride = live.length / limit;
  return Array.from({ length: limit }, (_, i) => live[Math.floor(i * stride)] as number);
}

test('the probed phrasings are the even spread of the live ones', () => {
  const store = new RuleStore();
  assert.deepEqual(probedPhrasings(store, 10), []);
  const rule = (i: number, questions: string[]) => ({
    ruleId: `r${i}`,
    ruleName: `rule ${i}`,
    questions,
    active: true,
    effectBeginMs: null,
    effectEndMs: null,
  });
  for (let i = 0; i < 300; i += 1) {
    store.upsert(
      rule(
        i,
        Array.from({ length: 1 + (i % 4) }, (_, k) => `question ${i} ${k}`),
      ),
    );
  }
  for (let i = 0; i < 300; i += 7) store.remove(`r${i}`);
  for (let i = 1; i < 300; i += 5) store.upsert(rule(i, [`again ${i}`]));
  let live = 0;
  for (let p = 0; p < store.phrasingTotal; p += 1)
    if ((store.phrasingRule[p] ?? -1) >= 0) live += 1;
  assert.ok(live < store.phrasingTotal, 'some phrasings are dead');
  for (const limit of [1, 2, 3, 7, 64, 97, 250, live - 1, live, live + 1, 5000]) {
    assert.deepEqual(probedPhrasings(store, limit), reference(store, limit), `limit ${limit}`);
  }
});
