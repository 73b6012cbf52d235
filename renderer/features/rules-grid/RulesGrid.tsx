import { useMemo, useRef, useState } from 'react';
import { useInnerWidth } from '../../components/useInnerWidth';
import type { Ref } from 'react';
import { DataGrid, renderCheckbox } from 'react-data-grid';
import type {
  CellKeyDownArgs,
  CellKeyboardEvent,
  ColumnWidths,
  DataGridHandle,
  SortColumn,
} from 'react-data-grid';
import type { ConsoleCategory } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import type { CategoryIndex } from '../../lib/rules/category-index';
import { cellText, CELL_FIELDS, withCellText } from '../../lib/rules/cell-values';
import { applyLayout } from './column-layout';
import type { ColumnLayout } from './column-layout';
import type { CollisionsByRule } from '../collisions/collision-index';
import { buildColumns, cellProblem } from './columns';
import type { UnpublishedMarks } from './columns';
import { isEditable } from '../../lib/rules/grid-row';
import type { EditableRow, EditableRule, GridRow, RuleField } from '../../lib/rules/grid-row';
import { parseTsv, toTsv } from './tsv';

export const ROW_HEIGHT = 36;

interface RulesGridProps {
  gridRef: Ref<DataGridHandle>;
  rows: GridRow[];
  sortColumns: readonly SortColumn[];
  onSortColumnsChange: (sort: SortColumn[]) => void;
  selected: ReadonlySet<string>;
  onSelectedChange: (selected: Set<string>) => void;
  sharedByRule: ReadonlyMap<string, string[]>;
  /** The robot's last collision check, by rule: marked on the rule's name. */
  collisions: CollisionsByRule;
  onOpenCollisions: (ruleId: string) => void;
  /** Rules not as the published version has them (review mode): marked beside their number. */
  unpublished: UnpublishedMarks;
  categories: readonly ConsoleCategory[];
  categoryIndex: CategoryIndex;
  onCreateCategory: (name: string) => Promise<ConsoleCategory>;
  locatedKey: string | null;
  onCommit: (row: EditableRow, next: EditableRule) => void;
  /** A block pasted from `rowIdx` on, into `fields` (the columns shown, from the one pasted on). */
  onPasteBlock: (rowIdx: number, fields: RuleField[], matrix: string[][]) => void;
  onToggleActive: (row: GridRow) => void;
  /** Opens a saved rule's matching and menu (the "Matching" column). */
  onOpenMatching?: (row: GridRow) => void;
  onDiscardDraft: (key: string) => void;
  onVisibleRange: (first: number, last: number) => void;
  onCopied: (rows: number) => void;
  layout: ColumnLayout;
  onMoveColumn: (source: string, target: string) => void;
  onResizeColumn: (key: string, width: number) => void;
}

const isField = (key: string): key is RuleField => (CELL_FIELDS as string[]).includes(key);

/** Blank phrasings left by the list editor are dropped when the cell is saved. */
function tidy(rule: EditableRule): EditableRule {
  return rule.questions.some((q) => q.trim() === '')
    ? { ...rule, questions: rule.questions.filter((q) => q.trim() !== '') }
    : rule;
}

