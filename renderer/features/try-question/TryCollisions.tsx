import type { TryResult } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import { collisionsForAnswer } from '../collisions/collision-index';
import { CollisionItem } from '../collisions/CollisionItem';
import type { CollisionCheck } from '../collisions/useCollisions';

/**
 * The collisions behind this answer, below its explanation: only findings between the rule
 * answered (or a rule recommended) and a rule competing for the same question, from the last
 * check (a run after edits is shown as under way).
 */
export function TryCollisions({
  result,
  check,
  onOpenRule,
}: {
  result: TryResult;
  check: CollisionCheck;
  onOpenRule: (ruleId: string) => void;
}) {
  const { t } = useI18n();
  const collisions = collisionsForAnswer(check.byRule, result);
  if (collisions.length === 0) return null;
  return (
    <section
      className="try-collisions"
      aria-label={t('try.collisions')}
      data-testid="try-collisions"
    >
      <h3>
        ⇄ {t('try.collisions')}
        {check.computing ? <span className="hint"> · {t('conflicts.checking')}</span> : null}
      </h3>
      <p className="hint">{t('try.collisionsHint')}</p>
      <ul className="collision-list">
        {collisions.map((collision) => (
          <CollisionItem key={collision.key} collision={collision} onOpenRule={onOpenRule} />
        ))}
      </ul>
    </section>
  );
}
