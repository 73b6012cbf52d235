/**
 * The robot's embedding model in the editor, in both languages: set in the robot settings (its
 * own provider, the key never shown again), the connection tested, and the try pane saying how
 * the model took part, or that it failed and words alone decided.
 */
import { expect, shoot, test } from './fixtures';
import { startEmbeddingServer } from '../helpers/embedding-server';
import type { EmbeddingServer } from '../helpers/embedding-server';
import { EditorPage } from './page-models/editor-page';
import { SettingsPage } from './page-models/settings-page';
import { TryPane } from './page-models/try-pane';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant } from './support/seed';

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
];

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);
    let server: EmbeddingServer;
    test.beforeEach(async () => {
      server = await startEmbeddingServer({ apiKey: 'sk-e2e' });
    });
    test.afterEach(() => server.close());

    test('an embedding model set, tested, and explained in the try pane', async ({
      page,
      service,
    }) => {
      test.slow();
      const robot = await registerTenant(service);
      await importRules(service, robot, RULES);
      const editor = new EditorPage(page);
      const settings = new SettingsPage(page, lang);
      const tryPane = new TryPane(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await settings.openFromSidebar();
      const card = page.getByTestId('embedding-card');
      await card.getByTestId('embedding-mode').selectOption('custom');
      await card.getByTestId('embedding-api').selectOption('ollama');
      await card.getByTestId('embedding-base').fill(server.url);
      await card.getByTestId('embedding-model').fill('test-model');
      await card.getByTestId('embedding-key').fill('sk-e2e');
      await card.getByTestId('embedding-test').click();
      await expect(card.getByTestId('embedding-tested')).toHaveText(
        new RegExp(t('embedding.testOk', { dimensions: 64, ms: 0 }).replace(/0[^0-9]*$/, '')),
      );
      await settings.save();
      await expect(page.getByText(t('settings.saved'))).toBeVisible();
      await expect(card.getByTestId('embedding-key')).toHaveValue('');
      await expect(card.getByTestId('embedding-key')).toHaveAttribute(
        'placeholder',
        t('embedding.keySet'),
      );
      await shoot(page, `embedding-settings-${lang}`);

      await editor.openRobot('Acme');
      await tryPane.open();
      await tryPane.ask('How do I return an item?');
      await expect(page.getByTestId('try-semantic')).toBeVisible();
      server.options.fault = 'error500';
      await tryPane.ask('How can I return an item, please?');
      await expect(page.getByTestId('try-semantic')).toHaveText(
        t('try.semantic.failed', { model: 'test-model' }),
      );
      await expect(tryPane.answer).toHaveText('You can return any item within 7 days.');
      await shoot(page, `embedding-try-failed-${lang}`);
    });
  });
}
