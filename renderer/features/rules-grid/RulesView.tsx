import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DataGridHandle } from 'react-data-grid';
import type {
  ConsoleRobot,
  ConsoleRule,
  ConsoleTenant,
} from '../../../electron/service/console-types';
import { useHotkeys } from '../../components/useHotkeys';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { unknownNames } from '../../lib/rules/category-index';
import { CategoriesDialog } from '../categories/CategoriesDialog';
import { useCategories } from '../categories/useCategories';
import { CollisionsDialog } from '../collisions/CollisionsDialog';
import { useCollisions } from '../collisions/useCollisions';
import { ImportDialog } from '../excel-import/ImportDialog';
import { RuleTrashDialog } from '../trash/RuleTrashDialog';
import { RuleMatchingDialog } from '../rule-matching/RuleMatchingDialog';
import { TryPane } from '../try-question/TryPane';
import type { Route } from '../../lib/workspace/route';
import { useUnpublished } from '../../lib/workspace/useUnpublished';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { ColumnsMenu } from './ColumnsMenu';
import { DuplicatesNotice } from './DuplicatesNotice';
import { isEditable } from '../../lib/rules/grid-row';
import type { GridRow, RuleField } from '../../lib/rules/grid-row';
import { planPaste } from './paste-block';
import { isFiltered, NO_FILTERS, toRuleQuery } from './rule-query';
import type { RuleFilters } from './rule-query';
import { RulesGrid } from './RulesGrid';
import { RulesGridOverlay } from './RulesGridOverlay';
import { RulesHeader } from './RulesHeader';
import { RulesToolbar } from './RulesToolbar';
import { nextSort } from './sort-cycle';
import { undoTitle } from './undo-label';
import { useColumnLayout } from './useColumnLayout';
import { useLocateRule } from './useLocateRule';
import { useRobotFacts } from './useRobotFacts';
import { useRuleEditing } from './useRuleEditing';
import { pagesKey, useRulePages } from './useRulePages';
import { useRuleFiles } from './useRuleFiles';
import { useStateRefresh } from './useStateRefresh';

const MAX_PASTED_NEW_ROWS = 1000;
const NAME_COLUMN = 2;

