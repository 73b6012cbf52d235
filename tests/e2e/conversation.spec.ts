/**
 * Menus, small talk and similar phrasings in the editor: a menu built in the matching dialog
 * and tried as a conversation, small talk switched off and on in the robot settings, generated
 * phrasings reviewed one by one.
 */
import type { Page } from '@playwright/test';
import type { ConsoleWorkspace } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { SettingsPage } from './page-models/settings-page';
import { TryPane } from './page-models/try-pane';
import { BROWSER_LOCALE, translator } from './support/i18n';
import { watchedTops, watchTop } from './support/layout-watch';
import { importRules, registerTenant } from './support/seed';
import type { RunningService } from './support/service';

const RULES = [
  {
    ruleName: 'Returns policy',
    questions: ['How do I return an item?', '怎么退货'],
    answerContentType: 'TEXT' as const,
    answer: 'You can return any item within 7 days.',
  },
  {
    ruleName: 'Refund delay',
    questions: ['When will I get my refund?', '退款多久到账'],
    answerContentType: 'TEXT' as const,
    answer: 'Refunds arrive within 3 working days.',
  },
  {
    ruleName: 'After-sales',
    questions: ['after-sales service', '售后服务'],
    answerContentType: 'TEXT' as const,
    answer: 'What do you need help with?',
  },
];

async function seed(service: RunningService): Promise<void> {
  const robot = await registerTenant(service);
  await importRules(service, robot, RULES);
}

/** The robot's settings as the service has them. */
async function savedSettings(service: RunningService) {
  const workspace = await consoleClient(service.baseUrl, service.token).ok<ConsoleWorkspace>(
    'GET',
    '/workspace',
  );
  return workspace.tenants[0]?.robots[0]?.settings;
}

/** Opens the matching dialog of a rule from its cell in the grid. */
async function openMatching(page: Page, rules: RulesPage, name: string) {
  await rules.search.fill(name);
  await rules.waitForRows(1);
  await rules.rowNamed(name).getByTestId('matching-cell').click();
  const dialog = page.getByTestId('rule-matching-dialog');
  await dialog.waitFor();
  return dialog;
}

