/**
 * Two layout complaints of issue 29, in both languages: the robot settings page had a Save per
 * card beside its own and opened where the previous screen was scrolled (now one Save, at the
 * top), and the dashboard's rule names wrapped mid-word (now one line, cut with an ellipsis,
 * the whole name in its title).
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { ConsoleWorkspace } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { SettingsPage } from './page-models/settings-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant, sampleRules } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';
import type { RunningService } from './support/service';
import type { SeededRobot } from './support/seed';

const LONG_NAME = {
  en: 'International parcel returns and refunds policy for overseas orders shipped by sea',
  'zh-CN': '国际快递包裹退货及退款政策说明（适用于所有经海运寄送的海外订单）',
} as const;

async function savedSettings(service: RunningService, robot: SeededRobot) {
  const workspace = await consoleClient(service.baseUrl, service.token).ok<ConsoleWorkspace>(
    'GET',
    '/workspace',
  );
  const tenant = workspace.tenants.find((x) => x.tenantId === robot.tenantId);
  const found = tenant?.robots.find((x) => x.robotId === robot.robotId);
  if (!found) throw new Error('robot not found');
  return found.settings;
}

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('the settings page opens at its top and saves every card with its one Save', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, sampleRules(3));
      const editor = new EditorPage(page);
      const settings = new SettingsPage(page, lang);
      await page.setViewportSize({ width: 1280, height: 600 });
      await editor.open(service);
      await editor.openRobot('Acme');

      // A long screen scrolled to its end, then the settings.
      await editor.sidebar.getByRole('button', { name: t('dashboard.title') }).click();
      const dashboard = page.getByTestId('dashboard-page');
      await dashboard.getByTestId('rule-hits').waitFor();
      const main = page.locator('.app-main');
      await main.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      expect(await main.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      await settings.openFromSidebar();
      await expect(settings.view.getByRole('heading', { level: 1 })).toBeInViewport();
      expect(await main.evaluate((el) => el.scrollTop)).toBe(0);

      // One save on the whole page: no card has its own.
      const names = await settings.view.getByRole('button').allInnerTexts();
      const saves = names.filter((name) => /save|保存/i.test(name));
      expect(saves).toEqual([t('settings.save')]);
      await expect(settings.view.getByRole('button', { name: t('settings.save') })).toBeDisabled();

      // Small talk, embedding model and a text changed together, saved at once.
      await settings
        .field('settings.fallbackText')
        .fill(lang === 'en' ? 'Ask again.' : '请换个问法。');
      const chat = page.getByTestId('chit-chat-card');
      await chat.getByTestId('chit-chat-persona').fill(lang === 'en' ? 'Kiki' : '小琪');
      await chat.getByTestId('chit-chat-on').uncheck();
      const embedding = page.getByTestId('embedding-card');
      await embedding.getByTestId('embedding-timeout').fill('900');
      await expect(settings.status).toHaveText(t('settings.unsaved'));
      await settings.save();
      await expect(page.getByText(t('settings.saved'))).toBeVisible();
      await expect(settings.status).not.toHaveText(t('settings.unsaved'));
      expect(await savedSettings(service, robot)).toMatchObject({
        fallbackText: lang === 'en' ? 'Ask again.' : '请换个问法。',
        persona: lang === 'en' ? 'Kiki' : '小琪',
        chitChat: false,
        embeddingTimeoutMs: 900,
      });
      await expect(settings.view.getByRole('button', { name: t('settings.save') })).toBeDisabled();

      // A card's change alone is guarded on leaving, and discarded with the page's Discard.
      await chat.getByTestId('chit-chat-persona').fill('Momo');
      await editor.sidebar.getByRole('button', { name: /API access|API 接入/ }).click();
      const asked = page.getByTestId('leave-dialog');
      await expect(asked).toContainText(t('settings.leaveConfirm'));
      await asked.getByRole('button', { name: t('common.cancel') }).click();
      await settings.view.getByRole('button', { name: t('settings.discard') }).click();
      await expect(chat.getByTestId('chit-chat-persona')).toHaveValue(
        lang === 'en' ? 'Kiki' : '小琪',
      );

      // Scrolled to its end, away and back: at the top again.
      await main.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await editor.sidebar.getByRole('button', { name: t('dashboard.title') }).click();
      await dashboard.waitFor();
      await settings.openFromSidebar();
      expect(await main.evaluate((el) => el.scrollTop)).toBe(0);
      await shoot(page, `settings-top-${lang}`);
    });

    test('the dashboard shows a long rule name on one line, whole in its title', async ({
      page,
      service,
    }) => {
      const seeded = await registerTenant(service);
      const name = LONG_NAME[lang];
      await importRules(service, seeded, [
        {
          ruleName: name,
          questions: ['how do I return a parcel from abroad', '海外包裹怎么退货'],
          answerContentType: 'TEXT',
          answer: lang === 'en' ? 'Send it back within 30 days.' : '30 天内寄回即可。',
        },
      ]);
      const robot = new OpenApiClient({ baseUrl: service.baseUrl, ...E2E_CREDENTIALS }).robot(
        seeded.tenantId,
        seeded.robotId,
        seeded.robotSecret,
      );
      await robot.ask('海外包裹怎么退货', 'visitor-1');
      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      await editor.sidebar.getByRole('button', { name: t('dashboard.title') }).click();
      const hits = page.getByTestId('rule-hits');
      const cell = hits.getByTitle(name, { exact: true });
      await expect(cell).toHaveText(name);
      await expect(cell).toHaveCSS('white-space', 'nowrap');
      await expect(cell).toHaveCSS('text-overflow', 'ellipsis');
      await expect(cell).toHaveCSS('overflow-x', 'hidden');
      // Its lines: its height over its line height (source text: this file is type-checked for
      // Node, without the DOM's globals).
      const lines = await page.evaluate(`(() => {
        const el = document.querySelector('[data-testid="rule-hits"] .rule-hits-name');
        return Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight));
      })()`);
      expect(lines).toBe(1);
      // The column is wide enough for a readable part of the name (it was 72 px wide).
      expect((await cell.boundingBox())?.width ?? 0).toBeGreaterThan(300);
      await shoot(page, `dashboard-rule-names-${lang}`);
    });
  });
}
