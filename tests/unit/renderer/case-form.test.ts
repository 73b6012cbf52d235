import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../../renderer/api/api-error';
import {
  acceptedCase,
  caseErrorsOf,
  caseInputOf,
  EMPTY_CASE,
} from '../../../renderer/features/test-sets/case-form';
import type { CaseDraft } from '../../../renderer/features/test-sets/case-form';
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Translate } from '../../../renderer/i18n/types';
import type { CaseResult } from '../../../electron/service/publishing-types';

const t: Translate = (key, params) => formatMessage('zh-CN', key, params);
const typed = (text: string): CaseDraft => ({
  question: '怎么退货',
  expect: 'rule',
  rule: { text, rule: null },
});

test('a case sends the rule picked by id, a name typed as a name, nothing without a question', () => {
  assert.deepEqual(caseInputOf(t, { ...EMPTY_CASE, question: '  ' }), {
    errors: { question: t('tests.needQuestion') },
  });
  assert.deepEqual(caseInputOf(t, { ...typed(''), expect: 'recommend' }), {
    errors: { rule: t('tests.pickRule') },
  });
  const picked: CaseDraft = {
    ...typed('退货政策'),
    rule: { text: '退货政策', rule: { ruleId: 'r1', ruleName: '退货政策' } },
  };
  assert.deepEqual(caseInputOf(t, picked), {
    input: { question: '怎么退货', expect: 'rule', ruleId: 'r1' },
  });
  assert.deepEqual(caseInputOf(t, typed(' 退货政策 ')), {
    input: { question: '怎么退货', expect: 'rule', ruleName: '退货政策' },
  });
  assert.deepEqual(caseInputOf(t, { ...typed('x'), expect: 'fallback' }), {
    input: { question: '怎么退货', expect: 'fallback' },
  });
});

test('a rule name the service does not know is said at the rule field, naming what was typed', () => {
  const refused = new ApiError(400, 'rule-not-found', 'no rule', {
    field: 'cases.0.ruleName',
    keyword: 'rule-not-found',
  });
  const errors = caseErrorsOf(t, refused, typed('退或政策'));
  assert.deepEqual(Object.keys(errors), ['rule']);
  assert.equal(errors.rule, t('tests.noSuchRule', { name: '退或政策' }));
  assert.notEqual(errors.rule, t('errors.ruleNotFound'));
  const deleted = caseErrorsOf(t, refused, {
    ...typed('退货政策'),
    rule: { text: '退货政策', rule: { ruleId: 'r1', ruleName: '退货政策' } },
  });
  assert.equal(deleted.rule, t('tests.ruleDeleted'));
  const other = caseErrorsOf(t, new ApiError(500, 'internal-error', 'boom'), typed('a'));
  assert.deepEqual(Object.keys(other), ['form']);
});

test('accepting what a failed case got makes the case expect it', () => {
  const result = (kind: CaseResult['got']['kind'], ruleIds: string[]): CaseResult => ({
    caseId: 1,
    question: 'q',
    expect: 'fallback',
    ruleId: null,
    status: 'failed',
    change: 'new',
    score: 0.9,
    got: { kind, ruleIds, ruleName: null },
  });
  assert.deepEqual(acceptedCase(result('bestmatch', ['r2'])), {
    question: 'q',
    expect: 'rule',
    ruleId: 'r2',
  });
  assert.deepEqual(acceptedCase(result('recommend', ['r3', 'r4'])), {
    question: 'q',
    expect: 'recommend',
    ruleId: 'r3',
  });
  assert.deepEqual(acceptedCase(result('none', [])), { question: 'q', expect: 'fallback' });
});
