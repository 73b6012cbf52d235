/**
 * A rule's fields as the text of a spreadsheet cell, and back: what copy, paste, the import and
 * the export agree on.
 * @module
 */
import type { CategoryIndex } from './category-index';
import type { EditableRule, RuleField } from './grid-row';

/** Columns of a copied row, in the grid's order. */
export const CELL_FIELDS: readonly RuleField[] = [
  'ruleName',
  'questions',
  'answer',
  'ruleCategoryId',
  'active',
  'effectBeignDate',
  'effectEndDate',
];

const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'on', '是', '启用', '有效', '✓']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'off', '否', '停用', '无效', '✗']);

/** `true`/`false` for the usual words (English and Chinese); undefined for anything else. */
export function parseActive(text: string): boolean | undefined {
  const word = text.trim().toLowerCase();
  if (word === '') return undefined;
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

/** Phrasings from one cell: one a line, blank lines dropped, the rest kept as typed. */
export function splitQuestions(text: string): string[] {
  return text.split(/\r\n|\n|\r/).filter((line) => line.trim() !== '');
}

function pad(n: number, width = 2): string {
  return String(Math.abs(n)).padStart(width, '0');
}

/** A date as ISO 8601 with the local offset (`2025-01-31T09:00:00+08:00`). */
export function toIsoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  );
}

/**
 * A date typed or pasted: '' is none; an ISO string with an offset is kept as it is; anything
 * else the browser can read (`2025-01-31 09:00`) is taken in local time. Unreadable text is
 * returned as is, for the check to mark.
 */
export function parseDate(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (/(?:Z|[+-]\d{2}:\d{2})$/.test(trimmed) && /T/.test(trimmed)) return trimmed;
  const parsed = new Date(trimmed.replace(' ', 'T'));
  return Number.isNaN(parsed.getTime()) ? trimmed : toIsoWithOffset(parsed);
}

/** A cell as text; the category by its name. */
export function cellText(rule: EditableRule, field: RuleField, categories: CategoryIndex): string {
  switch (field) {
    case 'ruleCategoryId':
      return categories.nameOf(rule.ruleCategoryId);
    case 'questions':
      return rule.questions.join('\n');
    case 'active':
      return rule.active ? 'TRUE' : 'FALSE';
    case 'effectBeignDate':
    case 'effectEndDate':
      return rule[field] ?? '';
    default:
      return rule[field];
  }
}

/**
 * `rule` with `field` set from pasted text (unchanged when the text means nothing there: a
 * category is pasted by the name of one of the robot's categories, or blank for none).
 */
export function withCellText(
  rule: EditableRule,
  field: RuleField,
  text: string,
  categories: CategoryIndex,
): EditableRule {
  switch (field) {
    case 'ruleCategoryId': {
      const categoryId = categories.idOf(text);
      return categoryId === undefined ? rule : { ...rule, ruleCategoryId: categoryId };
    }
    case 'questions':
      return { ...rule, questions: splitQuestions(text) };
    case 'active': {
      const active = parseActive(text);
      return active === undefined ? rule : { ...rule, active };
    }
    case 'effectBeignDate':
    case 'effectEndDate':
      return { ...rule, [field]: parseDate(text) };
    default:
      return { ...rule, [field]: text };
  }
}
