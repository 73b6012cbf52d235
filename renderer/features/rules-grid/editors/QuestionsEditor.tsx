import { useRef } from 'react';
import type { RenderEditCellProps } from 'react-data-grid';
import { LIMITS } from '../../../../electron/service/limits';
import { useI18n } from '../../../i18n/useI18n';
import type { EditableRow } from '../../../lib/rules/grid-row';
import { PopoverEditor } from './PopoverEditor';

/** All phrasings of a rule as a list: one input each, add and remove. */
export function QuestionsEditor({ row, onRowChange, onClose }: RenderEditCellProps<EditableRow>) {
  const { t } = useI18n();
  const list = useRef<HTMLOListElement>(null);
  const questions = row.rule.questions.length > 0 ? row.rule.questions : [''];
  const set = (next: string[]) => onRowChange({ ...row, rule: { ...row.rule, questions: next } });
  const focusLast = () =>
    requestAnimationFrame(() => {
      const inputs = list.current?.querySelectorAll('input');
      inputs?.[inputs.length - 1]?.focus();
    });

  return (
    <PopoverEditor label={t('rules.col.questions')} width={440}>
      <ol className="questions-list" ref={list}>
        {questions.map((question, i) => (
          <li key={i}>
            <input
              className="popover-input"
              autoFocus={i === 0}
              value={question}
              aria-label={t('rules.questionN', { n: i + 1 })}
              onChange={(event) => set(questions.map((q, j) => (j === i ? event.target.value : q)))}
            />
            <button
              type="button"
              className="icon-button"
              aria-label={t('rules.removeQuestion', { n: i + 1 })}
              disabled={questions.length === 1}
              onClick={() => set(questions.filter((_, j) => j !== i))}
            >
              −
            </button>
          </li>
        ))}
      </ol>
      <div className="popover-footer">
        <button
          type="button"
          className="button button-small"
          disabled={questions.length >= LIMITS.questionsMax}
          onClick={() => {
            set([...questions, '']);
            focusLast();
          }}
        >
          + {t('rules.addQuestion')}
        </button>
        <span className="hint">
          {t('rules.questionCount', { count: questions.length, max: LIMITS.questionsMax })}
        </span>
        <button type="button" className="button button-small" onClick={() => onClose(false)}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button-small button-primary"
          onClick={() =>
            onRowChange(
              {
                ...row,
                rule: { ...row.rule, questions: questions.filter((q) => q.trim() !== '') },
              },
              true,
            )
          }
        >
          {t('common.done')}
        </button>
      </div>
    </PopoverEditor>
  );
}
