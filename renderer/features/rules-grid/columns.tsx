/**
 * Columns of the rule grid: what each cell shows, how it is edited, and how it is marked when
 * its value breaks a limit (red, with the reason in its tooltip and in the status line).
 * @module
 */
import { renderHeaderCell, SelectColumn } from 'react-data-grid';
import type { Column, RenderCellProps } from 'react-data-grid';
import type { ConsoleCategory } from '../../../electron/service/console-types';
import type { I18n } from '../../i18n/i18n-context';
import type { CategoryIndex } from '../../lib/rules/category-index';
import { actorLabel } from '../../i18n/actor-label';
import { describeProblem } from '../../i18n/describe-problem';
import { CollisionBadge } from '../collisions/CollisionBadge';
import type { CollisionsByRule } from '../collisions/collision-index';
import { AnswerEditor } from './editors/AnswerEditor';
import { CategoryEditor } from './editors/CategoryEditor';
import { DateEditor } from './editors/DateEditor';
import { QuestionsEditor } from './editors/QuestionsEditor';
import { TextEditor } from './editors/TextEditor';
import { categoryLabel, isEditable } from '../../lib/rules/grid-row';
import type { GridRow, RuleField } from '../../lib/rules/grid-row';
import { checkRule } from '../../lib/rules/rule-checks';
import { StatusCell } from './StatusCell';

/** Rule id → how it differs from the published version (review mode); empty in live mode. */
export type UnpublishedMarks = ReadonlyMap<string, 'added' | 'changed'>;

export interface ColumnContext {
  i18n: I18n;
  /** Rule id → phrasings it shares with other rules. */
  duplicates: ReadonlyMap<string, string[]>;
  /** The robot's last collision check, by rule. */
  collisions: CollisionsByRule;
  onOpenCollisions: (ruleId: string) => void;
  unpublished: UnpublishedMarks;
  /** The robot's categories, which the category column picks from. */
  categories: readonly ConsoleCategory[];
  categoryIndex: CategoryIndex;
  onCreateCategory: (name: string) => Promise<ConsoleCategory>;
  onToggleActive: (row: GridRow) => void;
  onDiscardDraft: (key: string) => void;
  /** Opens how a saved rule is matched and answered (policy, menu, similar phrasings). */
  onOpenMatching?: (row: GridRow) => void;
}

/** The problem of one cell in the user's language, or null. */
export function cellProblem(row: GridRow, field: string, i18n: I18n): string | null {
  if (!isEditable(row) || (row.kind === 'draft' && !row.touched)) return null;
  if (
    row.error &&
    (row.error.field === field || (row.error.field === null && field === 'ruleName'))
  ) {
    return describeProblem(i18n.t, row.error.problem);
  }
  const problem = checkRule(row.rule)[field as RuleField];
  return problem ? describeProblem(i18n.t, problem) : null;
}

function cellClass(field: RuleField, i18n: I18n) {
  return (row: GridRow) => {
    if (row.kind === 'loading') return 'cell-loading';
    return cellProblem(row, field, i18n) ? 'cell-invalid' : undefined;
  };
}

function Loading() {
  return <span className="cell-skeleton" aria-hidden="true" />;
}

function textCell(field: 'ruleName' | 'answer', i18n: I18n) {
  return function TextCell({ row }: RenderCellProps<GridRow>) {
    if (row.kind === 'loading') return <Loading />;
    const value = row.rule[field];
    return (
      <span className="cell-text" title={cellProblem(row, field, i18n) ?? value}>
        {value}
      </span>
    );
  };
}

