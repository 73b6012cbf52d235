/**
 * A test set as a sheet: question, expectation, rule name. The expectation is written as its
 * code (`rule`, `recommend`, `fallback`) so that a sheet goes back in whatever the editor's
 * language; the localised labels are read too. Sheets are parsed in the sheet worker.
 * @module
 */
import type {
  TestCaseInput,
  TestCaseView,
  TestExpectation,
} from '../../../electron/service/publishing-types';
import type { Translate } from '../../i18n/types';
import type { PlainSheet } from '../../lib/sheets/sheet-messages';

const EXPECTATIONS: readonly TestExpectation[] = ['rule', 'recommend', 'fallback'];

export function casesToSheet(t: Translate, cases: readonly TestCaseView[]): PlainSheet {
  return {
    name: t('tests.cases'),
    rows: [
      [t('tests.question'), t('tests.expect'), t('tests.ruleName')],
      ...cases.map((c) => [c.question, c.expect, c.ruleName ?? '']),
    ],
  };
}

export interface SheetCases {
  cases: TestCaseInput[];
  /** Rows (1-based, as the sheet numbers them) that could not be read, with why. */
  problems: { row: number; text: string }[];
}

/** Reads the first sheet: a header row, then one case a row; blank rows are skipped. */
export function casesFromSheet(t: Translate, sheet: PlainSheet | undefined): SheetCases {
  const out: SheetCases = { cases: [], problems: [] };
  const labels = new Map<string, TestExpectation>();
  for (const e of EXPECTATIONS) {
    labels.set(e, e);
    labels.set(t(`tests.expect.${e}`).toLowerCase(), e);
  }
  for (const [i, row] of (sheet?.rows ?? []).slice(1).entries()) {
    const [question = '', expectText = '', ruleName = ''] = row.map((cell) => cell.trim());
    if (question === '' && expectText === '' && ruleName === '') continue;
    const expect = labels.get(expectText.toLowerCase()) ?? (expectText === '' ? 'rule' : undefined);
    if (question === '' || expect === undefined || (expect !== 'fallback' && ruleName === '')) {
      out.problems.push({ row: i + 2, text: row.join(' | ') });
      continue;
    }
    out.cases.push(expect === 'fallback' ? { question, expect } : { question, expect, ruleName });
  }
  return out;
}