/** The rules of one robot: toolbar, grid, try pane and import dialog. */
export function RulesView({
  tenant,
  robot,
  navigate,
  openRuleId,
  tryQuestion,
}: {
  tenant: ConsoleTenant;
  robot: ConsoleRobot;
  navigate: (route: Route) => void;
  /** A rule to show when the grid opens (a link from another screen, such as a test run). */
  openRuleId?: string;
  /** A question to ask in the try pane when the grid opens (a link from the impact preview). */
  tryQuestion?: string;
}) {
  const { t } = useI18n();
  const toasts = useToasts();
  const { client, workspace, reload } = useWorkspace();
  const { tenantId } = tenant;
  const { robotId } = robot;
  const ref = useMemo(() => ({ tenantId, robotId }), [tenantId, robotId]);
  const gridRef = useRef<DataGridHandle>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const [filters, setFilters] = useState<RuleFilters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [factsVersion, setFactsVersion] = useState(0);
  const [tryOpen, setTryOpen] = useState(tryQuestion !== undefined);
  const [importOpen, setImportOpen] = useState(false);
  const [categoriesOpen, setCategoriesOpen] = useState(false);
  const [ruleTrashOpen, setRuleTrashOpen] = useState(false);
  const [editDraft, setEditDraft] = useState(false);
  const [matching, setMatching] = useState<ConsoleRule | null>(null);

  const query = useMemo(() => toRuleQuery(filters), [filters]);
  const pages = useRulePages(client, ref, query);
  const facts = useRobotFacts(client, ref, factsVersion);
  const unpublished = useUnpublished(
    client,
    ref,
    robot.settings.publishMode === 'review',
    factsVersion,
  );
  const unpublishedMarks = useMemo(
    () =>
      new Map(
        (unpublished?.changes ?? []).flatMap((change): [string, 'added' | 'changed'][] =>
          change.change === 'removed' ? [] : [[change.ruleId, change.change]],
        ),
      ),
    [unpublished],
  );
  const categories = useCategories(client, ref, factsVersion);
  const files = useRuleFiles(client, ref, robot.name);
  const collisions = useCollisions(client, ref, factsVersion);
  const [collisionsOf, setCollisionsOf] = useState<{ ruleId: string; ruleName: string } | null>(
    null,
  );

  const reloadTimer = useRef<number | undefined>(undefined);
  const onChanged = useCallback(() => {
    setFactsVersion((v) => v + 1);
    window.clearTimeout(reloadTimer.current);
    reloadTimer.current = window.setTimeout(() => void reload(), 800);
  }, [reload]);
  useEffect(() => () => window.clearTimeout(reloadTimer.current), []);

  const editing = useRuleEditing(client, ref, pages, onChanged);
  const { rows, draftCount, topCount } = editing;
  const columns = useColumnLayout();
  useStateRefresh(pages.rows, pages.refresh);

  useEffect(() => {
    const timer = window.setTimeout(
      () => setFilters((f) => (f.q === search ? f : { ...f, q: search })),
      250,
    );
    return () => window.clearTimeout(timer);
  }, [search]);

  const notFound = useCallback(() => toasts.show(t('rules.notLocated')), [toasts, t]);
  const { locate, located } = useLocateRule(gridRef, rows, pages.key, pages.loading, notFound);

  const openRule = useCallback(
    async (ruleId: string) => {
      try {
        const rule = await client.rule(ref, ruleId);
        const next = { ...NO_FILTERS, q: rule.ruleName };
        setSearch(rule.ruleName);
        setFilters(next);
        locate(ruleId, pagesKey(ref, toRuleQuery(next)));
      } catch {
        toasts.show(t('rules.notLocated'), { tone: 'error' });
      }
    },
    [client, ref, locate, toasts, t],
  );

  useEffect(() => {
    if (openRuleId) void openRule(openRuleId);
    // Only when the address names another rule, not when openRule's inputs change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openRuleId]);

  useEffect(() => {
    if (!editDraft) return;
    setEditDraft(false);
    gridRef.current?.scrollToCell({ rowIdx: 0, idx: NAME_COLUMN });
    gridRef.current?.setActivePosition({ rowIdx: 0, idx: NAME_COLUMN }, { enableEditor: true });
  }, [editDraft]);

  const selectedRules = () =>
    rows.flatMap((row) => (row.kind === 'rule' && selected.has(row.key) ? [row] : []));

  const addRule = () => {
    editing.addDraft();
    setEditDraft(true);
  };
  const duplicate = async () => {
    const copies = await editing.duplicateRules(selectedRules().map((row) => row.rule));
    // The copies are shown first and selected: a Delete right after deletes them.
    if (copies.length > 0) {
      setSelected(new Set(copies.map((rule) => rule.ruleId)));
      gridRef.current?.scrollToCell({ rowIdx: 0 });
    }
  };
  /** A cell saved; a draft that became a rule stays where it is, selected. */
  const commit = async (...args: Parameters<typeof editing.commitRow>) => {
    const created = await editing.commitRow(...args);
    if (created) setSelected(new Set([created.ruleId]));
  };
  const remove = () => {
    const picked = selectedRules();
    if (picked.length === 0) return;
    setSelected(new Set());
    void editing.deleteRules(picked.map((row) => row.saved));
  };
  const setActive = (active: boolean) =>
    void editing.setActive(
      selectedRules().map((row) => row.saved),
      active,
    );

  const { commitRow } = editing;
  const onToggleActive = useCallback(
    (row: GridRow) => {
      if (isEditable(row)) void commitRow(row, { ...row.rule, active: !row.rule.active });
    },
    [commitRow],
  );

  const onOpenMatching = useCallback((row: GridRow) => {
    if (row.kind === 'rule') setMatching(row.saved);
  }, []);

  const onOpenCollisions = useCallback(
    (ruleId: string) => {
      const row = rows.find((r) => r.kind === 'rule' && r.key === ruleId);
      if (row && row.kind === 'rule') setCollisionsOf({ ruleId, ruleName: row.saved.ruleName });
    },
    [rows],
  );
  // The conflicts filter shows the rules of the last check: a new check reads the pages again.
  const { report } = collisions;
  const conflictsOn = filters.conflicts;
  const { refresh: refreshPages } = pages;
  const seenReport = useRef(report);
  useEffect(() => {
    if (seenReport.current === report) return;
    seenReport.current = report;
    if (conflictsOn) refreshPages();
  }, [report, conflictsOn, refreshPages]);

  const onPasteBlock = async (rowIdx: number, fields: RuleField[], matrix: string[][]) => {
    if (rowIdx + matrix.length - rows.length > MAX_PASTED_NEW_ROWS) {
      toasts.show(t('rules.pasteTooMany', { max: MAX_PASTED_NEW_ROWS }), { tone: 'error' });
      return;
    }
    // Categories are pasted by name: the ones the robot lacks are made first.
    const column = fields.indexOf('ruleCategoryId');
    const names = column < 0 ? [] : matrix.map((cells) => cells[column] ?? '');
    let index = categories.index;
    try {
      if (unknownNames(names, index).length > 0) {
        index = await categories.ensure(unknownNames(names, index));
      }
    } catch (error) {
      toasts.show(describeError(t, error), { tone: 'error' });
      return;
    }
    const { edits, extra } = planPaste(rows, rowIdx, fields, matrix, index);
    void editing.commitMany(edits, extra);
  };

  /** The categories changed (renamed, merged, deleted): the rules show them again. */
  const onCategoriesChanged = () => {
    pages.refresh();
    onChanged();
  };
  const { list: categoryList, loaded: categoriesLoaded } = categories;
  useEffect(() => {
    // A filter on a category that was merged or deleted shows all rules again.
    const id = filters.category;
    if (categoriesLoaded && id && !categoryList.some((c) => c.categoryId === id)) {
      setFilters((f) => ({ ...f, category: null }));
    }
  }, [categoriesLoaded, categoryList, filters.category]);

  useHotkeys({
    'mod+z': { run: () => void editing.undo(), typing: false },
    'mod+shift+z': { run: () => void editing.redo(), typing: false },
    'mod+y': { run: () => void editing.redo(), typing: false },
    'mod+f': { run: () => searchRef.current?.focus() },
    insert: { run: addRule, typing: false },
    'mod+d': { run: () => void duplicate(), typing: false },
    delete: { run: remove, typing: false },
    'alt+i': { run: () => setImportOpen(true) },
    'alt+e': { run: () => void files.exportAll() },
    'alt+t': { run: () => setTryOpen((open) => !open) },
  });

  const filtered = isFiltered(filters);
  return (
    <div className="rules-view" data-testid="rules-view">
      <RulesHeader
        robotName={robot.name}
        company={tenant.company}
        total={pages.total}
        overall={filtered ? robot.ruleCount : null}
        tryOpen={tryOpen}
        exporting={files.exporting}
        onImport={() => setImportOpen(true)}
        onExport={() => void files.exportAll()}
        onTemplate={() => void files.downloadTemplate()}
        onToggleTry={() => setTryOpen((open) => !open)}
        onCategories={() => setCategoriesOpen(true)}
        save={editing.save}
        onSettings={() => navigate({ kind: 'robot-settings', ...ref })}
      />
      <RulesToolbar
        filters={filters}
        search={search}
        onSearch={setSearch}
        onFilters={setFilters}
        categories={categories.list}
        searchRef={searchRef}
        selectedCount={selected.size}
        canUndo={editing.canUndo}
        canRedo={editing.canRedo}
        undoTitle={undoTitle(t, 'undo', editing.nextUndo)}
        redoTitle={undoTitle(t, 'redo', editing.nextRedo)}
        onAdd={addRule}
        onDuplicate={() => void duplicate()}
        columnsMenu={
          <ColumnsMenu
            layout={columns.layout}
            onHidden={columns.setHidden}
            onReset={columns.reset}
          />
        }
        onDelete={remove}
        onSetActive={setActive}
        onRuleTrash={() => setRuleTrashOpen(true)}
        conflicts={{
          rules: report ? collisions.byRule.size : null,
          computing: collisions.computing,
          failed: collisions.failed,
          sampled: report && !report.complete ? report.probed : null,
        }}
        onUndo={() => void editing.undo()}
        onRedo={() => void editing.redo()}
      />
      <DuplicatesNotice duplicates={facts.duplicates} onShow={(q) => setSearch(q)} />
      <div className="rules-body">
        <div className="rules-main">
          <RulesGrid
            gridRef={gridRef}
            rows={rows}
            sortColumns={filters.sort}
            onSortColumnsChange={(sort) =>
              setFilters({ ...filters, sort: nextSort(filters.sort, sort) })
            }
            selected={selected}
            onSelectedChange={setSelected}
            sharedByRule={facts.sharedByRule}
            collisions={collisions.byRule}
            onOpenCollisions={onOpenCollisions}
            unpublished={unpublishedMarks}
            categories={categories.list}
            categoryIndex={categories.index}
            onCreateCategory={categories.create}
            locatedKey={located}
            onCommit={(row, next) => void commit(row, next)}
            onPasteBlock={(...args) => void onPasteBlock(...args)}
            onToggleActive={onToggleActive}
            onOpenMatching={onOpenMatching}
            onDiscardDraft={editing.discardDraft}
            onVisibleRange={(first, last) => pages.setRange(first - topCount, last - topCount)}
            layout={columns.layout}
            onMoveColumn={columns.move}
            onResizeColumn={columns.resize}
            onCopied={(count) => {
              if (count > 0) toasts.show(t('rules.copiedRows', { count }));
            }}
          />
          <RulesGridOverlay
            total={pages.total}
            drafts={draftCount}
            filtered={filtered}
            error={pages.error}
            onRetry={pages.refresh}
            onClearFilters={() => {
              setSearch('');
              setFilters(NO_FILTERS);
            }}
            onAdd={addRule}
            onImport={() => setImportOpen(true)}
            onTemplate={() => void files.downloadTemplate()}
          />
        </div>
        {tryOpen ? (
          <TryPane
            client={client}
            robotRef={ref}
            onOpenRule={(ruleId) => void openRule(ruleId)}
            onAddPhrasing={editing.addPhrasing}
            collisions={collisions}
            onClose={() => setTryOpen(false)}
            {...(tryQuestion !== undefined ? { initialQuestion: tryQuestion } : {})}
          />
        ) : null}
      </div>
      {ruleTrashOpen ? (
        <RuleTrashDialog
          client={client}
          robotRef={ref}
          robotName={robot.name}
          onRestored={(count) => {
            toasts.show(t('ruleTrash.restored', { count }));
            pages.refresh();
            onChanged();
          }}
          onClose={() => setRuleTrashOpen(false)}
        />
      ) : null}
      {categoriesOpen ? (
        <CategoriesDialog
          robotName={robot.name}
          categories={categories}
          onChanged={onCategoriesChanged}
          onShowRules={(categoryId) => {
            setFilters({ ...NO_FILTERS, category: categoryId });
            setSearch('');
            setCategoriesOpen(false);
          }}
          onClose={() => setCategoriesOpen(false)}
        />
      ) : null}
      {collisionsOf ? (
        <CollisionsDialog
          ruleName={collisionsOf.ruleName}
          collisions={collisions.byRule.get(collisionsOf.ruleId) ?? []}
          onOpenRule={(ruleId) => {
            setCollisionsOf(null);
            void openRule(ruleId);
          }}
          onClose={() => setCollisionsOf(null)}
        />
      ) : null}
      {matching ? (
        <RuleMatchingDialog
          client={client}
          robotRef={ref}
          rule={matching}
          onClose={() => setMatching(null)}
          onSaved={(rule) => {
            pages.replaceRule(rule);
            onChanged();
          }}
        />
      ) : null}
      {importOpen ? (
        <ImportDialog
          client={client}
          customer={workspace.customer}
          robotRef={ref}
          robot={robot}
          onClose={() => setImportOpen(false)}
          onImported={() => {
            pages.refresh();
            onChanged();
          }}
          onTemplate={() => void files.downloadTemplate()}
        />
      ) : null}
    </div>
  );
}
