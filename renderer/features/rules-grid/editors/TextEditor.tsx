import type { RenderEditCellProps } from 'react-data-grid';
import type { EditableRow } from '../../../lib/rules/grid-row';

/** Inline editor of a one-line text field (rule name, category). */
export function TextEditor({
  row,
  onRowChange,
  field,
  listId,
  label,
}: RenderEditCellProps<EditableRow> & {
  field: 'ruleName' | 'ruleCategoryId';
  listId?: string;
  /** The column's name, as the user reads it. */
  label: string;
}) {
  return (
    <input
      className="cell-input"
      autoFocus
      value={row.rule[field]}
      list={listId}
      aria-label={label}
      onChange={(event) =>
        onRowChange({ ...row, rule: { ...row.rule, [field]: event.target.value } })
      }
      onFocus={(event) => event.target.select()}
    />
  );
}
