import type { Locator, Page } from '@playwright/test';
import { translator } from '../support/i18n';
import type { Locale, Translate } from '../support/i18n';

/** The question log on the dashboard: its filters, its rows and its pager. */
export class QuestionLogPanel {
  readonly t: Translate;
  readonly root: Locator;
  readonly rows: Locator;
  readonly filters: Locator;
  readonly pager: Locator;
  readonly pageNumber: Locator;

  constructor(page: Page, lang: Locale = 'en') {
    this.t = translator(lang);
    this.root = page.getByTestId('question-log');
    this.rows = this.root.locator('tbody tr');
    this.filters = this.root.getByRole('group', { name: this.t('qlog.filters') });
    this.pager = this.root.getByRole('navigation');
    this.pageNumber = this.root.getByTestId('qlog-page');
  }

  button(key: 'qlog.older' | 'qlog.newer' | 'qlog.newest'): Locator {
    return this.pager.getByRole('button', { name: this.t(key), exact: true });
  }

  /** Shows page `page` (1: the newest) once the click has taken effect. */
  async older(page: number): Promise<void> {
    await this.button('qlog.older').click();
    await this.pageNumber.filter({ hasText: this.t('qlog.pageNumber', { page }) }).waitFor();
    await this.loaded();
  }

  /** Waits until the rows shown are the answer to the latest page or filter asked for. */
  async loaded(): Promise<void> {
    await this.root.and(this.root.page().locator('[aria-busy="false"]')).waitFor();
  }

  async search(text: string): Promise<void> {
    await this.filters.getByRole('searchbox', { name: this.t('qlog.search') }).fill(text);
  }

  async userId(text: string): Promise<void> {
    await this.filters.getByRole('searchbox', { name: this.t('qlog.userId') }).fill(text);
  }

  async outcome(value: '' | 'answered' | 'recommended' | 'fallback'): Promise<void> {
    await this.filters.getByRole('combobox', { name: this.t('qlog.outcome') }).selectOption(value);
  }

  async source(value: '' | 'api' | 'try'): Promise<void> {
    await this.filters.getByRole('combobox', { name: this.t('qlog.source') }).selectOption(value);
  }
}
