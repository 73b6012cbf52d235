/**
 * Upserting a rule exactly as the index holds it changes nothing (a team server's node follows
 * its own writes back from the change feed): no new version, so collision reports and the
 * calibration made at this version stay current. Any difference is a change.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRobotIndex } from '../../../electron/service/matching/index';
import type { MatchableRule } from '../../../electron/service/matching/types';
import { matchableRule } from '../../helpers/matchable-rule';

const refund = (): MatchableRule =>
  matchableRule('r1', ['怎么退款', '退款多久到账'], { ruleName: '退款' });
const hours = (): MatchableRule =>
  matchableRule('r2', ['opening hours', 'when do you open'], {
    ruleName: 'hours',
    matchPolicy: 'exact',
    negativeKeywords: ['holiday'],
  });

test('the same rule again keeps the version; every kind of difference bumps it', () => {
  const index = createRobotIndex();
  index.upsert(refund());
  index.upsert(hours());
  const version = index.version ?? -1;
  index.upsert(refund());
  index.upsert(hours());
  assert.equal(index.version, version, 'the same rules again');

  const changes: MatchableRule[] = [
    { ...refund(), ruleName: '退款说明' },
    { ...refund(), questions: ['怎么退款'] },
    { ...refund(), questions: ['退款多久到账', '怎么退款'] },
    { ...refund(), active: false },
    { ...refund(), effectEndMs: Date.UTC(2027, 0, 1) },
    { ...refund(), effectBeginMs: Date.UTC(2026, 0, 1) },
    { ...refund(), negativeKeywords: ['信用卡'] },
    { ...refund(), matchPolicy: 'contains' },
    { ...hours(), negativeKeywords: [] },
    { ...hours(), matchPolicy: 'similarity' },
  ];
  for (const changed of changes) {
    const before = index.version ?? -1;
    index.upsert(changed);
    assert.ok((index.version ?? -1) > before, JSON.stringify(changed));
    index.upsert(changed);
    assert.equal(index.version, before + 1, `again: ${JSON.stringify(changed)}`);
    index.upsert(changed.ruleId === 'r1' ? refund() : hours());
  }
});
