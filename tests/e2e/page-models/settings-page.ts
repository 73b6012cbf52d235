import type { Locator, Page } from '@playwright/test';
import type { MessageKey } from '../../../renderer/i18n/types';
import { translator } from '../support/i18n';
import type { Locale, Translate } from '../support/i18n';

/** The robot settings page, in the language of the test. */
export class SettingsPage {
  readonly page: Page;
  readonly t: Translate;
  readonly view: Locator;
  readonly status: Locator;
  readonly groups: Locator;

  constructor(page: Page, lang: Locale = 'en') {
    this.page = page;
    this.t = translator(lang);
    this.view = page.getByTestId('settings-page');
    this.status = this.view.getByTestId('settings-status');
    this.groups = this.view
      .getByRole('list', { name: this.t('settings.synonyms') })
      .locator('> li');
  }

  /** Opens the settings of the robot shown, from its entry in the sidebar. */
  async openFromSidebar(robotName = this.t('robot.defaultName')): Promise<void> {
    await this.page
      .getByRole('navigation')
      .getByRole('button', { name: this.t('robot.settingsNamed', { name: robotName }) })
      .click();
    await this.view.waitFor();
  }

  field(label: MessageKey): Locator {
    return this.view.getByLabel(this.t(label), { exact: true });
  }

  /** The error shown under a field. */
  errorOf(label: MessageKey): Locator {
    return this.view
      .locator('.field')
      .filter({ has: this.page.getByLabel(this.t(label), { exact: true }) })
      .locator('.field-error');
  }

  /** The robot's language. */
  language(): Locator {
    return this.view.getByRole('combobox', { name: this.t('settings.languageField') });
  }

  /** The line under a setting saying its default (`fallbackText`, `margin`…). */
  defaultOf(field: string): Locator {
    return this.view.getByTestId(`default-${field}`);
  }

  async resetToDefault(label: MessageKey): Promise<void> {
    await this.view
      .getByRole('button', { name: this.t('settings.resetNamed', { field: this.t(label) }) })
      .click();
  }

  member(group: number, n: number): Locator {
    return this.view.getByLabel(this.t('settings.synonymMemberN', { group, n }), { exact: true });
  }

  async addGroup(words: string[]): Promise<void> {
    await this.view.getByRole('button', { name: `+ ${this.t('settings.addGroup')}` }).click();
    const group = await this.groups.count();
    for (const [i, word] of words.entries()) {
      if (i >= 2) {
        await this.view
          .getByRole('button', { name: this.t('settings.addMemberTo', { n: group }), exact: true })
          .click();
      }
      await this.member(group, i + 1).fill(word);
    }
  }

  async removeGroup(n: number): Promise<void> {
    await this.view
      .getByRole('button', { name: this.t('settings.removeGroup', { n }), exact: true })
      .click();
  }

  async save(): Promise<void> {
    await this.view.getByRole('button', { name: this.t('settings.save') }).click();
  }

  async backToRules(): Promise<void> {
    await this.view.getByRole('button', { name: `← ${this.t('settings.backToRules')}` }).click();
  }
}
