import type { Locator, Page } from '@playwright/test';
import { translator } from '../support/i18n';
import type { Locale, Translate } from '../support/i18n';

export interface TenantForm {
  company: string;
  username: string;
  password: string;
  phoneNumber: string;
  mail: string;
}

/** Registering tenants; a tenant's administrators and robots. */
export class WorkspacePage {
  readonly page: Page;
  readonly t: Translate;
  readonly registerDialog: Locator;
  readonly tenantPage: Locator;
  readonly userDialog: Locator;
  readonly robotDialog: Locator;

  constructor(page: Page, lang: Locale = 'en') {
    this.page = page;
    this.t = translator(lang);
    this.registerDialog = page.getByTestId('register-tenant-dialog');
    this.tenantPage = page.getByTestId('tenant-page');
    this.userDialog = page.getByTestId('user-dialog');
    this.robotDialog = page.getByTestId('robot-dialog');
  }

  async openRegister(): Promise<void> {
    await this.page
      .getByRole('navigation')
      .getByRole('button', { name: `+ ${this.t('sidebar.register')}` })
      .click();
    await this.registerDialog.waitFor();
  }

  async fillTenant(form: Partial<TenantForm>): Promise<void> {
    const d = this.registerDialog;
    const { t } = this;
    if (form.company !== undefined) await d.getByLabel(t('tenant.company')).fill(form.company);
    if (form.username !== undefined) await d.getByLabel(t('user.username')).fill(form.username);
    if (form.password !== undefined) await d.getByLabel(t('user.password')).fill(form.password);
    if (form.phoneNumber !== undefined) {
      await d.getByLabel(t('tenant.phoneNumber')).fill(form.phoneNumber);
    }
    if (form.mail !== undefined) await d.getByLabel(t('tenant.mail')).fill(form.mail);
  }

  async submitRegister(): Promise<void> {
    await this.registerDialog
      .getByRole('button', { name: this.t('tenant.register'), exact: true })
      .click();
  }

  /** The error shown next to a field of the open dialog. */
  fieldError(dialog: Locator, label: string): Locator {
    return dialog
      .locator('.field')
      .filter({ has: this.page.getByLabel(label, { exact: true }) })
      .locator('.field-error');
  }

  admins(): Locator {
    return this.tenantPage.getByRole('table', { name: this.t('user.title') }).locator('tbody tr');
  }

  robots(): Locator {
    return this.tenantPage.getByRole('table', { name: this.t('robot.title') }).locator('tbody tr');
  }

  async addAdmin(username: string, password: string): Promise<void> {
    await this.tenantPage.getByRole('button', { name: '+ Add administrator' }).click();
    await this.userDialog.getByLabel('User name').fill(username);
    await this.userDialog.getByLabel('Password').fill(password);
    await this.userDialog.getByRole('button', { name: 'Save' }).click();
  }

  async editAdmin(current: string, username: string): Promise<void> {
    await this.tenantPage.getByRole('button', { name: `Edit ${current}` }).click();
    await this.userDialog.getByLabel('User name').fill(username);
    await this.userDialog.getByRole('button', { name: 'Save' }).click();
  }

  async createRobot(name: string): Promise<void> {
    await this.tenantPage.getByRole('button', { name: '+ New robot' }).click();
    await this.robotDialog.getByLabel('Robot name').fill(name);
    await this.robotDialog.getByRole('button', { name: 'New robot' }).click();
  }

  async renameRobot(current: string, name: string): Promise<void> {
    await this.tenantPage.getByRole('button', { name: `Rename ${current}` }).click();
    await this.robotDialog.getByLabel('Robot name').fill(name);
    await this.robotDialog.getByRole('button', { name: 'Save' }).click();
  }
}
