import type { Locator, Page } from '@playwright/test';
import { translator } from '../support/i18n';
import type { Locale, Translate } from '../support/i18n';

/** The try-a-question pane beside the grid, in the language of the test. */
export class TryPane {
  readonly page: Page;
  readonly t: Translate;
  readonly pane: Locator;
  readonly result: Locator;
  readonly verdict: Locator;
  readonly answer: Locator;
  readonly why: Locator;
  readonly details: Locator;

  constructor(page: Page, lang: Locale = 'en') {
    this.page = page;
    this.t = translator(lang);
    this.pane = page.getByTestId('try-pane');
    this.result = this.pane.getByTestId('try-result');
    this.verdict = this.result.getByTestId('try-verdict');
    this.answer = this.verdict.getByTestId('try-answer');
    this.why = this.verdict.getByTestId('try-why');
    this.details = this.result.getByTestId('try-details');
  }

  async open(): Promise<void> {
    await this.page
      .getByTestId('rules-view')
      .getByRole('button', { name: this.t('try.open'), exact: true })
      .click();
    await this.pane.waitFor();
  }

  async ask(question: string): Promise<void> {
    await this.pane.getByRole('searchbox', { name: this.t('try.question') }).fill(question);
    await this.pane.getByRole('button', { name: this.t('try.ask'), exact: true }).click();
    // The answer, or the pane's error (said, rather than waited out until a timeout).
    const answered = this.result.getByTestId('try-asked').filter({ hasText: question });
    const failed = this.pane.locator(':scope > .error-message');
    await answered.or(failed).first().waitFor();
    if (await failed.isVisible()) {
      throw new Error(`the try pane answered "${question}" with: ${await failed.innerText()}`);
    }
  }

  /** Asks as of a date and time (`YYYY-MM-DDTHH:mm`, local), or now when `asOf` is null. */
  async setAsOf(asOf: string | null): Promise<void> {
    const box = this.pane.getByRole('checkbox', { name: this.t('try.asOf') });
    await box.setChecked(asOf !== null);
    if (asOf !== null) await this.pane.getByLabel(this.t('try.asOfDate')).fill(asOf);
  }

  candidates(): Locator {
    return this.pane.getByTestId('try-candidate');
  }

  candidate(ruleName: string): Locator {
    return this.candidates().filter({
      has: this.page.getByRole('button', { name: ruleName, exact: true }),
    });
  }

  async addPhrasing(ruleName: string, question: string): Promise<void> {
    await this.candidate(ruleName)
      .getByRole('button', { name: this.t('try.addPhrasingTo', { question, rule: ruleName }) })
      .click();
  }

  /** Opens the details (or closes them, when open). */
  async openDetails(): Promise<void> {
    await this.details.getByText(this.t('try.details')).click();
  }

  history(): Locator {
    return this.pane.getByRole('region', { name: this.t('try.history') }).getByRole('listitem');
  }
}
