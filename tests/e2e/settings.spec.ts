import type { ConsoleWorkspace } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { SettingsPage } from './page-models/settings-page';
import { importRules, registerTenant, sampleRules } from './support/seed';
import type { SeededRobot } from './support/seed';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import type { RunningService } from './support/service';

async function robotOf(service: RunningService, robot: SeededRobot) {
  const api = consoleClient(service.baseUrl, service.token);
  const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
  const tenant = workspace.tenants.find((x) => x.tenantId === robot.tenantId);
  const found = tenant?.robots.find((x) => x.robotId === robot.robotId);
  if (!found) throw new Error('robot not found');
  return found;
}

const settingsOf = async (service: RunningService, robot: SeededRobot) =>
  (await robotOf(service, robot)).settings;
const defaultsOf = async (service: RunningService, robot: SeededRobot) =>
  (await robotOf(service, robot)).defaults;

async function tryQuestion(service: RunningService, robot: SeededRobot, question: string) {
  const api = consoleClient(service.baseUrl, service.token);
  const path = `/tenants/${robot.tenantId}/robots/${robot.robotId}/try`;
  return api.ok<{ result: { answer: string } }>('POST', path, { question });
}

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);
    const savedAt = new RegExp(
      `^${t('save.savedAt', { time: '\u0000' }).replace('\u0000', '.+')}$`,
    );

    test('edits the robot’s texts, thresholds and synonyms, and saves them', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, sampleRules(3));
      const editor = new EditorPage(page);
      const settings = new SettingsPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await settings.openFromSidebar();

      await expect(settings.view.getByRole('heading', { level: 1 })).toContainText(
        t('settings.title'),
      );
      const before = await settingsOf(service, robot);
      await expect(settings.field('settings.fallbackText')).toHaveValue(before.fallbackText);
      await expect(settings.field('settings.bestmatchThreshold')).toHaveValue(
        String(before.bestmatchThreshold),
      );
      // Each threshold says what it does.
      await expect(settings.view).toContainText(t('settings.bestmatchHint'));
      await expect(settings.view).toContainText(t('settings.recommendThresholdHint'));
      await expect(settings.view.getByRole('button', { name: t('settings.save') })).toBeDisabled();
      await shoot(page, `settings-${lang}`);

      // Problems are said next to their field, naming it as it is labelled.
      await settings.field('settings.fallbackText').fill('   ');
      await expect(settings.errorOf('settings.fallbackText')).toHaveText(
        t('validation.blank', {
          subject: t('problem.subject', { field: t('settings.fallbackText') }),
        }),
      );
      await settings.field('settings.recommendThreshold').fill('0.99');
      await expect(settings.errorOf('settings.recommendThreshold')).toHaveText(
        t('validation.notAbove', {
          subject: t('problem.subject', { field: t('settings.recommendThreshold') }),
          other: t('settings.bestmatchThreshold'),
        }),
      );
      await settings.field('settings.maxRecommend').fill('11');
      await expect(settings.errorOf('settings.maxRecommend')).toContainText(
        t('settings.maxRecommend'),
      );
      await settings.save();
      await expect(settings.status).toHaveText(t('settings.fixFirst'));
      await shoot(page, `settings-errors-${lang}`);

      // Fixed and saved.
      const fallback =
        lang === 'en' ? 'Sorry, ask me another way.' : '抱歉，我还不会回答这个问题。';
      await settings.field('settings.fallbackText').fill(fallback);
      await settings
        .field('settings.recommendText')
        .fill(lang === 'en' ? 'Did you mean:' : '您是不是想问：');
      await settings.field('settings.recommendThreshold').fill('0.2');
      await settings.field('settings.margin').fill('0.05');
      await settings.field('settings.maxRecommend').fill('3');
      await settings.addGroup(['充值', '充钱', 'top up']);
      await settings.addGroup(['退货', '退回']);
      await expect(settings.groups).toHaveCount(2);
      await expect(settings.status).toHaveText(t('settings.unsaved'));
      await settings.save();
      await expect(settings.status).toHaveText(savedAt);
      await expect(page.getByText(t('settings.saved'))).toBeVisible();
      await expect.poll(async () => (await settingsOf(service, robot)).fallbackText).toBe(fallback);
      expect(await settingsOf(service, robot)).toMatchObject({
        recommendThreshold: 0.2,
        margin: 0.05,
        maxRecommend: 3,
        synonyms: [
          ['充值', '充钱', 'top up'],
          ['退货', '退回'],
        ],
      });
      // The robot answers with the new fallback text.
      expect((await tryQuestion(service, robot, 'zzzz qqqq xxxx')).result.answer).toBe(fallback);

      // Kept after a reload; a group and a word removed.
      await page.reload();
      await settings.view.waitFor();
      await expect(settings.field('settings.fallbackText')).toHaveValue(fallback);
      await expect(settings.member(1, 3)).toHaveValue('top up');
      await settings.removeGroup(2);
      await settings.view
        .getByRole('button', { name: t('settings.removeMember', { group: 1, n: 2 }) })
        .click();
      await settings.save();
      await expect(settings.status).toHaveText(savedAt);
      expect((await settingsOf(service, robot)).synonyms).toEqual([['充值', 'top up']]);

      // A group with one word is refused before anything is sent.
      await settings.addGroup(['孤单']);
      await settings.save();
      await expect(settings.groups.nth(1)).toContainText(
        t('validation.minSynonyms', {
          subject: t('problem.subject', { field: t('settings.synonymGroupN', { n: 2 }) }),
          count: 2,
        }),
      );
      // Leaving with unsaved changes asks first, in the editor's own dialog; staying keeps them.
      await editor.sidebar.getByRole('button', { name: /API access|API 接入/ }).click();
      const asked = page.getByTestId('leave-dialog');
      await expect(asked).toContainText(t('settings.leaveConfirm'));
      await asked.getByRole('button', { name: t('common.cancel') }).click();
      await expect(asked).toBeHidden();
      await expect(settings.view).toBeVisible();
      await settings.view.getByRole('button', { name: t('settings.discard') }).click();
      await expect(settings.groups).toHaveCount(1);
      await settings.backToRules();
      await expect(page.getByTestId('rules-view')).toBeVisible();
    });

    test('sets the robot’s language; shows each default and goes back to it', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      const editor = new EditorPage(page);
      const settings = new SettingsPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await settings.openFromSidebar();

      // A robot made without a language and without rules answers in English.
      const defaults = await defaultsOf(service, robot);
      await expect(settings.language()).toHaveValue('en');
      await expect(settings.defaultOf('fallbackText')).toHaveText(t('settings.isDefault'));
      await expect(settings.defaultOf('margin')).toHaveText(t('settings.isDefault'));
      await settings.field('settings.margin').fill('0.3');
      await expect(settings.defaultOf('margin')).toContainText(
        t('settings.defaultValue', { value: String(defaults.margin) }),
      );
      await settings.field('settings.fallbackText').fill('Custom fallback.');
      await expect(settings.defaultOf('fallbackText')).toContainText(
        t('settings.defaultValue', { value: defaults.fallbackText }),
      );
      await settings.save();
      await expect(settings.status).toHaveText(savedAt);
      expect(await settingsOf(service, robot)).toMatchObject({
        margin: 0.3,
        fallbackText: 'Custom fallback.',
      });

      // Chinese: the text left at its default follows the language, the one set does not.
      await settings.language().selectOption({ label: '简体中文' });
      await expect(settings.view).toContainText(
        t('settings.languageChanged', { language: '简体中文' }),
      );
      await settings.language().scrollIntoViewIfNeeded();
      await shoot(page, `settings-language-${lang}`);
      await settings.save();
      await expect(settings.status).toHaveText(savedAt);
      await expect(settings.field('settings.recommendText')).toHaveValue('您是不是想问以下问题？');
      await expect(settings.field('settings.fallbackText')).toHaveValue('Custom fallback.');
      const chinese = await defaultsOf(service, robot);
      expect(chinese.fallbackText).toBe('抱歉，我暂时还不知道这个问题的答案，请换个问法试试。');
      await expect(settings.defaultOf('fallbackText')).toContainText(
        t('settings.defaultValue', { value: chinese.fallbackText }),
      );

      await settings.field('settings.fallbackText').scrollIntoViewIfNeeded();
      await shoot(page, `settings-defaults-${lang}`);

      // Back to the defaults: the fields show them, and the robot follows them again.
      await settings.resetToDefault('settings.fallbackText');
      await settings.resetToDefault('settings.margin');
      await expect(settings.field('settings.fallbackText')).toHaveValue(chinese.fallbackText);
      await expect(settings.field('settings.margin')).toHaveValue(String(chinese.margin));
      await expect(settings.defaultOf('margin')).toHaveText(t('settings.isDefault'));
      await settings.save();
      await expect(settings.status).toHaveText(savedAt);
      expect((await tryQuestion(service, robot, 'zzzz qqqq xxxx')).result.answer).toBe(
        chinese.fallbackText,
      );
      // Not set any more: back in English, it is the English default.
      await settings.language().selectOption({ label: 'English' });
      await settings.save();
      await expect(settings.field('settings.fallbackText')).toHaveValue(defaults.fallbackText);
      expect((await settingsOf(service, robot)).margin).toBe(defaults.margin);
    });
  });
}
