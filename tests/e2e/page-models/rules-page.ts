import { expect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import type { MessageKey } from '../../../renderer/i18n/types';
import { translator } from '../support/i18n';
import type { Locale, Translate } from '../support/i18n';

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
  matching: 10,
  hits: 11,
  /** Hidden by default: where it is once shown from the Columns menu (the only one shown). */
  updated: 12,
  lastHit: 12,
} as const;

export type ColumnName = keyof typeof COLUMNS;

/** The rule grid of one robot: cells, editing, selection, search, filters, undo, columns. */
export class RulesPage {
  readonly page: Page;
  readonly t: Translate;
  readonly view: Locator;
  readonly grid: Locator;
  readonly total: Locator;
  readonly status: Locator;
  readonly search: Locator;

  constructor(page: Page, lang: Locale = 'en') {
    this.page = page;
    this.t = translator(lang);
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

  /**
   * Waits until the header counts `count` rules: "12 rules", or "3 of 12 rules" (any total) when
   * a search or filter is on, in the language of the test.
   */
  async waitForRows(count: number): Promise<void> {
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const all = escape(this.t('rules.count', { count }));
    const some = escape(this.t('rules.countFiltered', { shown: count, count: 999_999_999 }))
      .split(escape((999_999_999).toLocaleString('en-US')))
      .join('[\\d,]+');
    await this.total.filter({ hasText: new RegExp(`^(${all}|${some})$`) }).waitFor();
  }

  /** The header cell of a column, by its label. */
  header(label: MessageKey): Locator {
    return this.grid.getByRole('columnheader', { name: this.t(label), exact: true });
  }

  /** Shows or hides a column through the Columns menu. */
  async showColumn(label: MessageKey, shown: boolean): Promise<void> {
    const toggle = this.view.getByRole('button', { name: `${this.t('columns.open')} ▾` });
    const panel = this.view.getByRole('group', { name: this.t('columns.title') });
    if (!(await panel.isVisible())) await toggle.click();
    await panel.getByRole('checkbox', { name: this.t(label), exact: true }).setChecked(shown);
  }

  async resetColumns(): Promise<void> {
    const panel = this.view.getByRole('group', { name: this.t('columns.title') });
    if (!(await panel.isVisible())) {
      await this.view.getByRole('button', { name: `${this.t('columns.open')} ▾` }).click();
    }
    await panel.getByRole('button', { name: this.t('columns.reset') }).click();
  }

  /** Drags the right edge of a column header by `dx` pixels. */
  async resizeColumn(label: MessageKey, dx: number): Promise<void> {
    const box = await this.header(label).boundingBox();
    if (!box) throw new Error('header not shown');
    const x = box.x + box.width - 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + dx / 2, y, { steps: 4 });
    await this.page.mouse.move(x + dx, y, { steps: 4 });
    await this.page.mouse.up();
  }

  /** Adds a rule with the toolbar: a draft row at the top, its name cell in edit mode. */
  async addRule(): Promise<void> {
    await this.clickToolbar(`+ ${this.t('rules.add')}`);
  }

  /** The name cell's editor of the row being added. */
  nameInput(): Locator {
    return this.grid.locator('input.cell-input');
  }

  /** Edits the rule name: double-click, type, Enter. */
  async editText(i: number, column: 'ruleName', value: string) {
    await this.cell(i, column).dblclick();
    // Found in the cell clicked, by its accessible name (the column's name as the user reads
    // it): an editor opened in another row fails here, not as a wrong value further on.
    const input = this.cell(i, column).getByRole('textbox', {
      name: this.t('rules.col.ruleName'),
      exact: true,
    });
    await input.fill(value);
    await input.press('Enter');
  }

  /** The category picker of the cell being edited. */
  categoryPicker(): Locator {
    return this.page.getByRole('dialog', { name: this.t('rules.col.category'), exact: true });
  }

  /** Opens the category picker of row `i`. */
  async openCategory(i: number): Promise<Locator> {
    await this.revealColumn('category');
    await this.cell(i, 'category').dblclick();
    const picker = this.categoryPicker();
    await picker.waitFor();
    return picker;
  }

  /** Picks a category of the list for row `i` (`null`: no category). */
  async pickCategory(i: number, name: string | null): Promise<void> {
    const picker = await this.openCategory(i);
    await picker
      .getByRole('option', { name: name ?? this.t('rules.noCategory'), exact: true })
      .click();
    await picker.waitFor({ state: 'detached' });
  }

  /** Types a name that is no category yet in row `i`'s picker, and creates it with Enter. */
  async createCategory(i: number, name: string): Promise<void> {
    const picker = await this.openCategory(i);
    await picker.getByRole('combobox').fill(name);
    await expect(
      picker.getByRole('option', { name: this.t('categories.createNamed', { name }) }),
    ).toHaveAttribute('aria-selected', 'true');
    await picker.getByRole('combobox').press('Enter');
    await picker.waitFor({ state: 'detached' });
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
      await this.rowNamed(name)
        .getByRole('checkbox', { name: this.t('rules.selectRow'), exact: true })
        .check();
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

  async filterStatus(label: string): Promise<void> {
    await this.view
      .getByRole('combobox', { name: this.t('rules.filterState') })
      .selectOption({ label });
  }

  categoryFilter(): Locator {
    return this.view.getByRole('combobox', { name: this.t('rules.col.category') });
  }

  async filterCategory(label: string): Promise<void> {
    await this.view
      .getByRole('combobox', { name: this.t('rules.col.category') })
      .selectOption({ label });
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
