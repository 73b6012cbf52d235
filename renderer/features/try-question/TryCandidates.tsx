import { useState } from 'react';
import type { TryCandidate } from '../../../electron/service/console-types';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { samePhrasing } from '../../lib/rules/phrasing';
import type { PhrasingOutcome } from '../../lib/rules/phrasing';
import { formatScore } from './format-score';

/** What happened to the last "add as a phrasing" of a candidate. */
type Note = { tone: 'ok' | 'error'; text: string };

/** The rules that came closest, each with "open" and "add this question as a phrasing". */
export function TryCandidates({
  question,
  candidates,
  onOpenRule,
  onAddPhrasing,
}: {
  question: string;
  candidates: TryCandidate[];
  onOpenRule: (ruleId: string) => void;
  onAddPhrasing: (ruleId: string, question: string) => Promise<PhrasingOutcome>;
}) {
  const { t, formatNumber } = useI18n();
  const [notes, setNotes] = useState<ReadonlyMap<string, Note>>(new Map());
  const [busy, setBusy] = useState<string | null>(null);

  const add = async (candidate: TryCandidate) => {
    setBusy(candidate.ruleId);
    let note: Note;
    try {
      const { kind, rule } = await onAddPhrasing(candidate.ruleId, question);
      const params = { rule: rule.ruleName, question, count: rule.questions.length };
      note =
        kind === 'added'
          ? { tone: 'ok', text: t('try.added', params) }
          : kind === 'present'
            ? { tone: 'ok', text: t('try.alreadyThere', params) }
            : { tone: 'error', text: t('try.full', params) };
    } catch (error) {
      note = { tone: 'error', text: describeError(t, error) };
    } finally {
      setBusy(null);
    }
    setNotes((current) => new Map(current).set(candidate.ruleId, note));
  };

  if (candidates.length === 0) return <p className="hint">{t('try.noCandidates')}</p>;
  return (
    <ol className="candidates" aria-label={t('try.candidates')}>
      {candidates.map((candidate) => {
        const note = notes.get(candidate.ruleId);
        return (
          <li key={candidate.ruleId} className="candidate" data-testid="try-candidate">
            <span className="candidate-top">
              <button
                type="button"
                className="link-button candidate-name"
                onClick={() => onOpenRule(candidate.ruleId)}
                title={t('try.openRule')}
              >
                {candidate.ruleName}
              </button>
              <span className="candidate-score" title={t('try.scoreTip')}>
                {formatScore(candidate.score, formatNumber)}
              </span>
            </span>
            <span className="candidate-question">
              {t('try.matched')} <q>{candidate.question}</q>
            </span>
            {samePhrasing(candidate.question, question) ? null : (
              <span className="candidate-actions">
                <button
                  type="button"
                  className="button button-small"
                  disabled={busy !== null}
                  aria-label={t('try.addPhrasingTo', { question, rule: candidate.ruleName })}
                  onClick={() => void add(candidate)}
                >
                  + {t('try.addPhrasing')}
                </button>
              </span>
            )}
            {note ? (
              <span
                className={note.tone === 'ok' ? 'candidate-note' : 'candidate-note bad'}
                role={note.tone === 'ok' ? 'status' : 'alert'}
              >
                {note.text}
              </span>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
