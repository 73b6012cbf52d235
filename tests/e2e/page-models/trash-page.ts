import type { Locator, Page } from '@playwright/test';
import { translator } from '../support/i18n';
import type { Locale, Translate } from '../support/i18n';

/** Deleting tenants, robots and administrators; the Trash page; a robot's deleted rules. */
export class TrashPage {
  readonly page: Page;
  readonly t: Translate;
  readonly tenantPage: Locator;
  readonly trashPage: Locator;
  readonly confirm: Locator;
  readonly ruleTrash: Locator;

  constructor(page: Page, lang: Locale = 'en') {
    this.page = page;
    this.t = translator(lang);
    this.tenantPage = page.getByTestId('tenant-page');
    this.trashPage = page.getByTestId('trash-page');
    this.confirm = page.getByTestId('confirm-dialog');
    this.ruleTrash = page.getByTestId('rule-trash-dialog');
  }

  /** Asks to delete (the confirm dialog opens; nothing is deleted yet). */
  async askDeleteRobot(name: string): Promise<void> {
    await this.tenantPage
      .getByRole('button', { name: this.t('robot.deleteNamed', { name }) })
      .click();
    await this.confirm.waitFor();
  }

  async askDeleteUser(name: string): Promise<void> {
    await this.tenantPage
      .getByRole('button', { name: this.t('user.deleteNamed', { name }) })
      .click();
    await this.confirm.waitFor();
  }

  async askDeleteTenant(): Promise<void> {
    await this.tenantPage
      .getByRole('button', { name: this.t('tenant.delete'), exact: true })
      .click();
    await this.confirm.waitFor();
  }

  async confirmWith(label: string): Promise<void> {
    await this.confirm.getByRole('button', { name: label, exact: true }).click();
    await this.confirm.waitFor({ state: 'detached' });
  }

  /** The toast saying what was deleted, with its Undo. */
  toast(message: string): Locator {
    return this.page.getByRole('status').filter({ hasText: message });
  }

  async undo(message: string): Promise<void> {
    await this.toast(message)
      .getByRole('button', { name: this.t('rules.undo') })
      .click();
  }

  async openTrash(): Promise<void> {
    await this.page
      .getByRole('navigation')
      .getByRole('button', { name: this.t('trash.open'), exact: true })
      .click();
    await this.trashPage.waitFor();
  }

  /** The rows of one table of the Trash page. */
  rows(title: 'trash.tenants' | 'trash.robots' | 'trash.users'): Locator {
    return this.trashPage.getByRole('table', { name: this.t(title) }).locator('tbody tr');
  }

  async restore(name: string): Promise<void> {
    await this.trashPage
      .getByRole('button', { name: this.t('trash.restoreNamed', { name }) })
      .click();
  }

  async openRuleTrash(): Promise<void> {
    await this.page
      .getByTestId('rules-view')
      .getByRole('button', { name: this.t('ruleTrash.open'), exact: true })
      .click();
    await this.ruleTrash.waitFor();
  }
}
