import type { Locator, Page } from '@playwright/test';

/** Columns of the rule grid by their aria-colindex. */
export const COLUMNS = {
  select: 1,
  index: 2,
  ruleName: 3,
  questions: 4,
  answer: 5,
  category: 6,
  active: 7,
  begin: 8,
  end: 9,
  updated: 10,
} as const;

export type ColumnName = keyof typeof COLUMNS;

/** The rule grid of one robot: cells, editing, selection, search, filters, undo. */
export class RulesPage {
  readonly page: Page;
  readonly view: Locator;
  readonly grid: Locator;
  readonly total: Locator;
  readonly status: Locator;
  readonly search: Locator;

  constructor(page: Page) {
    this.page = page;
    this.view = page.getByTestId('rules-view');
    this.grid = this.view.getByRole('grid', { name: /Rules|规则/ });
    this.total = page.getByTestId('rule-total');
    this.status = page.getByTestId('cell-status');
    this.search = this.view.getByRole('searchbox', { name: /Search rules|搜索规则/ });
  }

  /** Row `i` of the grid (0 = first data row). */
  row(i: number): Locator {
    return this.grid.locator(`[role="row"][aria-rowindex="${i + 2}"]`);
  }

  /** Scrolls the grid sideways so that `column` is rendered (columns are virtualised too). */
  async revealColumn(column: ColumnName): Promise<void> {
    const left = COLUMNS[column] >= COLUMNS.category;
    await this.grid.evaluate((el, toEnd) => {
      el.scrollLeft = toEnd ? el.scrollWidth : 0;
    }, left);
  }

  cell(i: number, column: ColumnName): Locator {
    return this.row(i).locator(`[role="gridcell"][aria-colindex="${COLUMNS[column]}"]`);
  }

  rowNamed(name: string): Locator {
    return this.grid.getByRole('row').filter({
      has: this.page.locator(`[aria-colindex="${COLUMNS.ruleName}"]`, { hasText: name }),
    });
  }

  /** Waits until the header counts `count` rules ("12 rules", "3 of 12 rules", "12 条规则"…). */
  async waitForTotal(count: number): Promise<void> {
    const n = count.toLocaleString('en-US');
    await this.total.filter({ hasText: new RegExp(`^(${n}\\D|.*\\D${n}\\D)`) }).waitFor();
  }

  /** Waits until the grid shows `count` rules ("12 rules", or "3 of 12 rules" when filtered). */
  async waitForRows(count: number): Promise<void> {
    const n = count.toLocaleString('en-US');
    await this.total.filter({ hasText: new RegExp(`^${n}( of [\\d,]+)? rules?$`) }).waitFor();
  }

  /** Edits a one-line text cell (name, category): double-click, type, Enter. */
  async editText(i: number, column: 'ruleName' | 'ruleCategoryId' | 'category', value: string) {
    const col = column === 'ruleCategoryId' ? 'category' : column;
    await this.cell(i, col).dblclick();
    const input = this.grid.locator('input.cell-input');
    await input.fill(value);
    await input.press('Enter');
  }

  async editAnswer(i: number, value: string): Promise<void> {
    await this.cell(i, 'answer').dblclick();
    const area = this.page.getByRole('dialog', { name: /Answer|答案/ }).getByRole('textbox');
    await area.fill(value);
    await area.press('Enter');
  }

  async editQuestions(i: number, questions: string[]): Promise<void> {
    await this.cell(i, 'questions').dblclick();
    const panel = this.page.getByRole('dialog', { name: /Questions|问题/ });
    for (let q = 0; q < questions.length; q += 1) {
      const inputs = panel.getByRole('textbox');
      if ((await inputs.count()) <= q) {
        await panel.getByRole('button', { name: /Add a phrasing|添加问法/ }).click();
      }
      await inputs.nth(q).fill(questions[q] ?? '');
    }
    await panel.getByRole('button', { name: /Done|完成/ }).click();
  }

  async selectRows(names: string[]): Promise<void> {
    for (const name of names) {
      await this.rowNamed(name).getByRole('checkbox', { name: 'Select', exact: true }).check();
    }
  }

  async clickToolbar(name: RegExp | string): Promise<void> {
    await this.view.getByRole('toolbar').getByRole('button', { name }).click();
  }

  async undo(): Promise<void> {
    await this.clickToolbar('Undo');
  }

  async redo(): Promise<void> {
    await this.clickToolbar('Redo');
  }

  async filterStatus(label: 'All' | 'Active' | 'Inactive'): Promise<void> {
    await this.view.getByRole('combobox', { name: 'Status' }).selectOption({ label });
  }

  async filterCategory(label: string): Promise<void> {
    await this.view.getByRole('combobox', { name: 'Category' }).selectOption({ label });
  }

  /** Pastes tab-separated text on a cell, as Excel puts it on the clipboard. */
  async pasteOn(cell: Locator, text: string): Promise<void> {
    await cell.scrollIntoViewIfNeeded();
    await cell.click();
    await cell.evaluate(clipboardEvent, { type: 'paste' as const, text });
  }

  /** What a copy on the active cell puts on the clipboard. */
  async copyFrom(cell: Locator): Promise<string> {
    await cell.click();
    return cell.evaluate(clipboardEvent, { type: 'copy' as const, text: '' });
  }
}

/** The browser globals used below (this file is type-checked against Node's types). */
interface ClipboardGlobals {
  DataTransfer: new () => {
    setData(type: string, data: string): void;
    getData(type: string): string;
  };
  ClipboardEvent: new (type: string, init: Record<string, unknown>) => unknown;
}

/** Runs in the page: dispatches a paste or copy event with its own clipboard data. */
function clipboardEvent(
  element: { dispatchEvent(event: never): boolean },
  { type, text }: { type: 'paste' | 'copy'; text: string },
): string {
  const g = globalThis as unknown as ClipboardGlobals;
  const transfer = new g.DataTransfer();
  if (type === 'paste') transfer.setData('text/plain', text);
  const event = new g.ClipboardEvent(type, {
    clipboardData: transfer,
    bubbles: true,
    cancelable: true,
  });
  element.dispatchEvent(event as never);
  return transfer.getData('text/plain');
}
