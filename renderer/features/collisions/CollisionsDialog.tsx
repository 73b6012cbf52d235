import { Dialog } from '../../components/Dialog';
import { useI18n } from '../../i18n/useI18n';
import type { RuleCollision } from './collision-index';
import { groupByCause } from './collision-index';
import { CollisionItem } from './CollisionItem';

/**
 * A rule's collisions grouped by cause, each cause with what it means, each finding with its
 * labelled score and a way to the other rule.
 */
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
  const { t } = useI18n();
  return (
    <Dialog
      title={t('conflicts.title', { rule: ruleName })}
      onClose={onClose}
      wide
      testId="collisions-dialog"
    >
      {groupByCause(collisions).map(({ cause, collisions: group }) => (
        <section
          key={cause}
          className="collision-group"
          data-testid="collision-group"
          data-cause={cause}
        >
          <h3>{t(`conflicts.cause.${cause}`)}</h3>
          <p className="hint">{t(`conflicts.means.${cause}`)}</p>
          <ul className="collision-list">
            {group.map((collision) => (
              <CollisionItem key={collision.key} collision={collision} onOpenRule={onOpenRule} />
            ))}
          </ul>
        </section>
      ))}
    </Dialog>
  );
}
