import type { CollisionCheck } from '../collisions/useCollisions';
import { useI18n } from '../../i18n/useI18n';
import type { PhrasingOutcome } from '../../lib/rules/phrasing';
import { TryCandidates } from './TryCandidates';
import { TryCollisions } from './TryCollisions';
import { TryDetails } from './TryDetails';
import { TryVerdict } from './TryVerdict';
import type { TryOutcome } from './useTryQuestion';

export function TryResultView({
  outcome,
  onOpenRule,
  onAddPhrasing,
  onChoose,
  collisions,
}: {
  outcome: TryOutcome;
  collisions: CollisionCheck;
  /** Answers a MENU by an entry's number, as the customer would. */
  onChoose?: (number: number) => void;
  onOpenRule: (ruleId: string) => void;
  onAddPhrasing: (ruleId: string, question: string) => Promise<PhrasingOutcome>;
}) {
  const { t, formatDateTime } = useI18n();
  const { question, asOf, answer, skipped } = outcome;
  return (
    <div className="try-result" data-testid="try-result">
      <p className="try-asked" data-testid="try-asked">
        {t('try.asked')} <q>{question}</q>
        {asOf ? (
          <span className="try-as-of" data-testid="try-as-of">
            {' '}
            {t('try.askedAsOf', { date: formatDateTime(asOf) })}
          </span>
        ) : null}
      </p>
      <TryVerdict result={answer} skipped={skipped} onChoose={onChoose} />
      <h3>{t('try.candidates')}</h3>
      <TryCandidates
        key={question}
        question={question}
        candidates={answer.candidates}
        onOpenRule={onOpenRule}
        onAddPhrasing={onAddPhrasing}
      />
      <TryDetails result={answer} />
      {/* Below the explanation: the collisions that concern this answer only. */}
      <TryCollisions result={answer} check={collisions} onOpenRule={onOpenRule} />
    </div>
  );
}
