import type { CollisionFinding } from '../../../electron/service/console-types';
import type { I18n } from '../../i18n/i18n-context';
import type { Translate } from '../../i18n/types';
import { isChecked } from './collision-index';

/**
 * A finding as a sentence naming both rules (the same from either side). What it says about
 * asking was checked by asking (the report makes no other such claim); the risks say "may".
 */
export function describeCollision(t: Translate, finding: CollisionFinding): string {
  const params = {
    rule: finding.ruleName,
    question: finding.question,
    other: finding.otherRuleName,
    otherQuestion: finding.otherQuestion,
  };
  const excluded =
    finding.keyword !== undefined
      ? t('conflicts.say.excluded', { rule: finding.ruleName, keyword: finding.keyword })
      : '';
  switch (finding.cause) {
    case 'asked-elsewhere':
      return t('conflicts.say.asked-elsewhere', { ...params, reason: excluded }).trim();
    case 'asked-unanswered': {
      // Another rule scored 1: it has the same phrasing.
      const shared = finding.otherRuleId !== finding.ruleId && finding.score >= 1;
      const reason = shared ? t('conflicts.say.shared', params) : excluded;
      return t('conflicts.say.asked-unanswered', { ...params, reason }).trim();
    }
    case 'slot-unnamed': {
      const answeredId = finding.asked?.ruleId;
      return t('conflicts.say.slot-unnamed', {
        ...params,
        word: finding.words?.[0] ?? '',
        otherWord: finding.words?.[1] ?? '',
        frame: finding.asked?.question ?? '',
        answered: answeredId === finding.ruleId ? finding.ruleName : finding.otherRuleName,
      });
    }
    case 'reads-like-other':
      return t('conflicts.say.reads-like-other', params);
    case 'near-duplicate':
      return t('conflicts.say.near-duplicate', params);
  }
}

/** The finding's score with what it measures: "相似度 0.93", "answer score 1". */
export function scoreLabel(
  t: Translate,
  formatNumber: I18n['formatNumber'],
  finding: CollisionFinding,
): { text: string; tip: string } {
  // Two digits, as the try pane gives its scores.
  const score = formatNumber(finding.score, { maximumFractionDigits: 2 });
  return isChecked(finding.cause)
    ? { text: t('conflicts.score', { score }), tip: t('try.scoreTip') }
    : { text: t('conflicts.similarity', { score }), tip: t('conflicts.similarityTip') };
}
