import type { ReactNode, RefObject } from 'react';
import type { ConsoleCategory, RuleState } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import { ConflictsFilter } from '../collisions/ConflictsFilter';
import type { RuleFilters } from './rule-query';

const STATES: readonly RuleState[] = ['active', 'inactive', 'scheduled', 'expired'];

interface RulesToolbarProps {
  filters: RuleFilters;
  search: string;
  onSearch: (q: string) => void;
  onFilters: (filters: RuleFilters) => void;
  categories: ConsoleCategory[];
  searchRef: RefObject<HTMLInputElement | null>;
  selectedCount: number;
  canUndo: boolean;
  /** What undo and redo would do, with their shortcuts. */
  undoTitle: string;
  redoTitle: string;
  canRedo: boolean;
  onAdd: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
  onSetActive: (active: boolean) => void;
  onUndo: () => void;
  onRedo: () => void;
  /** Opens the robot's deleted rules (its trash), beside Undo. */
  onRuleTrash: () => void;
  /** The columns menu, at the end of the search row. */
  columnsMenu: ReactNode;
  /** The collision check: the rules it names (null before the first), and whether it runs. */
  conflicts: { rules: number | null; computing: boolean; failed: boolean; sampled: number | null };
}

export function RulesToolbar(props: RulesToolbarProps) {
  const { t } = useI18n();
  const { filters, selectedCount } = props;
  const none = selectedCount === 0;
  return (
    <div className="toolbar" role="toolbar" aria-label={t('rules.toolbar')}>
      <div className="toolbar-row">
        <div className="toolbar-group">
          <button
            type="button"
            className="button button-primary"
            onClick={props.onAdd}
            title="Insert"
          >
            + {t('rules.add')}
          </button>
          <button
            type="button"
            className="button"
            onClick={props.onDuplicate}
            disabled={none}
            title="Ctrl+D"
          >
            {t('rules.duplicate')}
          </button>
          <button
            type="button"
            className="button"
            onClick={props.onDelete}
            disabled={none}
            title="Delete"
          >
            {t('rules.delete')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => props.onSetActive(true)}
            disabled={none}
          >
            {t('rules.activate')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => props.onSetActive(false)}
            disabled={none}
          >
            {t('rules.deactivate')}
          </button>
        </div>
        {selectedCount > 0 ? (
          <span className="toolbar-note">{t('rules.selectedCount', { count: selectedCount })}</span>
        ) : null}
        <div className="toolbar-group toolbar-end">
          <button type="button" className="button" onClick={props.onRuleTrash}>
            {t('ruleTrash.open')}
          </button>
          <button
            type="button"
            className="button"
            onClick={props.onUndo}
            disabled={!props.canUndo}
            title={props.undoTitle}
          >
            {t('rules.undo')}
          </button>
          <button
            type="button"
            className="button"
            onClick={props.onRedo}
            disabled={!props.canRedo}
            title={props.redoTitle}
          >
            {t('rules.redo')}
          </button>
        </div>
      </div>
      <div className="toolbar-row">
        <input
          ref={props.searchRef}
          type="search"
          className="search"
          placeholder={t('rules.searchPlaceholder')}
          aria-label={t('rules.search')}
          value={props.search}
          onChange={(event) => props.onSearch(event.target.value)}
        />
        <label className="inline-field">
          <span>{t('rules.filterState')}</span>
          <select
            value={filters.state}
            onChange={(event) =>
              props.onFilters({ ...filters, state: event.target.value as RuleFilters['state'] })
            }
          >
            <option value="all">{t('rules.filterAll')}</option>
            {STATES.map((state) => (
              <option key={state} value={state}>
                {t(`state.${state}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t('rules.col.category')}</span>
          <select
            value={filters.category ?? '\u0000all'}
            onChange={(event) =>
              props.onFilters({
                ...filters,
                category: event.target.value === '\u0000all' ? null : event.target.value,
              })
            }
          >
            <option value={'\u0000all'}>{t('rules.filterAll')}</option>
            <option value="">{t('rules.noCategory')}</option>
            {props.categories.map((category) => (
              <option key={category.categoryId} value={category.categoryId}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <ConflictsFilter
          {...props.conflicts}
          on={filters.conflicts}
          onChange={(conflicts) => props.onFilters({ ...filters, conflicts })}
        />
        <div className="toolbar-end">{props.columnsMenu}</div>
      </div>
    </div>
  );
}
