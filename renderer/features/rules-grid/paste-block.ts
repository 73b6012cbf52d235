/**
 * A block of cells pasted from Excel, spread over the grid from the active cell: right across
 * the columns shown, down across the rows; rows past the end become new rules. Categories are
 * pasted by name: the names must be categories of the robot by then (see unknownNames).
 * @module
 */
import type { CategoryIndex } from '../../lib/rules/category-index';
import { withCellText } from '../../lib/rules/cell-values';
import { EMPTY_RULE, isEditable } from '../../lib/rules/grid-row';
import type { EditableRow, EditableRule, GridRow, RuleField } from '../../lib/rules/grid-row';

export interface PastePlan {
  edits: { row: EditableRow; next: EditableRule }[];
  /** Rules for the rows past the end. */
  extra: EditableRule[];
}

export function planPaste(
  rows: readonly GridRow[],
  rowIdx: number,
  fields: readonly RuleField[],
  matrix: readonly (readonly string[])[],
  categories: CategoryIndex,
): PastePlan {
  const plan: PastePlan = { edits: [], extra: [] };
  matrix.forEach((cells, r) => {
    const row = rows[rowIdx + r];
    if (row && !isEditable(row)) return;
    let rule: EditableRule = row ? row.rule : EMPTY_RULE;
    cells.forEach((text, c) => {
      const field = fields[c];
      if (field) rule = withCellText(rule, field, text, categories);
    });
    if (row) plan.edits.push({ row, next: rule });
    else plan.extra.push(rule);
  });
  return plan;
}
