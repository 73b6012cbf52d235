import type { Locator, Page } from '@playwright/test';
import type { RunningService } from '../support/service';

/** The shell of the editor: header, sidebar, language, help. */
export class EditorPage {
  readonly page: Page;
  readonly sidebar: Locator;
  readonly main: Locator;

  constructor(page: Page) {
    this.page = page;
    this.sidebar = page.getByRole('navigation', { name: /Workspace|工作区/ });
    this.main = page.getByRole('main');
  }

  /** Opens the editor with the URL the service printed (token included). */
  async open(service: RunningService, hash = ''): Promise<void> {
    await this.page.goto(service.editorUrl + hash);
    await this.sidebar.waitFor();
  }

  /** Opens a robot by its name (by default the first robot's, shown in either language). */
  async openRobot(company: string, robotName?: string): Promise<void> {
    const tenant = this.sidebar.getByRole('listitem').filter({ hasText: company });
    const name = robotName === undefined ? '(?:Default robot|默认机器人)' : escapeRegExp(robotName);
    // The robot's entry: its name and rule count (not its settings entry, which names it too).
    await tenant.getByRole('button', { name: new RegExp(`^${name}[\\d,\\s]*$`) }).click();
    await this.page.getByTestId('rules-view').waitFor();
  }

  async openTenant(company: string): Promise<void> {
    await this.sidebar
      .getByRole('button', { name: new RegExp(company) })
      .first()
      .click();
    await this.page.getByTestId('tenant-page').waitFor();
  }

  /** Opens the robot's publishing page (versions, test sets, the impact preview). */
  async openPublishing(): Promise<Locator> {
    await this.sidebar.getByRole('button', { name: /Publishing|发布/ }).click();
    const view = this.page.getByTestId('publishing-page');
    await view.waitFor();
    return view;
  }

  async openApiAccess(): Promise<void> {
    await this.sidebar.getByRole('button', { name: /API access|API 接入/ }).click();
    await this.page.getByTestId('api-page').waitFor();
  }

  async setLanguage(label: 'English' | '简体中文'): Promise<void> {
    await this.page.getByRole('combobox', { name: /Language|语言/ }).selectOption({ label });
  }

  async openHelp(): Promise<Locator> {
    await this.page.keyboard.press('F1');
    const overlay = this.page.getByTestId('help-overlay');
    await overlay.waitFor();
    return overlay;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
