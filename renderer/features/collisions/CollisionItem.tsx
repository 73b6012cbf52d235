import { useI18n } from '../../i18n/useI18n';
import type { RuleCollision } from './collision-index';
import { describeCollision, scoreLabel } from './describe-collision';

/** One finding: its sentence, its labelled score, and a way to the other rule. */
export function CollisionItem({
  collision,
  onOpenRule,
}: {
  collision: RuleCollision;
  onOpenRule: (ruleId: string) => void;
}) {
  const { t, formatNumber } = useI18n();
  const score = scoreLabel(t, formatNumber, collision.finding);
  return (
    <li
      className="collision-item"
      data-testid="collision-item"
      data-cause={collision.finding.cause}
    >
      <span>{describeCollision(t, collision.finding)}</span>
      <span className="collision-actions">
        <span className="muted collision-score" title={score.tip}>
          {score.text}
        </span>
        {collision.otherRuleId === collision.finding.ruleId &&
        collision.otherRuleId === collision.finding.otherRuleId ? null : (
          <button
            type="button"
            className="button button-small"
            onClick={() => onOpenRule(collision.otherRuleId)}
          >
            {t('conflicts.open', { rule: collision.otherRuleName })}
          </button>
        )}
      </span>
    </li>
  );
}