export function RulesGrid(props: RulesGridProps) {
  const i18n = useI18n();
  const { t } = i18n;
  const { rows, selected, onCommit, onPasteBlock, onToggleActive, onDiscardDraft } = props;
  const [active, setActive] = useState<{ rowIdx: number; key: string } | null>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const gridWidth = useInnerWidth(wrapRef, '.rdg');
  const activeRow = active ? rows[active.rowIdx] : undefined;
  const status = activeRow && active ? cellProblem(activeRow, active.key, i18n) : null;

  const columns = useMemo(
    () =>
      applyLayout(
        buildColumns({
          i18n,
          duplicates: props.sharedByRule,
          collisions: props.collisions,
          onOpenCollisions: props.onOpenCollisions,
          unpublished: props.unpublished,
          categories: props.categories,
          categoryIndex: props.categoryIndex,
          onCreateCategory: props.onCreateCategory,
          onToggleActive,
          onDiscardDraft,
          onOpenMatching: props.onOpenMatching,
        }),
        props.layout,
        gridWidth,
      ),
    [
      i18n,
      props.sharedByRule,
      props.collisions,
      props.onOpenCollisions,
      props.unpublished,
      props.categories,
      props.categoryIndex,
      props.onCreateCategory,
      onToggleActive,
      onDiscardDraft,
      props.onOpenMatching,
      props.layout,
      gridWidth,
    ],
  );
  // The widths the user set are the grid's (a reset of the layout resets them too).
  const columnWidths = useMemo<ColumnWidths>(
    () =>
      new Map(
        Object.entries(props.layout.widths).map(([key, width]) => [
          key,
          { type: 'resized', width },
        ]),
      ),
    [props.layout.widths],
  );
  const shownFields = useMemo(
    () => columns.flatMap((column) => (isField(column.key) ? [column.key] : [])),
    [columns],
  );

  const onCellKeyDown = (args: CellKeyDownArgs<GridRow>, event: CellKeyboardEvent) => {
    const key = args.column?.key;
    if (args.mode === 'ACTIVE') {
      // Shortcuts of the rules view (Delete, Alt+…) must not open the cell editor.
      if (event.altKey || event.key === 'Delete' || event.key === 'Insert') {
        event.preventGridDefault();
        return;
      }
      if (key === 'active' && (event.key === ' ' || event.key === 'Enter') && args.row) {
        event.preventGridDefault();
        event.preventDefault();
        onToggleActive(args.row);
      }
      return;
    }
    const popover = key === 'answer' || key === 'questions';
    if (popover && (event.key === 'Tab' || (event.key === 'Enter' && event.shiftKey))) {
      // Inside the panel: Tab moves between its fields, Shift+Enter starts a new line.
      event.preventGridDefault();
    }
  };

  const copyText = (row: GridRow, columnKey: string): { text: string; rows: number } => {
    const picked = rows.filter((r) => r.kind === 'rule' && selected.has(r.key));
    if (picked.length > 0) {
      return {
        text: toTsv(
          picked.map((r) =>
            isEditable(r)
              ? CELL_FIELDS.map((field) => cellText(r.rule, field, props.categoryIndex))
              : [],
          ),
        ),
        rows: picked.length,
      };
    }
    if (!isEditable(row) || !isField(columnKey)) return { text: '', rows: 0 };
    return { text: toTsv([[cellText(row.rule, columnKey, props.categoryIndex)]]), rows: 0 };
  };

  return (
    <div className="grid-wrap" ref={wrapRef}>
      <DataGrid<GridRow, unknown, string>
        ref={props.gridRef}
        className="rdg-light rules-grid"
        aria-label={t('rules.gridLabel')}
        columns={columns}
        rows={rows}
        rowHeight={ROW_HEIGHT}
        headerRowHeight={38}
        rowKeyGetter={(row) => row.key}
        rowClass={(row) =>
          row.key === props.locatedKey
            ? 'row-located'
            : row.kind === 'draft'
              ? 'row-draft'
              : row.kind === 'rule' && row.fresh
                ? 'row-fresh'
                : undefined
        }
        selectedRows={selected}
        onSelectedRowsChange={props.onSelectedChange}
        isRowSelectionDisabled={(row) => row.kind !== 'rule'}
        sortColumns={props.sortColumns}
        onSortColumnsChange={(sort) => props.onSortColumnsChange(sort.slice(-1))}
        onRowsChange={(next, { indexes }) => {
          for (const i of indexes) {
            const after = next[i];
            const before = rows[i];
            if (after && before && isEditable(after) && isEditable(before)) {
              onCommit(before, tidy(after.rule));
            }
          }
        }}
        onCellKeyDown={onCellKeyDown}
        onCellCopy={({ row, column }, event) => {
          const { text, rows: count } = copyText(row, column.key);
          event.preventDefault();
          event.clipboardData.setData('text/plain', text);
          props.onCopied(count);
        }}
        onCellPaste={({ row, column }, event) => {
          const matrix = parseTsv(event.clipboardData.getData('text/plain'));
          event.preventDefault();
          if (!isEditable(row) || !isField(column.key) || matrix.length === 0) return row;
          // A category may be a new name: the block paste makes it first.
          const single =
            matrix.length === 1 && matrix[0]?.length === 1 && column.key !== 'ruleCategoryId';
          if (single) {
            const text = matrix[0]?.[0] ?? '';
            return { ...row, rule: withCellText(row.rule, column.key, text, props.categoryIndex) };
          }
          onPasteBlock(
            rows.indexOf(row),
            shownFields.slice(shownFields.indexOf(column.key)),
            matrix,
          );
          return row;
        }}
        columnWidths={columnWidths}
        onColumnWidthsChange={(widths) => {
          for (const [key, { type, width }] of widths) {
            if (type === 'resized' && props.layout.widths[key] !== width) {
              props.onResizeColumn(key, width);
            }
          }
        }}
        onColumnsReorder={props.onMoveColumn}
        onColumnResize={(column, width) => props.onResizeColumn(column.key, width)}
        onActivePositionChange={({ rowIdx, column }) => {
          setActive(column ? { rowIdx, key: column.key } : null);
        }}
        onScroll={(event) => {
          const el = event.currentTarget;
          const first = Math.floor(el.scrollTop / ROW_HEIGHT);
          props.onVisibleRange(first, first + Math.ceil(el.clientHeight / ROW_HEIGHT));
        }}
        renderers={{
          noRowsFallback: null,
          // The row selectors, named in the user's language.
          renderCheckbox: (checkbox) =>
            renderCheckbox({
              ...checkbox,
              'aria-label':
                checkbox['aria-label'] === 'Select All'
                  ? t('rules.selectAll')
                  : t('rules.selectRow'),
            }),
        }}
      />
      <div
        className={status ? 'grid-status grid-status-error' : 'grid-status'}
        role="status"
        data-testid="cell-status"
      >
        {status ?? t('rules.statusHint')}
      </div>
    </div>
  );
}
