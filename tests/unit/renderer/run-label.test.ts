import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMessage } from '../../../renderer/i18n/format-message';
import type { Locale, Translate } from '../../../renderer/i18n/types';
import { runLabel } from '../../../renderer/features/test-sets/run-label';
import { shownRobotName } from '../../../renderer/i18n/robot-name';

const t =
  (locale: Locale): Translate =>
  (key, params) =>
    formatMessage(locale, key, params);

test('a kept test run is named by what it tested and when, never by the service’s run id', () => {
  const when = '2026年11月27日 16:20';
  assert.equal(runLabel(t('zh-CN'), { edition: 'draft' }, when), `${when} 测试草稿`);
  assert.equal(runLabel(t('zh-CN'), { edition: 'v3' }, when), `${when} 测试版本 v3`);
  assert.equal(runLabel(t('zh-CN'), { edition: 'published' }, when), `${when} 测试已发布版本`);
  assert.equal(
    runLabel(t('en'), { edition: 'draft' }, 'Nov 27, 4:20 PM'),
    'Draft tested Nov 27, 4:20 PM',
  );
  assert.equal(runLabel(t('en'), { edition: 'v3' }, 'x'), 'Version v3 tested x');
  for (const edition of ['draft', 'published', 'v12', 'something-new']) {
    const zh = runLabel(t('zh-CN'), { edition }, when);
    // Nothing English or internal in Chinese: the version's "v" is the product's own notation.
    assert.doesNotMatch(zh.replace(/v\d+/, ''), /[A-Za-z#]/, zh);
    assert.doesNotMatch(runLabel(t('en'), { edition }, 'x'), /#|draft\b|something/, edition);
  }
  // The comparison heading names both runs the same way.
  const a = runLabel(t('zh-CN'), { edition: 'draft' }, when);
  const b = runLabel(t('zh-CN'), { edition: 'v2' }, when);
  assert.equal(t('zh-CN')('tests.comparison', { a, b }), `比较：${a} → ${b}`);
});

test('the first robot’s default name is said in the editor’s language; a given name as given', () => {
  for (const stored of ['Default robot', '默认机器人']) {
    const robot = { robotId: 'default', name: stored };
    assert.equal(shownRobotName(t('zh-CN'), robot), '默认机器人');
    assert.equal(shownRobotName(t('en'), robot), 'Default robot');
  }
  assert.equal(shownRobotName(t('zh-CN'), { robotId: 'default', name: 'Shop bot' }), 'Shop bot');
  assert.equal(
    shownRobotName(t('zh-CN'), { robotId: 'r2', name: 'Default robot' }),
    'Default robot',
  );
});
