import { Dialog } from '../../components/Dialog';
import { useI18n } from '../../i18n/useI18n';
import type { RuleCollision } from './collision-index';
import { describeCollision } from './describe-collision';

/** A rule's collisions, each with a way to the other rule. */
export function CollisionsDialog({
  ruleName,
  collisions,
  onOpenRule,
  onClose,
}: {
  ruleName: string;
  collisions: readonly RuleCollision[];
  onOpenRule: (ruleId: string) => void;
  onClose: () => void;
}) {
  const { t, formatNumber } = useI18n();
  return (
    <Dialog
      title={t('conflicts.title', { rule: ruleName })}
      onClose={onClose}
      wide
      testId="collisions-dialog"
    >
      <p className="hint">{t('conflicts.hint')}</p>
      <ul className="collision-list">
        {collisions.map((collision) => (
          <li
            key={`${collision.kind}\u0000${collision.otherRuleId}\u0000${collision.question}`}
            className="collision-item"
            data-testid="collision-item"
          >
            <span>{describeCollision(t, collision)}</span>
            <span className="collision-actions">
              <span className="muted" title={t('try.scoreTip')}>
                {formatNumber(collision.score, { maximumFractionDigits: 2 })}
              </span>
              <button
                type="button"
                className="button button-small"
                onClick={() => onOpenRule(collision.otherRuleId)}
              >
                {t('conflicts.open', { rule: collision.otherRuleName })}
              </button>
            </span>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
