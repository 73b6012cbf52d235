/**
 * The try pane's asks in the log screen (issue 29): the editor asked, not a customer, so the
 * user column names the try pane in the editor's language rather than its internal conversation
 * id (try-…), and the log filters customers' asks from the editor's own.
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { QuestionLogPanel } from './page-models/question-log-panel';
import { TryPane } from './page-models/try-pane';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';

const RULES = [{ ruleName: 'opening hours', questions: ['What are your opening hours'] }].map(
  (rule) => ({ ...rule, answerContentType: 'TEXT' as const, answer: `About ${rule.ruleName}.` }),
);

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('a try-pane ask is listed as the try pane’s, never under an internal id, and filtered apart', async ({
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
      await robot.ask('What are your opening hours', 'visitor-1');

      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      const tryPane = new TryPane(page, lang);
      await tryPane.open();
      await tryPane.ask('when do you open');

      await editor.sidebar.getByRole('button', { name: t('dashboard.title') }).click();
      const log = new QuestionLogPanel(page, lang);
      await log.loaded();
      await expect(log.rows).toHaveCount(2);
      const tried = log.rows.filter({ hasText: 'when do you open' });
      await expect(tried.getByTestId('qlog-try-user')).toHaveText(t('qlog.tryUser'));
      await expect(log.root).not.toContainText(/try-[a-z0-9]/);
      await shoot(page, `question-log-try-pane-${lang}`);

      await log.source('try');
      await log.loaded();
      await expect(log.rows).toHaveCount(1);
      await expect(log.rows.first()).toContainText('when do you open');
      await log.source('api');
      await log.loaded();
      await expect(log.rows).toHaveCount(1);
      await expect(log.rows.first()).toContainText('visitor-1');
      await expect(log.rows.first()).toContainText(t('qlog.sourceApi'));
    });
  });
}