test.describe('en', () => {
  test.use({ locale: BROWSER_LOCALE.en });
  const t = translator('en');

  test('builds a menu and tries it as a conversation', async ({ page, service }) => {
    await seed(service);
    const editor = new EditorPage(page);
    const rules = new RulesPage(page, 'en');
    const tryPane = new TryPane(page, 'en');
    await editor.open(service);
    await editor.openRobot('Acme');
    await rules.waitForRows(3);

    const dialog = await openMatching(page, rules, 'After-sales');
    const menu = dialog.getByTestId('menu-editor');
    for (const name of ['Returns policy', 'Refund delay']) {
      await menu.getByTestId('menu-rule-search').fill(name);
      await menu.getByRole('button', { name: `+ ${name}`, exact: true }).click();
    }
    await menu.getByRole('textbox', { name: t('conv.entryText', { n: 2 }) }).fill('Refunds');
    await shoot(page, 'menu-editor-en');
    await dialog.getByRole('button', { name: t('conv.save'), exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(rules.rowNamed('After-sales').getByTestId('matching-cell')).toContainText('☰ 2');

    await tryPane.open();
    await tryPane.ask('after-sales service');
    await expect(tryPane.answer).toContainText('What do you need help with?');
    const entries = tryPane.answer.getByTestId('try-menu').getByRole('button');
    await expect(entries).toHaveText(['1. Returns policy', '2. Refunds']);
    await expect(tryPane.why).toContainText(t('try.menuNext'));
    // The customer replies with the entry's number: the answer of that rule.
    await entries.first().click();
    await tryPane.result.getByTestId('try-asked').filter({ hasText: '1' }).waitFor();
    await expect(tryPane.answer).toHaveText('You can return any item within 7 days.');
    await expect(tryPane.why).toHaveText(t('try.chosen', { n: 1, rule: 'Returns policy' }));
    // The menu stays open: the text of another entry works too.
    await tryPane.ask('Refunds');
    await expect(tryPane.answer).toHaveText('Refunds arrive within 3 working days.');
    await expect(page.getByTestId('try-turns').getByRole('listitem')).toHaveCount(2);
    await shoot(page, 'menu-conversation-en');
    // A new conversation forgets the menu.
    await page.getByRole('button', { name: t('try.newConversation') }).click();
    await tryPane.ask('2');
    await expect(tryPane.answer).not.toHaveText('Refunds arrive within 3 working days.');
  });

  test('small talk is answered, and switched off in the robot settings', async ({
    page,
    service,
  }) => {
    await seed(service);
    const editor = new EditorPage(page);
    const tryPane = new TryPane(page, 'en');
    const settings = new SettingsPage(page, 'en');
    await editor.open(service);
    await editor.openRobot('Acme');
    await tryPane.open();
    await tryPane.ask('thank you so much');
    await expect(tryPane.answer).toContainText('welcome');
    await expect(tryPane.why).toContainText('thanks.en');
    await shoot(page, 'small-talk-en');

    await settings.openFromSidebar();
    const card = page.getByTestId('chit-chat-card');
    await card.getByTestId('chit-chat-persona').fill('Kiki');
    await card.getByTestId('chit-chat-on').uncheck();
    await shoot(page, 'small-talk-settings-en');
    await settings.save();
    await expect(page.getByText(t('settings.saved'))).toBeVisible();
    await expect.poll(() => savedSettings(service)).toMatchObject({ chitChat: false });

    await editor.openRobot('Acme');
    await tryPane.open();
    await tryPane.ask('thank you so much');
    await expect(tryPane.why).toHaveText(t('try.fallback'));

    await settings.openFromSidebar();
    await expect(card.getByTestId('chit-chat-persona')).toHaveValue('Kiki');
    await card.getByTestId('chit-chat-on').check();
    await settings.save();
    await expect
      .poll(() => savedSettings(service))
      .toMatchObject({
        chitChat: true,
        persona: 'Kiki',
      });
    await editor.openRobot('Acme');
    await tryPane.open();
    await tryPane.ask('who are you');
    await expect(tryPane.answer).toContainText('Kiki');
  });

  test("the matching dialog stays in place while the menu picker's rules arrive", async ({
    page,
    service,
  }) => {
    await seed(service);
    const editor = new EditorPage(page);
    const rules = new RulesPage(page);
    await editor.open(service);
    await editor.openRobot('Acme');
    await rules.waitForRows(3);
    // Every frame from the dialog's opening on: where the similar-phrasings checkbox is. The
    // picker's rules arriving above it once pushed it down as a click was on its way.
    await watchTop(page, '[data-testid="similar-review"] input');
    const dialog = await openMatching(page, rules, 'Returns policy');
    await expect(dialog.getByRole('button', { name: /^\+ / }).first()).toBeVisible();
    const tops = await watchedTops(page);
    expect(tops).toHaveLength(1);
  });
});

test.describe('zh-CN', () => {
  test.use({ locale: BROWSER_LOCALE['zh-CN'] });
  const t = translator('zh-CN');

  test('reviews generated phrasings one by one; nothing is added without a click', async ({
    page,
    service,
  }) => {
    await seed(service);
    const editor = new EditorPage(page);
    const rules = new RulesPage(page, 'zh-CN');
    await editor.open(service);
    await editor.openRobot('Acme');
    await rules.waitForRows(3);

    const dialog = await openMatching(page, rules, 'Returns policy');
    const review = dialog.getByTestId('similar-review');
    // Clicked, then its state waited for: on a loaded machine the controlled checkbox may show
    // its new state a moment after the click (check() reads it at once).
    const allow = review.getByRole('checkbox', { name: t('conv.allowSimGen') });
    await allow.click();
    await expect(allow).toBeChecked();
    await review.getByRole('button', { name: t('conv.propose') }).click();
    await expect(review.getByText('如何退货', { exact: true })).toBeVisible();
    await review.getByRole('button', { name: t('conv.acceptOne', { text: '如何退货' }) }).click();
    await review.getByRole('button', { name: t('conv.rejectOne', { text: '怎麼退貨' }) }).click();
    await expect(review.getByText('怎麼退貨', { exact: true })).toBeHidden();
    await expect(review).toContainText(t('conv.phrasingCount', { count: 3, max: 10 }));
    await shoot(page, 'similar-review-zh');
    await dialog.getByRole('button', { name: t('conv.save'), exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(rules.cell(0, 'questions')).toContainText('如何退货');
    await expect(rules.cell(0, 'questions')).not.toContainText('怎麼退貨');
    await expect(rules.rowNamed('Returns policy').getByTestId('matching-cell')).toContainText('✦');
  });
});
