import type { Locator, Page } from '@playwright/test';

/** The import dialog: file, mapping, progress, report. */
export class ImportDialog {
  readonly page: Page;
  readonly dialog: Locator;
  readonly progress: Locator;
  readonly report: Locator;
  readonly summary: Locator;

  constructor(page: Page) {
    this.page = page;
    this.dialog = page.getByTestId('import-dialog');
    this.progress = this.dialog.getByRole('progressbar', { name: 'Import progress' });
    this.report = this.dialog.getByTestId('import-report');
    this.summary = this.dialog.getByTestId('import-summary');
  }

  async open(): Promise<void> {
    await this.page
      .getByTestId('rules-view')
      .getByRole('button', { name: 'Import' })
      .first()
      .click();
    await this.dialog.waitFor();
  }

  async chooseFile(path: string): Promise<void> {
    await this.dialog.getByTestId('import-file').setInputFiles(path);
    await this.summary.waitFor();
  }

  async setBatchSize(size: number): Promise<void> {
    await this.dialog.getByRole('spinbutton', { name: 'Batch size' }).fill(String(size));
  }

  async start(): Promise<void> {
    await this.dialog.getByRole('button', { name: /^Import [\d,]+ rows$/ }).click();
  }

  async waitForReport(): Promise<void> {
    await this.report.waitFor({ timeout: 120_000 });
  }

  failureRows(): Locator {
    return this.report.getByRole('table', { name: 'Failed rows' }).locator('tbody tr');
  }

  async close(): Promise<void> {
    await this.dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await this.dialog.waitFor({ state: 'hidden' });
  }
}
