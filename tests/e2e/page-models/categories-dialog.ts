import type { Locator, Page } from '@playwright/test';
import { translator } from '../support/i18n';
import type { Locale, Translate } from '../support/i18n';

/** A robot's categories (opened from the rules view), in the language of the test. */
export class CategoriesDialog {
  readonly page: Page;
  readonly t: Translate;
  readonly dialog: Locator;
  readonly rows: Locator;

  constructor(page: Page, lang: Locale = 'en') {
    this.page = page;
    this.t = translator(lang);
    this.dialog = page.getByTestId('categories-dialog');
    this.rows = this.dialog
      .getByRole('table', { name: this.t('categories.list') })
      .locator('tbody tr');
  }

  async open(): Promise<void> {
    await this.page
      .getByTestId('rules-view')
      .getByRole('button', { name: this.t('categories.open'), exact: true })
      .click();
    await this.dialog.waitFor();
  }

  row(name: string): Locator {
    return this.rows.filter({
      has: this.page.getByRole('checkbox', {
        name: this.t('categories.selectNamed', { name }),
        exact: true,
      }),
    });
  }

  newName(): Locator {
    return this.dialog.getByLabel(this.t('categories.newName'), { exact: true });
  }

  async create(name: string): Promise<void> {
    await this.newName().fill(name);
    await this.dialog.getByRole('button', { name: `+ ${this.t('categories.add')}` }).click();
  }

  async rename(name: string, to: string): Promise<void> {
    await this.dialog
      .getByRole('button', { name: this.t('categories.renameNamed', { name }), exact: true })
      .click();
    const input = this.dialog.getByLabel(this.t('categories.newNameOf', { name }), {
      exact: true,
    });
    await input.fill(to);
    await input.press('Enter');
  }

  async select(names: string[]): Promise<void> {
    for (const name of names) {
      await this.dialog
        .getByRole('checkbox', { name: this.t('categories.selectNamed', { name }), exact: true })
        .check();
    }
  }

  async merge(names: string[], keep: string): Promise<Locator> {
    await this.select(names);
    await this.dialog.getByRole('button', { name: this.t('categories.merge') }).click();
    const confirm = this.page.getByTestId('merge-dialog');
    const kept = confirm.getByLabel(this.t('categories.mergeInto'), { exact: true });
    // Options read "name (n rules)": the one kept is found by its name.
    const value = await kept
      .locator('option')
      .filter({ hasText: `${keep} (` })
      .getAttribute('value');
    await kept.selectOption(value ?? '');
    return confirm;
  }

  async delete(name: string): Promise<Locator> {
    await this.dialog
      .getByRole('button', { name: this.t('categories.deleteNamed', { name }), exact: true })
      .click();
    return this.page.getByTestId('confirm-dialog');
  }

  async showRules(name: string): Promise<void> {
    await this.dialog
      .getByRole('button', { name: this.t('categories.showRules', { name }), exact: true })
      .click();
  }

  async close(): Promise<void> {
    await this.dialog
      .getByRole('button', { name: this.t('common.close'), exact: true })
      .last()
      .click();
  }
}
