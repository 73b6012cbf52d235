import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsoleRobotSettings } from '../../../electron/service/console-types';
import {
  atDefault,
  checkDraft,
  cleanSynonyms,
  draftOf,
  isDirty,
  resetField,
  toPatch,
  withValue,
} from '../../../renderer/features/robot-settings/settings-form';

const SAVED: ConsoleRobotSettings = {
  language: 'en',
  bestmatchThreshold: 0.94,
  recommendThreshold: 0.1,
  margin: 0.1,
  maxRecommend: 5,
  recommendText: 'Did you mean one of these questions?',
  fallbackText: 'Sorry.',
  synonyms: [['充值', 'top up']],
  logRetentionDays: 90,
  logMaxMegabytes: 500,
  chitChat: true,
  persona: 'your virtual assistant',
  chitChatAnswers: {},
  publishMode: 'live',
  impactGatePercent: 100,
  embeddingMode: 'default',
  embeddingApi: 'openai',
  embeddingBase: '',
  embeddingModel: '',
  embeddingTimeoutMs: 300,
};

test('the saved settings are a valid, unchanged form', () => {
  const draft = draftOf(SAVED);
  assert.equal(checkDraft(draft).size, 0);
  assert.ok(!isDirty(draft, SAVED));
  assert.deepEqual(toPatch(draft, SAVED), {});
});

test('only the changed settings are sent, numbers as numbers, synonyms tidied', () => {
  const draft = {
    ...draftOf(SAVED),
    fallbackText: '抱歉。',
    recommendThreshold: '0,2',
    synonyms: [
      ['充值', ' top up ', ''],
      ['', ''],
      ['退货', '退回'],
    ],
  };
  assert.equal(checkDraft(draft).size, 0);
  assert.ok(isDirty(draft, SAVED));
  assert.deepEqual(toPatch(draft, SAVED), {
    fallbackText: '抱歉。',
    recommendThreshold: 0.2,
    synonyms: [
      ['充值', 'top up'],
      ['退货', '退回'],
    ],
  });
  assert.deepEqual(cleanSynonyms([[''], ['a', ' ', 'b']]), [['a', 'b']]);
});

const DEFAULTS: ConsoleRobotSettings = {
  ...SAVED,
  bestmatchThreshold: 0.9,
  fallbackText: "Sorry, I don't have an answer to that yet.",
  synonyms: [],
};

test('a setting sent back to its default shows the default and is saved as null', () => {
  const draft = draftOf(SAVED);
  assert.ok(!atDefault(draft, 'fallbackText', DEFAULTS));
  assert.ok(atDefault(draft, 'recommendText', DEFAULTS));
  assert.ok(atDefault({ ...draft, maxRecommend: ' 5 ' }, 'maxRecommend', DEFAULTS));
  const reset = resetField(
    resetField(draft, 'fallbackText', DEFAULTS),
    'bestmatchThreshold',
    DEFAULTS,
  );
  assert.equal(reset.fallbackText, DEFAULTS.fallbackText);
  assert.equal(reset.bestmatchThreshold, '0.9');
  assert.ok(atDefault(reset, 'fallbackText', DEFAULTS));
  assert.ok(isDirty(reset, SAVED));
  assert.deepEqual(toPatch(reset, SAVED), { fallbackText: null, bestmatchThreshold: null });
  // Typing in it again makes it a value of its own.
  const typed = withValue(reset, 'fallbackText', 'Sorry.');
  assert.deepEqual(typed.reset, ['bestmatchThreshold']);
  assert.deepEqual(toPatch(typed, SAVED), { bestmatchThreshold: null });
});

test('a new language is sent on its own', () => {
  const draft = { ...draftOf(SAVED), language: 'zh' as const };
  assert.ok(isDirty(draft, SAVED));
  assert.deepEqual(toPatch(draft, SAVED), { language: 'zh' });
});

test('each problem is found on its field, with the service’s limits', () => {
  const problems = checkDraft({
    ...draftOf(SAVED),
    fallbackText: '  ',
    bestmatchThreshold: '1.5',
    recommendThreshold: 'abc',
    maxRecommend: '0',
    margin: '',
    synonyms: [['充值'], ['a', 'x'.repeat(51)]],
  });
  assert.equal(problems.get('fallbackText')?.keyword, 'pattern');
  assert.equal(problems.get('bestmatchThreshold')?.keyword, 'maximum');
  assert.equal(problems.get('recommendThreshold')?.keyword, 'type');
  assert.equal(problems.get('maxRecommend')?.keyword, 'minimum');
  assert.equal(problems.get('margin')?.keyword, 'required');
  assert.equal(problems.get('synonyms[0]')?.keyword, 'minItems');
  assert.equal(problems.get('synonyms[1][1]')?.keyword, 'maxLength');
  assert.equal(problems.get('synonyms[1][1]')?.field, 'synonyms[1][1]');
});

test('the suggestion threshold may not be above the best-match threshold', () => {
  const problems = checkDraft({ ...draftOf(SAVED), recommendThreshold: '0.95' });
  assert.deepEqual(problems.get('recommendThreshold'), {
    field: 'recommendThreshold',
    keyword: 'not-above',
    params: { other: 'bestmatchThreshold' },
  });
});
