import type { SortColumn } from 'react-data-grid';
import type { RuleQuery, RuleSortKey } from '../../../electron/service/console-types';

export interface RuleFilters {
  q: string;
  active: 'all' | 'active' | 'inactive';
  category: string | null;
  sort: readonly SortColumn[];
}

export const NO_FILTERS: RuleFilters = { q: '', active: 'all', category: null, sort: [] };

const SORT_KEYS: Record<string, RuleSortKey> = {
  ruleName: 'ruleName',
  ruleCategoryId: 'category',
  active: 'active',
  updatedAt: 'updated',
};

/** The `rules` route's query for what the toolbar and the column headers say. */
export function toRuleQuery(filters: RuleFilters): RuleQuery {
  const sort = filters.sort[0];
  const sortKey = sort ? SORT_KEYS[sort.columnKey] : undefined;
  return {
    ...(filters.q.trim() !== '' ? { q: filters.q.trim() } : {}),
    ...(filters.active !== 'all' ? { active: filters.active === 'active' } : {}),
    ...(filters.category !== null ? { category: filters.category } : {}),
    ...(sort && sortKey ? { sort: sortKey, dir: sort.direction === 'DESC' ? 'desc' : 'asc' } : {}),
  };
}
