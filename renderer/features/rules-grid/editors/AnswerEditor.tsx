import type { RenderEditCellProps } from 'react-data-grid';
import { useI18n } from '../../../i18n/useI18n';
import type { EditableRow } from '../../../lib/rules/grid-row';
import { PopoverEditor } from './PopoverEditor';

/** The answer in a text area: Enter saves, Shift+Enter starts a new line, Escape cancels. */
export function AnswerEditor({ row, onRowChange, onClose }: RenderEditCellProps<EditableRow>) {
  const { t } = useI18n();
  return (
    <PopoverEditor label={t('rules.col.answer')} width={480}>
      <textarea
        className="popover-textarea"
        autoFocus
        rows={8}
        aria-label={t('rules.col.answer')}
        value={row.rule.answer}
        onChange={(event) =>
          onRowChange({ ...row, rule: { ...row.rule, answer: event.target.value } })
        }
      />
      <div className="popover-footer">
        <span className="hint">{t('rules.editHint')}</span>
        <button type="button" className="button button-small" onClick={() => onClose(false)}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button-small button-primary"
          onClick={() => onClose(true)}
        >
          {t('common.done')}
        </button>
      </div>
    </PopoverEditor>
  );
}
