import type { SortColumn } from 'react-data-grid';
import type { RuleQuery, RuleSortKey, RuleState } from '../../../electron/service/console-types';

export interface RuleFilters {
  q: string;
  /** The rules' effective state now, as the service computes it. */
  state: 'all' | RuleState;
  /** A category's id, '' for rules without one, null for all. */
  category: string | null;
  /** Only the rules of the last collision check. */
  conflicts: boolean;
  sort: readonly SortColumn[];
}

export const NO_FILTERS: RuleFilters = {
  q: '',
  state: 'all',
  category: null,
  conflicts: false,
  sort: [],
};

const SORT_KEYS: Record<string, RuleSortKey> = {
  ruleName: 'ruleName',
  ruleCategoryId: 'category',
  active: 'active',
  updatedAt: 'updated',
  hits: 'hits',
  lastHit: 'lastHit',
};

/** The `rules` route's query for what the toolbar and the column headers say. */
export function toRuleQuery(filters: RuleFilters): RuleQuery {
  const sort = filters.sort[0];
  const sortKey = sort ? SORT_KEYS[sort.columnKey] : undefined;
  return {
    ...(filters.q.trim() !== '' ? { q: filters.q.trim() } : {}),
    ...(filters.state !== 'all' ? { state: filters.state } : {}),
    ...(filters.category !== null ? { category: filters.category } : {}),
    ...(filters.conflicts ? { conflicts: true } : {}),
    ...(sort && sortKey ? { sort: sortKey, dir: sort.direction === 'DESC' ? 'desc' : 'asc' } : {}),
  };
}

/** True when a search or a filter leaves some rules out. */
export function isFiltered(filters: RuleFilters): boolean {
  return (
    filters.q !== '' || filters.state !== 'all' || filters.category !== null || filters.conflicts
  );
}
