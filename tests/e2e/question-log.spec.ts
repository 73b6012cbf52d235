import { OpenApiClient } from '../../electron/client/openapi-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { importRules, registerTenant } from './support/seed';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { E2E_CREDENTIALS } from './support/service';

const RULES = [
  { ruleName: 'reset password', questions: ['How do I reset my password'] },
  { ruleName: 'reset pin', questions: ['How do I reset my card PIN'] },
  { ruleName: 'opening hours', questions: ['What are your opening hours'] },
].map((rule) => ({
  ...rule,
  answerContentType: 'TEXT' as const,
  answer: `About ${rule.ruleName}.`,
}));

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('asks over the API, fixes a missed question from the inbox in two clicks, marks others as test cases, sees the dashboard', async ({
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
      // A "did you mean" list, then the user picks one of its questions: click feedback.
      const offered = await robot.ask('how do I reset', 'visitor-1');
      expect(offered.answerType).toBe('RECOMMEND');
      await robot.ask('How do I reset my card PIN', 'visitor-1');
      await robot.ask('how do I reset', 'visitor-2');
      for (const user of ['a', 'b', 'c']) await robot.ask('is there a student discount', user);
      await robot.ask('What are your opening hours', 'd');
      await robot.ask('can you tell me about the weather', 'e');

      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');

      // Click 1: the inbox. The group with a choice comes first, suggesting the chosen rule.
      await editor.sidebar.getByRole('button', { name: t('inbox.title') }).click();
      const inbox = page.getByTestId('inbox-page');
      const groups = inbox.getByTestId('inbox-group');
      await expect(groups).toHaveCount(3);
      await expect(groups.first().getByRole('heading')).toHaveText('how do I reset');
      await expect(groups.first()).toContainText(
        t('inbox.chosen', { rule: 'reset pin', count: 1 }),
      );
      await expect(groups.nth(1)).toContainText('×3');
      await shoot(page, `inbox-${lang}`);

      // Click 2: add the question to the suggested rule.
      await groups
        .first()
        .getByRole('button', { name: t('inbox.addTo', { rule: 'reset pin' }) })
        .click();
      await expect(page.getByText(t('inbox.added', { count: 1, rule: 'reset pin' }))).toBeVisible();
      await expect(groups).toHaveCount(2);
      const fixed = await robot.ask('how do I reset', 'visitor-3');
      expect(fixed.answerType).toBe('BESTMATCH');
      expect(fixed.answer).toBe('About reset pin.');

      // Mark as test case: one group must get a rule (found like "add to another rule"), the
      // other the fallback. Both leave the inbox and are in the publishing room's test set.
      const discount = groups.filter({ hasText: 'is there a student discount' });
      await discount.getByRole('button', { name: t('inbox.markTest') }).click();
      const form = discount.getByRole('group', { name: t('inbox.markTest') });
      await form.getByRole('searchbox', { name: t('inbox.findRule') }).fill('opening');
      await shoot(page, `inbox-test-case-${lang}`);
      await form.getByRole('button', { name: 'opening hours', exact: true }).click();
      await expect(page.getByText(t('inbox.testsAdded', { count: 1 }))).toBeVisible();
      await expect(groups).toHaveCount(1);
      await groups
        .first()
        .getByRole('button', { name: t('inbox.markTest') })
        .click();
      await groups
        .first()
        .getByRole('button', { name: t('inbox.expectFallback') })
        .click();
      await expect(groups).toHaveCount(0);
      await expect(inbox).toContainText(t('inbox.emptyTitle'));
      const publishing = await editor.openPublishing();
      await publishing.getByRole('tab', { name: t('publishing.tab.tests') }).click();
      const cases = publishing.getByTestId('test-cases');
      await expect(cases.getByRole('row')).toHaveCount(3);
      await expect(
        cases.getByRole('row').filter({ hasText: 'is there a student discount' }),
      ).toContainText(`${t('tests.expect.rule')}opening hours`);
      await expect(
        cases.getByRole('row').filter({ hasText: 'can you tell me about the weather' }),
      ).toContainText(t('tests.expect.fallback'));

      await editor.sidebar.getByRole('button', { name: t('dashboard.title') }).click();
      const dashboard = page.getByTestId('dashboard-page');
      await expect(dashboard.getByTestId('dashboard-totals')).toHaveText(
        t('dashboard.totals', { total: 9, answered: 3, recommended: 2, fallback: 4 }),
      );
      // Questions per day, shares, top questions, top missed, hits per day of the most hit rules.
      await expect(dashboard.locator('canvas')).toHaveCount(5);
      await expect(dashboard.getByTestId('never-hit')).toContainText(
        t('dashboard.neverHitNames', { rules: 'reset password' }),
      );
      const log = dashboard.getByTestId('question-log');
      await expect(log.getByRole('row')).toHaveCount(10);
      await expect(log).toContainText(t('qlog.chosenFrom', { question: 'how do I reset' }));
      // Rule figures, sortable: the most hit rule first, then by last hit.
      const hits = dashboard.getByTestId('rule-hits');
      await expect(hits.getByRole('row').nth(1)).toContainText('reset pin');
      await hits.getByRole('button', { name: t('dashboard.lastHit') }).click();
      await expect(hits.getByRole('row').nth(1)).toContainText('reset pin');
      await hits.getByRole('button', { name: t('dashboard.lastHit') }).click();
      await expect(hits.getByRole('row').nth(1)).toContainText('reset password');
      await shoot(page, `dashboard-${lang}`);
    });
  });
}
