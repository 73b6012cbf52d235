import type { RenderEditCellProps } from 'react-data-grid';
import type { EditableRow } from '../../../lib/rules/grid-row';

/** Inline editor of a one-line text field (rule name, category). */
export function TextEditor({
  row,
  onRowChange,
  field,
  listId,
}: RenderEditCellProps<EditableRow> & { field: 'ruleName' | 'ruleCategoryId'; listId?: string }) {
  return (
    <input
      className="cell-input"
      autoFocus
      value={row.rule[field]}
      list={listId}
      aria-label={field}
      onChange={(event) =>
        onRowChange({ ...row, rule: { ...row.rule, [field]: event.target.value } })
      }
      onFocus={(event) => event.target.select()}
    />
  );
}
