import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { translator } from '../support/i18n';
import type { Locale, Translate } from '../support/i18n';

/** The import dialog: file, mapping, progress, report. */
export class ImportDialog {
  readonly page: Page;
  readonly t: Translate;
  readonly dialog: Locator;
  readonly progress: Locator;
  readonly report: Locator;
  readonly summary: Locator;

  constructor(page: Page, lang: Locale = 'en') {
    this.page = page;
    this.t = translator(lang);
    this.dialog = page.getByTestId('import-dialog');
    this.progress = this.dialog.getByRole('progressbar', { name: this.t('import.progress') });
    this.report = this.dialog.getByTestId('import-report');
    this.summary = this.dialog.getByTestId('import-summary');
  }

  async open(): Promise<void> {
    await this.page
      .getByTestId('rules-view')
      .getByRole('button', { name: this.t('import.open'), exact: true })
      .first()
      .click();
    await this.dialog.waitFor();
  }

  async chooseFile(path: string): Promise<void> {
    await this.dialog.getByTestId('import-file').setInputFiles(path);
    await this.summary.waitFor();
  }

  /** Rules per request: a technical knob, behind the advanced toggle. */
  async setBatchSize(size: number): Promise<void> {
    const knob = this.dialog.getByRole('spinbutton', { name: this.t('import.batchSize') });
    await expect(knob).toBeHidden();
    await this.dialog.getByText(this.t('import.advanced'), { exact: true }).click();
    await knob.fill(String(size));
  }

  async start(): Promise<void> {
    // "Import 15 rows", "导入 15 行": the button that names a count.
    await this.dialog.getByRole('button', { name: /\d/ }).last().click();
  }

  async waitForReport(): Promise<void> {
    await this.report.waitFor({ timeout: 120_000 });
  }

  failureRows(): Locator {
    return this.report.getByRole('table', { name: this.t('import.failures') }).locator('tbody tr');
  }

  async close(): Promise<void> {
    await this.dialog
      .getByRole('button', { name: this.t('common.close'), exact: true })
      .last()
      .click();
    await this.dialog.waitFor({ state: 'hidden' });
  }
}
