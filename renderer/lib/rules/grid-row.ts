/**
 * Rows of the rule grid: a rule read from the service, a new rule not saved yet (a draft, kept
 * at the top until it is valid), or a place holder for a rule whose page is still loading.
 * @module
 */
import type { ConsoleRule } from '../../../electron/service/console-types';
import type { Problem } from '../../api/problem';
import type { CategoryIndex } from './category-index';

/** The fields a user edits, as the grid holds them (the category by its id, '' for none). */
export interface EditableRule {
  ruleName: string;
  questions: string[];
  answer: string;
  ruleCategoryId: string;
  active: boolean;
  effectBeignDate: string | null;
  effectEndDate: string | null;
}

export type RuleField = keyof EditableRule;

export const EDITABLE_FIELDS: readonly RuleField[] = [
  'ruleName',
  'questions',
  'answer',
  'ruleCategoryId',
  'active',
  'effectBeignDate',
  'effectEndDate',
];

/** A failure of the service on this row, placed on the field it named. */
export interface RowError {
  field: RuleField | null;
  problem: Problem;
}

export type GridRow =
  | {
      kind: 'rule';
      key: string;
      index: number;
      /** What the cells show: the saved rule, or an edit not sent yet because it is invalid. */
      rule: EditableRule;
      saved: ConsoleRule;
      error?: RowError;
      /**
       * Created in this view (added, pasted, duplicated): kept at the top, where it was made,
       * instead of jumping to its place in the list, for as long as the query stays the same.
       */
      fresh?: boolean;
    }
  | {
      kind: 'draft';
      key: string;
      rule: EditableRule;
      saving: boolean;
      /** Something was entered: until then the missing fields are not marked. */
      touched: boolean;
      error?: RowError;
    }
  | { kind: 'loading'; key: string; index: number };

export type EditableRow = Exclude<GridRow, { kind: 'loading' }>;

export function isEditable(row: GridRow): row is EditableRow {
  return row.kind !== 'loading';
}

export function editableOf(rule: ConsoleRule): EditableRule {
  return {
    ruleName: rule.ruleName,
    questions: rule.questions,
    answer: rule.answer,
    ruleCategoryId: rule.ruleCategoryId,
    active: rule.active !== false,
    effectBeignDate: rule.effectBeignDate,
    effectEndDate: rule.effectEndDate,
  };
}

export const EMPTY_RULE: EditableRule = {
  ruleName: '',
  questions: [],
  answer: '',
  ruleCategoryId: '',
  active: true,
  effectBeignDate: null,
  effectEndDate: null,
};

function sameValue(a: EditableRule[RuleField], b: EditableRule[RuleField]): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => item === b[i]);
  }
  return a === b;
}

/** The fields of `next` that differ from `base`. */
export function diffRule(base: EditableRule, next: EditableRule): Partial<EditableRule> {
  const patch: Partial<EditableRule> = {};
  for (const field of EDITABLE_FIELDS) {
    if (!sameValue(base[field], next[field])) {
      (patch as Record<string, unknown>)[field] = next[field];
    }
  }
  return patch;
}

/** The values of `rule` for the fields named in `patch`. */
export function pickFields(
  rule: EditableRule,
  patch: Partial<EditableRule>,
): Partial<EditableRule> {
  const picked: Partial<EditableRule> = {};
  for (const field of Object.keys(patch) as RuleField[]) {
    (picked as Record<string, unknown>)[field] = rule[field];
  }
  return picked;
}

/**
 * The category a row shows: from the list, else (the list not read yet, or older than the row)
 * the name the service gave with the rule.
 */
export function categoryLabel(row: GridRow, index: CategoryIndex): string {
  if (row.kind === 'loading') return '';
  const id = row.rule.ruleCategoryId;
  if (id === '') return '';
  const name = index.nameOf(id);
  if (name !== '') return name;
  return row.kind === 'rule' && row.saved.ruleCategoryId === id ? row.saved.categoryName : '';
}
