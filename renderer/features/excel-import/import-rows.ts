/**
 * Spreadsheet rows turned into rules, each checked before anything is sent.
 * @module
 */
import type { FieldProblem } from '../../api/field-check';
import { parseActive, parseDate, splitQuestions } from '../../lib/rules/cell-values';
import { EMPTY_RULE } from '../../lib/rules/grid-row';
import type { EditableRule } from '../../lib/rules/grid-row';
import { checkCategoryName, checkRule } from '../../lib/rules/rule-checks';
import type { MatchPolicy } from '../../../electron/service/console-types';
import type { Mapping } from './column-mapping';
import { parseKeywords, parseMenu, parsePolicy } from './conversation-cells';
import type { MenuCellEntry } from './conversation-cells';

/** What a row sets beyond the grid's fields (match policy, negative keywords, menu). */
export interface ImportExtras {
  matchPolicy?: MatchPolicy;
  negativeKeywords?: string[];
  /** Entries naming their rules; resolved once every rule of the import is made. */
  menu?: MenuCellEntry[];
}

export interface ImportRow {
  /** 1-based row number in the sheet, as Excel shows it. */
  sheetRow: number;
  cells: string[];
  rule: EditableRule;
  /** The name of the row's category ('' for none): filed by name, made if new. */
  category: string;
  extras?: ImportExtras;
  /** The first problem found, or null when the row can be sent. */
  problem: FieldProblem | null;
}

export function toImportRows(rows: readonly string[][], mapping: Mapping): ImportRow[] {
  const out: ImportRow[] = [];
  // The first row of each rule name: a later row of the same name is said in the preview (the
  // service would refuse it during the import).
  const firstOfName = new Map<string, number>();
  const start = mapping.hasHeader ? 1 : 0;
  for (let r = start; r < rows.length; r += 1) {
    const cells = rows[r] ?? [];
    if (cells.every((cell) => cell.trim() === '')) continue;
    const rule: EditableRule = { ...EMPTY_RULE, questions: [] };
    let category = '';
    const extras: ImportExtras = {};
    let problem: FieldProblem | null = null;
    mapping.roles.forEach((role, c) => {
      const cell = cells[c] ?? '';
      switch (role) {
        case 'ruleName':
          rule.ruleName = cell;
          break;
        case 'question':
          rule.questions = [...rule.questions, ...splitQuestions(cell)];
          break;
        case 'answer':
          rule.answer = cell;
          break;
        case 'category':
          category = cell;
          break;
        case 'active': {
          const active = parseActive(cell);
          if (active === undefined && cell.trim() !== '') {
            problem ??= {
              field: 'active',
              message: `active must be TRUE or FALSE, not "${cell}".`,
              keyword: 'active',
              params: { value: cell },
            };
          }
          rule.active = active ?? true;
          break;
        }
        case 'begin':
          rule.effectBeignDate = parseDate(cell);
          break;
        case 'end':
          rule.effectEndDate = parseDate(cell);
          break;
        case 'policy': {
          const policy = parsePolicy(cell);
          if (policy === null) {
            problem ??= {
              field: 'matchPolicy',
              message: `matchPolicy must be similarity, exact or contains, not "${cell}".`,
              keyword: 'enum',
              params: { allowedValues: ['similarity', 'exact', 'contains'] },
            };
          } else if (policy !== undefined) extras.matchPolicy = policy;
          break;
        }
        case 'negative':
          if (cell.trim() !== '') extras.negativeKeywords = parseKeywords(cell);
          break;
        case 'menu':
          if (cell.trim() !== '') extras.menu = parseMenu(cell);
          break;
        case 'ignore':
          break;
      }
    });
    if (!problem) {
      const problems = checkRule(rule);
      problem =
        problems.ruleName ??
        problems.questions ??
        problems.answer ??
        (category.trim() === '' ? null : checkCategoryName(category)) ??
        problems.effectBeignDate ??
        problems.effectEndDate ??
        null;
    }
    const name = rule.ruleName.trim();
    const first = firstOfName.get(name);
    if (!problem && name !== '' && first !== undefined) {
      problem = {
        field: 'ruleName',
        message: `ruleName "${name}" is also the name of row ${first}.`,
        keyword: 'duplicate-in-file',
        params: { name, row: first },
      };
    }
    if (name !== '' && first === undefined) firstOfName.set(name, r + 1);
    const hasExtras = Object.keys(extras).length > 0;
    out.push({ sheetRow: r + 1, cells, rule, category, problem, ...(hasExtras ? { extras } : {}) });
  }
  return out;
}
