/**
 * The dashboard reads its rules' figures a page at a time and more on demand, in both languages
 * (issue 28, decision 130): a robot of 120 rules shows the first 100, then all of them.
 */
import { expect, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { importRules, registerTenant } from './support/seed';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';

const RULES = Array.from({ length: 120 }, (_, i) => ({
  ruleName: `rule number ${i}`,
  questions: [`what is thing number ${i}`],
  answerContentType: 'TEXT' as const,
  answer: `Thing ${i}.`,
}));

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('the rules’ figures come a page at a time, more on demand', async ({ page, service }) => {
      // 120 rules imported and two pages read, on a shared machine.
      test.setTimeout(240_000);
      const seeded = await registerTenant(service);
      await importRules(service, seeded, RULES);
      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      await editor.sidebar.getByRole('button', { name: t('dashboard.title') }).click();
      const dashboard = page.getByTestId('dashboard-page');
      const shown = dashboard.getByTestId('rule-analytics-shown');
      await expect(shown).toContainText(t('dashboard.rulesShown', { shown: 100, total: 120 }));
      await expect(dashboard.getByTestId('rule-analytics')).toContainText(
        t('dashboard.neverHit', { count: 100, total: 100 }),
      );
      const nextPage = page.waitForResponse((response) =>
        response.url().includes('/analytics?offset=100&limit=100'),
      );
      await shown.getByRole('button', { name: t('dashboard.moreRules') }).click();
      await nextPage;
      await expect(shown).toContainText(t('dashboard.rulesShown', { shown: 120, total: 120 }));
      await expect(dashboard.getByTestId('rule-analytics')).toContainText(
        t('dashboard.neverHit', { count: 120, total: 120 }),
      );
      await expect(shown.getByRole('button', { name: t('dashboard.moreRules') })).toHaveCount(0);
    });
  });
}
