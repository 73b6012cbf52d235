/**
 * The log screen pages from the newest entry back to the oldest and filters by answer, user and
 * text, in both languages (issue 28).
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { QuestionLogPanel } from './page-models/question-log-panel';
import { importRules, registerTenant } from './support/seed';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { E2E_CREDENTIALS } from './support/service';

const RULES = [
  { ruleName: 'opening hours', questions: ['What are your opening hours'] },
  { ruleName: 'delivery', questions: ['How long does delivery take'] },
].map((rule) => ({
  ...rule,
  answerContentType: 'TEXT' as const,
  answer: `About ${rule.ruleName}.`,
}));

/** Asks: 120 in all (pages of 50: three pages), the oldest first. */
const ASKS = Array.from({ length: 120 }, (_, i) => ({
  question: i % 10 === 9 ? `zebra crossing number ${i}` : 'What are your opening hours',
  user: i % 3 === 0 ? 'vip-user' : `user-${i}`,
}));

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('the log pages back to its oldest entry and filters by answer, user and text', async ({
      page,
      service,
    }) => {
      // 120 asks and three pages, twice over, on a shared machine.
      test.setTimeout(240_000);
      const seeded = await registerTenant(service);
      await importRules(service, seeded, RULES);
      const robot = new OpenApiClient({ baseUrl: service.baseUrl, ...E2E_CREDENTIALS }).robot(
        seeded.tenantId,
        seeded.robotId,
        seeded.robotSecret,
      );
      // The first and the last alone (the oldest and the newest entries), the others ten at a time.
      const [first, ...others] = ASKS;
      const last = others.pop();
      if (first) await robot.ask(first.question, first.user);
      for (let i = 0; i < others.length; i += 10) {
        await Promise.all(others.slice(i, i + 10).map((ask) => robot.ask(ask.question, ask.user)));
      }
      if (last) await robot.ask(last.question, last.user);

      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      await editor.sidebar.getByRole('button', { name: t('dashboard.title') }).click();
      const log = new QuestionLogPanel(page, lang);

      // The newest first, 50 a page; older pages down to the oldest entry.
      await expect(log.rows).toHaveCount(50);
      await expect(log.rows.first()).toContainText('zebra crossing number 119');
      await expect(log.button('qlog.newer')).toBeDisabled();
      await log.older(2);
      await expect(log.rows).toHaveCount(50);
      await log.older(3);
      await expect(log.rows).toHaveCount(20);
      await expect(log.rows.last()).toContainText('vip-user');
      await expect(log.button('qlog.older')).toBeDisabled();
      await expect(log.root).toContainText(t('qlog.oldestReached'));
      await log.button('qlog.newer').click();
      await expect(log.pageNumber).toHaveText(t('qlog.pageNumber', { page: 2 }));
      await log.button('qlog.newest').click();
      await expect(log.pageNumber).toHaveText(t('qlog.pageNumber', { page: 1 }));

      // Filters: the fallback answers (the zebra questions), then one user's, then a text.
      await log.outcome('fallback');
      await expect(log.rows).toHaveCount(12);
      await expect(log.root.getByRole('heading')).toContainText('(12)');
      await expect(log.button('qlog.older')).toBeDisabled();
      await log.outcome('');
      await log.userId('vip-user');
      await expect(log.rows).toHaveCount(40);
      await expect(log.button('qlog.older')).toBeDisabled();
      await log.userId('');
      await log.search('zebra crossing number 5');
      await expect(log.rows).toHaveCount(1);
      await expect(log.rows.first()).toContainText('zebra crossing number 59');
      await shoot(page, `question-log-filtered-${lang}`);
    });
  });
}
