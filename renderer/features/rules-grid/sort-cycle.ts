/**
 * What a click on a column header does to the grid's sort. No react-data-grid import: its
 * `SortColumn` has this shape, and the unit tests (type-checked for Node) stay free of React's
 * DOM stand-ins.
 * @module
 */

export interface ColumnSort {
  readonly columnKey: string;
  readonly direction: 'ASC' | 'DESC';
}

/** Columns of figures, where the most first is what one looks for. */
const DESCENDING_FIRST = new Set(['hits', 'lastHit']);

/**
 * The sort after a click on a header, as the grid proposes it (ascending, descending, none),
 * except on figures: descending, ascending, none.
 */
export function nextSort(
  previous: readonly ColumnSort[],
  proposed: readonly ColumnSort[],
): readonly ColumnSort[] {
  const clicked = proposed[0] ?? previous[0];
  if (!clicked || !DESCENDING_FIRST.has(clicked.columnKey)) return proposed;
  const before = previous.find((sort) => sort.columnKey === clicked.columnKey);
  if (!before) return [{ columnKey: clicked.columnKey, direction: 'DESC' }];
  if (before.direction === 'DESC') return [{ columnKey: clicked.columnKey, direction: 'ASC' }];
  return [];
}
