import type { Locator, Page } from '@playwright/test';

/** The try-a-question pane beside the grid. */
export class TryPane {
  readonly page: Page;
  readonly pane: Locator;
  readonly result: Locator;

  constructor(page: Page) {
    this.page = page;
    this.pane = page.getByTestId('try-pane');
    this.result = this.pane.getByTestId('try-result');
  }

  async open(): Promise<void> {
    await this.page
      .getByTestId('rules-view')
      .getByRole('button', { name: 'Try a question' })
      .click();
    await this.pane.waitFor();
  }

  async ask(question: string): Promise<void> {
    await this.pane.getByRole('searchbox', { name: 'Question' }).fill(question);
    await this.pane.getByRole('button', { name: 'Ask' }).click();
    await this.result.getByTestId('try-asked').filter({ hasText: question }).waitFor();
  }

  candidates(): Locator {
    return this.pane.getByRole('list', { name: 'Candidates' }).getByRole('button');
  }

  history(): Locator {
    return this.pane.getByRole('region', { name: 'History' }).getByRole('listitem');
  }
}
