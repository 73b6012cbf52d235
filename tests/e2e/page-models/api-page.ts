import type { Locator, Page } from '@playwright/test';

/** The API access page. */
export class ApiPage {
  readonly page: Page;
  readonly view: Locator;
  readonly curl: Locator;

  constructor(page: Page) {
    this.page = page;
    this.view = page.getByTestId('api-page');
    this.curl = this.view.getByTestId('curl-example');
  }

  secret(label: string): Locator {
    return this.view.getByLabel(label, { exact: true });
  }

  async reveal(label: string): Promise<void> {
    await this.view.getByRole('button', { name: `Reveal ${label}` }).click();
  }
}