export function buildColumns(ctx: ColumnContext): Column<GridRow>[] {
  const { i18n, duplicates } = ctx;
  const { t, formatDateTime, formatDay, formatNumber } = i18n;
  const editable = (row: GridRow) => isEditable(row) && !(row.kind === 'draft' && row.saving);
  // Widths fit every column in 1280 pixels; questions and answers take what is left.
  const movable = { resizable: true, draggable: true } as const;

  return [
    { ...SelectColumn, frozen: true },
    {
      key: 'index',
      name: '#',
      width: 64,
      frozen: true,
      cellClass: 'cell-index',
      renderCell: ({ row }) => {
        if (row.kind === 'draft') {
          return (
            <span className="draft-marker">
              <span className="badge badge-new">{row.saving ? '…' : t('rules.new')}</span>
              <button
                type="button"
                className="icon-button"
                aria-label={t('rules.discardDraft')}
                title={t('rules.discardDraft')}
                onClick={() => ctx.onDiscardDraft(row.key)}
              >
                ×
              </button>
            </span>
          );
        }
        if (row.kind === 'rule' && row.fresh) {
          return (
            <span
              className="badge badge-added"
              title={t('rules.addedTip')}
              aria-label={t('rules.added')}
              data-testid="added-badge"
            >
              ✓
            </span>
          );
        }
        const collisions = row.kind === 'rule' ? ctx.collisions.get(row.key) : undefined;
        const unpublished = row.kind === 'rule' ? ctx.unpublished.get(row.key) : undefined;
        if (!collisions && !unpublished) return formatNumber(row.index + 1);
        // Beside the number, as the ✓ of new rules is: the name and other cells keep their text.
        return (
          <span className="cell-index-marked">
            {unpublished ? (
              <span
                className="unpublished-mark"
                role="img"
                title={t(`rules.unpublished.${unpublished}`)}
                aria-label={t(`rules.unpublished.${unpublished}`)}
                data-testid="unpublished-mark"
              />
            ) : null}
            {collisions ? (
              <CollisionBadge
                collisions={collisions}
                onOpen={() => ctx.onOpenCollisions(row.key)}
              />
            ) : null}
            <span>{formatNumber(row.index + 1)}</span>
          </span>
        );
      },
    },
    {
      key: 'ruleName',
      name: t('rules.col.ruleName'),
      width: 148,
      minWidth: 80,
      frozen: true,
      resizable: true,
      sortable: true,
      editable,
      cellClass: cellClass('ruleName', i18n),
      renderCell: textCell('ruleName', i18n),
      renderEditCell: (props) =>
        isEditable(props.row) ? (
          <TextEditor
            {...(props as unknown as Parameters<typeof TextEditor>[0])}
            field="ruleName"
            label={t('rules.col.ruleName')}
          />
        ) : null,
    },
    {
      key: 'questions',
      name: t('rules.col.questions'),
      width: 240,
      minWidth: 124,
      ...movable,
      editable,
      cellClass: cellClass('questions', i18n),
      editorOptions: { displayCellContent: true },
      renderCell: ({ row }) => {
        if (row.kind === 'loading') return <Loading />;
        const shared = row.kind === 'rule' ? duplicates.get(row.key) : undefined;
        const problem = cellProblem(row, 'questions', i18n);
        return (
          <span className="cell-questions" title={problem ?? row.rule.questions.join('\n')}>
            {shared ? (
              <span
                className="badge badge-warn"
                title={t('rules.sharedPhrasing', { questions: shared.join(' / ') })}
                data-testid="duplicate-badge"
              >
                ⚠
              </span>
            ) : null}
            {row.rule.questions.length > 1 ? (
              <span className="badge">{formatNumber(row.rule.questions.length)}</span>
            ) : null}
            <span className="cell-text">{row.rule.questions.join(' · ')}</span>
          </span>
        );
      },
      renderEditCell: (props) =>
        isEditable(props.row) ? (
          <QuestionsEditor {...(props as unknown as Parameters<typeof QuestionsEditor>[0])} />
        ) : null,
    },
    {
      key: 'answer',
      name: t('rules.col.answer'),
      width: 240,
      minWidth: 124,
      ...movable,
      editable,
      cellClass: cellClass('answer', i18n),
      editorOptions: { displayCellContent: true },
      renderCell: textCell('answer', i18n),
      renderEditCell: (props) =>
        isEditable(props.row) ? (
          <AnswerEditor {...(props as unknown as Parameters<typeof AnswerEditor>[0])} />
        ) : null,
    },
    {
      key: 'ruleCategoryId',
      name: t('rules.col.category'),
      width: 88,
      minWidth: 60,
      ...movable,
      sortable: true,
      editable,
      cellClass: cellClass('ruleCategoryId', i18n),
      editorOptions: { displayCellContent: true },
      renderCell: ({ row }) => {
        if (row.kind === 'loading') return <Loading />;
        const name = categoryLabel(row, ctx.categoryIndex);
        return (
          <span className="cell-text" title={cellProblem(row, 'ruleCategoryId', i18n) ?? name}>
            {name}
          </span>
        );
      },
      renderEditCell: (props) =>
        isEditable(props.row) ? (
          <CategoryEditor
            {...(props as unknown as Parameters<typeof CategoryEditor>[0])}
            categories={ctx.categories}
            onCreate={ctx.onCreateCategory}
          />
        ) : null,
    },
    {
      key: 'active',
      name: t('rules.col.status'),
      width: 112,
      minWidth: 60,
      ...movable,
      sortable: true,
      renderCell: ({ row, tabIndex }) =>
        row.kind === 'loading' ? (
          <Loading />
        ) : (
          <StatusCell row={row} tabIndex={tabIndex} onToggle={() => ctx.onToggleActive(row)} />
        ),
    },
    ...(['effectBeignDate', 'effectEndDate'] as const).map((field): Column<GridRow> => {
      const label = t(field === 'effectBeignDate' ? 'field.effectiveFrom' : 'field.effectiveUntil');
      return {
        key: field,
        name: t(field === 'effectBeignDate' ? 'rules.col.begin' : 'rules.col.end'),
        renderHeaderCell: ({ column }) => <span title={label}>{column.name}</span>,
        width: 90,
        minWidth: 60,
        ...movable,
        editable,
        cellClass: cellClass(field, i18n),
        editorOptions: { displayCellContent: true },
        renderCell: ({ row }) => {
          if (row.kind === 'loading') return <Loading />;
          const value = row.rule[field];
          return (
            <span
              className="cell-text"
              title={cellProblem(row, field, i18n) ?? (value ? formatDateTime(value) : '')}
            >
              {value ? formatDay(value) : <span className="muted">{t('rules.always')}</span>}
            </span>
          );
        },
        renderEditCell: (props) =>
          isEditable(props.row) ? (
            <DateEditor {...(props as unknown as Parameters<typeof DateEditor>[0])} field={field} />
          ) : null,
      };
    }),
    {
      key: 'matchPolicy',
      name: t('rules.col.matching'),
      width: 100,
      minWidth: 60,
      ...movable,
      renderCell: ({ row, tabIndex }) => {
        if (row.kind !== 'rule') return null;
        const { matchPolicy, menu, negativeKeywords, allowSimGen } = row.saved;
        return (
          <button
            type="button"
            className="cell-matching"
            tabIndex={tabIndex}
            title={t('rules.matchingTip')}
            data-testid="matching-cell"
            onClick={() => ctx.onOpenMatching?.(row)}
          >
            <span>{t(`conv.policy.${matchPolicy}`)}</span>
            {menu ? (
              <span className="badge" title={t('rules.menuBadge', { count: menu.length })}>
                ☰ {formatNumber(menu.length)}
              </span>
            ) : null}
            {negativeKeywords.length > 0 ? (
              <span className="badge" title={negativeKeywords.join(', ')}>
                ⊘ {formatNumber(negativeKeywords.length)}
              </span>
            ) : null}
            {allowSimGen === true ? (
              <span className="badge" title={t('conv.allowSimGen')}>
                ✦
              </span>
            ) : null}
          </button>
        );
      },
    },
    {
      key: 'hits',
      name: t('rules.col.hits'),
      renderHeaderCell: (props) => (
        <span title={t('rules.hitsTip')}>{renderHeaderCell(props)}</span>
      ),
      width: 60,
      minWidth: 48,
      ...movable,
      sortable: true,
      cellClass: 'cell-figure',
      renderCell: ({ row }) =>
        row.kind === 'rule' && row.saved.hits !== undefined ? (
          <span data-testid="hits-cell">{formatNumber(row.saved.hits)}</span>
        ) : null,
    },
    {
      key: 'lastHit',
      name: t('rules.col.lastHit'),
      width: 100,
      minWidth: 60,
      ...movable,
      sortable: true,
      renderCell: ({ row }) => {
        if (row.kind !== 'rule' || row.saved.lastHit === undefined) return null;
        const { lastHit } = row.saved;
        return lastHit === null ? (
          <span className="muted" data-testid="last-hit-cell">
            {t('rules.neverHit')}
          </span>
        ) : (
          <span title={formatDateTime(lastHit)} data-testid="last-hit-cell">
            {formatDay(lastHit)}
          </span>
        );
      },
    },
    {
      key: 'updatedAt',
      name: t('rules.col.updated'),
      width: 90,
      minWidth: 60,
      ...movable,
      sortable: true,
      renderCell: ({ row }) =>
        row.kind === 'rule' ? (
          <span className="muted" title={formatDateTime(row.saved.updatedAt)}>
            {formatDay(row.saved.updatedAt)}
          </span>
        ) : null,
    },
    {
      key: 'updatedBy',
      name: t('rules.col.changedBy'),
      width: 100,
      minWidth: 60,
      ...movable,
      renderCell: ({ row }) =>
        row.kind === 'rule' ? (
          <span className="muted" data-testid="changed-by-cell">
            {actorLabel(t, row.saved.updatedBy)}
          </span>
        ) : null,
    },
  ];
}
