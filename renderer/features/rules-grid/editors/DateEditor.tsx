import type { RenderEditCellProps } from 'react-data-grid';
import { useI18n } from '../../../i18n/useI18n';
import { toIsoWithOffset } from '../../../lib/rules/cell-values';
import type { EditableRow } from '../../../lib/rules/grid-row';
import { PopoverEditor } from './PopoverEditor';

function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return toIsoWithOffset(date).slice(0, 16);
}

/** An effective date: a local date and time, stored as ISO 8601 with the local offset. */
export function DateEditor({
  row,
  onRowChange,
  onClose,
  field,
}: RenderEditCellProps<EditableRow> & { field: 'effectBeignDate' | 'effectEndDate' }) {
  const { t } = useI18n();
  const label = t(field === 'effectBeignDate' ? 'field.effectiveFrom' : 'field.effectiveUntil');
  const set = (value: string | null) =>
    onRowChange({ ...row, rule: { ...row.rule, [field]: value } });
  return (
    <PopoverEditor label={label} width={300}>
      <input
        type="datetime-local"
        className="popover-input"
        autoFocus
        aria-label={label}
        value={toLocalInput(row.rule[field])}
        onChange={(event) =>
          set(event.target.value ? toIsoWithOffset(new Date(event.target.value)) : null)
        }
      />
      <div className="popover-footer">
        <button type="button" className="button button-small" onClick={() => set(null)}>
          {t('rules.noDate')}
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
