/**
 * The rules grid's Hits and Last hit columns: figures of questions asked over the API, formatted
 * for the language, "never" for rules never hit, and sorted by the service (most first).
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';

const RULES = [
  { ruleName: 'reset password', questions: ['How do I reset my password'] },
  { ruleName: 'opening hours', questions: ['What are your opening hours'] },
  { ruleName: 'delivery', questions: ['How long does delivery take'] },
].map((rule) => ({
  ...rule,
  answerContentType: 'TEXT' as const,
  answer: `About ${rule.ruleName}.`,
}));

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('hits and last hit per rule, sorted by the service, most first', async ({
      page,
      service,
    }) => {
      const seeded = await registerTenant(service);
      await importRules(service, seeded, RULES);
      const robot = new OpenApiClient({ baseUrl: service.baseUrl, ...E2E_CREDENTIALS }).robot(
        seeded.tenantId,
        seeded.robotId,
        seeded.robotSecret,
      );
      for (let i = 0; i < 1200; i += 50) {
        // 1,200 hits of "opening hours" (a number with a group separator), one of "delivery".
        await Promise.all(
          Array.from({ length: 50 }, () => robot.ask('What are your opening hours', 'visitor')),
        );
      }
      await robot.ask('How long does delivery take', 'visitor');

      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(3);
      await rules.revealColumn('hits');
      await expect(rules.header('rules.col.hits')).toBeVisible();
      await expect(rules.header('rules.col.lastHit')).toHaveCount(0);
      await expect(rules.cell(0, 'hits')).toHaveText('0');
      await expect(rules.cell(1, 'hits')).toHaveText((1200).toLocaleString(BROWSER_LOCALE[lang]));

      // Most hits first, then fewest first, then the usual order.
      await rules.header('rules.col.hits').click();
      await expect(rules.cell(0, 'ruleName')).toHaveText('opening hours');
      await expect(rules.cell(1, 'ruleName')).toHaveText('delivery');
      await expect(rules.cell(2, 'ruleName')).toHaveText('reset password');
      await rules.header('rules.col.hits').click();
      await expect(rules.cell(0, 'ruleName')).toHaveText('reset password');
      await expect(rules.cell(2, 'ruleName')).toHaveText('opening hours');
      await rules.header('rules.col.hits').click();
      await expect(rules.cell(0, 'ruleName')).toHaveText('reset password');
      await expect(rules.cell(1, 'ruleName')).toHaveText('opening hours');

      await rules.showColumn('rules.col.lastHit', true);
      await page.keyboard.press('Escape');
      await rules.revealColumn('lastHit');
      await expect(rules.cell(0, 'lastHit')).toHaveText(t('rules.neverHit'));
      const day = lang === 'en' ? /^\d{1,2}\/\d{1,2}\/\d{4}$/ : /^\d{4}\/\d{2}\/\d{2}$/;
      await expect(rules.cell(2, 'lastHit')).toHaveText(day);
      // The latest hit first: "delivery" was asked last; the rule never hit comes last.
      await rules.header('rules.col.lastHit').click();
      await expect(rules.cell(0, 'ruleName')).toHaveText('delivery');
      await expect(rules.cell(1, 'ruleName')).toHaveText('opening hours');
      await expect(rules.cell(2, 'ruleName')).toHaveText('reset password');
      await shoot(page, `rules-hits-${lang}`);
    });
  });
}
